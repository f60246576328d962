import Foundation
import Seams

/// Loads and commits a pair's archive in the state folder, through the boundaries.
///
/// A commit is atomic and durable: temp file, flush, rename over the old archive, flush the
/// folder. A damaged or foreign file is moved aside (`….corrupt-<date>`) and the state is rebuilt
/// from nothing, in which every difference becomes a kept-both conflict and nothing is deleted; a
/// file from a newer version is an error and stays untouched.
struct ArchiveStore: Sendable {
    let directories: any DirectoryAccessorProviding
    let files: any FileAccessorProviding
    let stateDirectory: URL
    let localRoot: URL
    let containerRoot: URL

    /// The archive file of this pair: `pair-<hash>.json`, the hash of both roots' paths.
    var url: URL {
        let key = localRoot.standardizedFileURL.path + "\u{0}" + containerRoot.standardizedFileURL.path
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let name = "pair-" + String(repeating: "0", count: 16 - hex.count) + hex + ".json"
        return stateDirectory.appending(path: name, directoryHint: .notDirectory)
    }

    private var emptyArchive: Archive {
        Archive(localRoot: localRoot.path, containerRoot: containerRoot.path)
    }

    /// The stored archive, an empty one on the first run, or a rebuilt (empty) one.
    ///
    /// - Parameter moveAside: Whether a damaged file is renamed out of the way (not in a dry run).
    /// - Returns: The archive and whether it was rebuilt.
    func load(moveAside: Bool, now: Date) throws -> (Archive, rebuilt: Bool) {
        let data: Data
        do {
            data = try files.read(from: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return (emptyArchive, false)
        } catch {
            throw SyncError.readFailed(url, UnderlyingError(error))
        }
        do {
            let archive = try ArchiveCodec.decode(data)
            if archive.localRoot == localRoot.path, archive.containerRoot == containerRoot.path {
                return (archive, false)
            }
        } catch .unsupportedVersion(let version) {
            throw SyncError.unsupportedState(url, version: version)
        } catch .corrupt {}
        if moveAside {
            let aside = url.deletingLastPathComponent().appending(
                path: url.lastPathComponent + ".corrupt-" + String(Int(now.timeIntervalSince1970)),
                directoryHint: .notDirectory)
            do {
                try directories.moveItem(at: url, to: aside, replacingExisting: true)
            } catch {
                throw SyncError.writeFailed(aside, UnderlyingError(error))
            }
        }
        return (emptyArchive, true)
    }

    /// Commits `archive` atomically and durably.
    ///
    /// - Parameters:
    ///   - archive: The new state.
    ///   - runID: This run's id, for the temp name.
    func commit(_ archive: Archive, runID: String) throws {
        let temp = temporaryURL(runID: runID)
        do {
            try files.write(try ArchiveCodec.encode(archive), to: temp)
            try directories.synchronizeFile(at: temp)
            try directories.moveItem(at: temp, to: url, replacingExisting: true)
            try directories.synchronizeDirectory(at: stateDirectory)
        } catch let error as SyncError {
            throw error
        } catch {
            try? directories.removeItem(at: temp, recursively: false)
            throw SyncError.writeFailed(url, UnderlyingError(error))
        }
    }

    /// Creates the state folder if needed and removes what crashed commits of this pair left
    /// there. Called only by a run that holds the container's lock.
    func prepare() throws {
        do {
            try directories.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw SyncError.writeFailed(stateDirectory, UnderlyingError(error))
        }
        removeLeftoverTemporaries()
    }
}
