public import Foundation
public import Seams

extension InMemoryFileSystem: DirectoryAccessorProviding {
    /// The folder's items with their metadata, sorted by the names' bytes.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        try perform(.contentsOfDirectory, url) { tree throws(MemoryFailure) in try tree.list(MemoryPath(url)) }
    }

    /// The item's metadata; `fileIdentifier` is the inode number, assigned in creation order.
    public func metadata(at url: URL) throws -> FileMetadata {
        try perform(.metadata, url) { tree throws(MemoryFailure) in tree.metadata(of: try tree.lookup(MemoryPath(url)))
        }
    }

    /// Creates a folder (mode `0o755`), its parents only when asked.
    public func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        try perform(.createDirectory, url) { tree throws(MemoryFailure) in
            try tree.createDirectory(MemoryPath(url), intermediates: withIntermediateDirectories)
        }
    }

    /// Removes a name; a non-empty folder only when `recursively`.
    public func removeItem(at url: URL, recursively: Bool) throws {
        try perform(.removeItem, url) { tree throws(MemoryFailure) in
            try tree.remove(MemoryPath(url), recursively: recursively)
        }
    }

    /// Renames atomically with `rename(2)`'s rules, or refuses an existing destination.
    public func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        try perform(.moveItem, source, destination) { tree throws(MemoryFailure) in
            try tree.move(MemoryPath(source), to: MemoryPath(destination), replacing: replacingExisting)
        }
    }

    /// Swaps two items in one step, as `renameat2(RENAME_EXCHANGE)` does; `false`, changing
    /// nothing, where ``exchangesItems`` is off or either folder folds case (FAT and exFAT cannot).
    public func exchangeItems(at first: URL, and second: URL) throws -> Bool {
        try perform(.moveItem, first, second) { tree throws(MemoryFailure) in
            try tree.exchange(MemoryPath(first), MemoryPath(second))
        }
    }

    /// Copies into new inodes, keeping permissions and dates.
    public func copyItem(at source: URL, to destination: URL) throws {
        try perform(.copyItem, source, destination) { tree throws(MemoryFailure) in
            try tree.copy(MemoryPath(source), to: MemoryPath(destination))
        }
    }

    /// Adds a name for a file; both names share one inode.
    public func linkItem(at source: URL, to destination: URL) throws {
        try perform(.linkItem, source, destination) { tree throws(MemoryFailure) in
            try tree.link(MemoryPath(source), to: MemoryPath(destination))
        }
    }

    /// The link's target text, as stored.
    public func destinationOfSymbolicLink(at url: URL) throws -> String {
        try perform(.destinationOfSymbolicLink, url) { tree throws(MemoryFailure) in
            try tree.destinationOfLink(MemoryPath(url))
        }
    }

    /// Makes a link (mode `0o777`, as Linux shows links) holding `destination` verbatim.
    public func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        try perform(.createSymbolicLink, url) { tree throws(MemoryFailure) in
            try tree.makeSymbolicLink(to: destination, at: MemoryPath(url))
        }
    }

    /// Makes the item's content, permissions and date (for a folder, its names) durable.
    public func synchronizeFile(at url: URL) throws {
        try perform(.synchronizeFile, url) { tree throws(MemoryFailure) in
            try tree.flush(MemoryPath(url), directoryOnly: false)
        }
    }

    /// Makes the folder's names durable, so creations, removals and renames in it survive a cut.
    public func synchronizeDirectory(at url: URL) throws {
        try perform(.synchronizeDirectory, url) { tree throws(MemoryFailure) in
            try tree.flush(MemoryPath(url), directoryOnly: true)
        }
    }

    /// Sets the permission bits (the owner may always do so).
    public func setPermissions(_ permissions: UInt16, at url: URL) throws {
        try perform(.setPermissions, url) { tree throws(MemoryFailure) in
            try tree.setPermissions(permissions, at: MemoryPath(url))
        }
    }

    /// Sets the modification date, kept to the nanosecond.
    public func setModificationDate(_ date: Date, at url: URL) throws {
        try perform(.setModificationDate, url) { tree throws(MemoryFailure) in
            try tree.setModified(date, at: MemoryPath(url))
        }
    }
}

extension DirectoryAccessorProviding where Self == InMemoryFileSystem {
    /// A fresh, empty in-memory file system.
    ///
    /// ```swift
    /// let engine = Engine(directories: .inMemory)
    /// ```
    public static var inMemory: InMemoryFileSystem { InMemoryFileSystem() }
}
