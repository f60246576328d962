import Foundation
import SeamsCore

/// Refuses a pair whose folders are the same, nested, or hold the state folder, judged by each
/// folder's identity on its volume (device and inode) and every ancestor's, walked up with `..`
/// as the kernel resolves it: a bind mount, a symbolic link in a path or two spellings of one
/// path cannot get around it.
struct FolderOverlap {
    let directories: any DirectoryAccessorProviding

    private struct Identity: Hashable {
        let volume: UInt64
        let item: UInt64

        init(_ metadata: FileMetadata) {
            volume = metadata.volumeIdentifier
            item = metadata.fileIdentifier
        }
    }

    /// - Parameters:
    ///   - local: The local folder.
    ///   - container: The container.
    ///   - containerHasLocalIdentities: Whether the container's items have this machine's
    ///     identities; a server's collection cannot be or hold a local folder, so only local
    ///     folders are compared.
    ///   - state: The state folder.
    /// - Throws: ``SyncError/overlappingFolders(_:_:)`` or ``SyncError/stateInsideFolder(_:_:)``.
    func check(local: URL, container: URL, containerHasLocalIdentities: Bool = true, state: URL) throws {
        guard let localChain = chain(from: local) else { return }
        var roots = [(local, localChain)]
        if containerHasLocalIdentities {
            guard let containerChain = chain(from: container) else { return }
            if localChain.contains(containerChain[0]) || containerChain.contains(localChain[0]) {
                throw SyncError.overlappingFolders(local, container)
            }
            roots.append((container, containerChain))
        }
        guard let stateChain = chain(from: nearestExisting(state)) else { return }
        for (root, chain) in roots where stateChain.contains(chain[0]) {
            throw SyncError.stateInsideFolder(state, root)
        }
    }

    /// The identities of `url` and of each folder above it, up to the root (`nil` when it cannot
    /// be read; the run then fails later where it reads it, with that error).
    private func chain(from url: URL) -> [Identity]? {
        var result: [Identity] = []
        var current = url
        for _ in 0..<4096 {
            guard let metadata = try? directories.metadata(at: current) else { return result.isEmpty ? nil : result }
            let identity = Identity(metadata)
            if result.last == identity { return result }  // `/..` is `/`
            result.append(identity)
            current = current.appending(path: "..", directoryHint: .isDirectory)
        }
        return result
    }

    /// `url`, or its nearest ancestor that exists (the state folder is made on the first run).
    private func nearestExisting(_ url: URL) -> URL {
        var current = url.standardizedFileURL
        while (try? directories.metadata(at: current)) == nil, current.path != "/" {
            current = current.deletingLastPathComponent()
        }
        return current
    }
}
