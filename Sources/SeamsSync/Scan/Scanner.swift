public import Foundation
public import SeamsCore

/// Lists a folder tree through ``DirectoryAccessorProviding``: one listing call per folder.
public struct Scanner: Sendable {
    private let directories: any DirectoryAccessorProviding

    /// Creates a scanner.
    ///
    /// - Parameter directories: The boundary that lists folders.
    public init(directories: any DirectoryAccessorProviding) {
        self.directories = directories
    }

    /// Scans the tree under `root`.
    ///
    /// - Parameters:
    ///   - root: The synced folder.
    ///   - expectedCount: About how many items to expect (the archive's count), so the snapshot
    ///     is allocated once.
    ///   - shouldStop: Looked at between folders; when it says `true` the scan ends with ``ScanStopped``.
    /// - Returns: Every item's metadata; folders that could not be listed are recorded, not
    ///   treated as empty.
    /// - Throws: The boundary's error when `root` itself cannot be listed, ``ScanStopped`` when asked to stop.
    public func scan(_ root: URL, expectedCount: Int = 0, shouldStop: () -> Bool = { false }) throws -> Snapshot {
        var snapshot = Snapshot()
        snapshot.items.reserveCapacity(expectedCount)
        var pending: [(SyncPath?, URL)] = []
        let top = try directories.contentsOfDirectory(at: root)
        add(top, under: nil, root: root, to: &snapshot, pending: &pending)
        while let (path, url) = pending.popLast() {
            if shouldStop() { throw ScanStopped() }
            do {
                let entries = try directories.contentsOfDirectory(at: url)
                add(entries, under: path, root: root, to: &snapshot, pending: &pending)
            } catch {
                if let path { snapshot.unreadableFolders[path] = UnderlyingError(error) }
            }
        }
        return snapshot
    }

    private func add(
        _ entries: [DirectoryEntry], under parent: SyncPath?, root: URL,
        to snapshot: inout Snapshot, pending: inout [(SyncPath?, URL)]
    ) {
        for entry in entries {
            let path = parent?.appending(entry.name) ?? SyncPath(entry.name)
            if Snapshot.isOwnName(entry.name) {
                if Snapshot.isTemporaryName(entry.name), entry.metadata.kind == .file || entry.metadata.kind == .symbolicLink {
                    snapshot.leftovers.append(path)
                } else if parent != nil || !Snapshot.ownRootNames.contains(entry.name) {
                    snapshot.reserved.append(path)  // a user's item with a name like ours: left alone
                }
                continue
            }
            snapshot.items[path] = entry.metadata
            if entry.metadata.kind == .directory {
                pending.append((path, path.url(in: root)))
            }
        }
    }
}

/// A scan that ended early because it was asked to stop; it had changed nothing.
public struct ScanStopped: Error, Hashable, Sendable {
    /// Creates the error.
    public init() {}
}
