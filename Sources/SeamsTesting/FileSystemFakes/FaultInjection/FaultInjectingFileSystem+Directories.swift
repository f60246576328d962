public import Foundation
public import Seams

extension FaultInjectingFileSystem: DirectoryAccessorProviding {
    /// The wrapped listing, unless failed.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        try perform(.contentsOfDirectory, url) { try directories.contentsOfDirectory(at: url) }
    }

    /// The wrapped metadata, unless failed.
    public func metadata(at url: URL) throws -> FileMetadata {
        try perform(.metadata, url) { try directories.metadata(at: url) }
    }

    /// The wrapped call, unless failed.
    public func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        try perform(.createDirectory, url) {
            try directories.createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories)
        }
    }

    /// The wrapped call, unless failed.
    public func removeItem(at url: URL, recursively: Bool) throws {
        try perform(.removeItem, url) { try directories.removeItem(at: url, recursively: recursively) }
    }

    /// The wrapped call, unless failed.
    public func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        try perform(.moveItem, source, destination) {
            try directories.moveItem(at: source, to: destination, replacingExisting: replacingExisting)
        }
    }

    /// The wrapped call, unless failed.
    public func copyItem(at source: URL, to destination: URL) throws {
        try perform(.copyItem, source, destination) { try directories.copyItem(at: source, to: destination) }
    }

    /// The wrapped call, unless failed.
    public func linkItem(at source: URL, to destination: URL) throws {
        try perform(.linkItem, source, destination) { try directories.linkItem(at: source, to: destination) }
    }

    /// The wrapped call, unless failed.
    public func destinationOfSymbolicLink(at url: URL) throws -> String {
        try perform(.destinationOfSymbolicLink, url) { try directories.destinationOfSymbolicLink(at: url) }
    }

    /// The wrapped call, unless failed.
    public func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        try perform(.createSymbolicLink, url) {
            try directories.createSymbolicLink(at: url, withDestination: destination)
        }
    }

    /// The wrapped call, unless failed.
    public func synchronizeFile(at url: URL) throws {
        try perform(.synchronizeFile, url) {
            if !ignores(.synchronizeFile, url) { try directories.synchronizeFile(at: url) }
        }
    }

    /// The wrapped call, unless failed.
    public func synchronizeDirectory(at url: URL) throws {
        try perform(.synchronizeDirectory, url) {
            if !ignores(.synchronizeDirectory, url) { try directories.synchronizeDirectory(at: url) }
        }
    }

    /// The wrapped call, unless failed.
    public func setPermissions(_ permissions: UInt16, at url: URL) throws {
        try perform(.setPermissions, url) { try directories.setPermissions(permissions, at: url) }
    }

    /// The wrapped call, unless failed.
    public func setModificationDate(_ date: Date, at url: URL) throws {
        try perform(.setModificationDate, url) { try directories.setModificationDate(date, at: url) }
    }
}
