public import Foundation

/// What a folder listing or a metadata call tells about one item, without reading its content.
public struct FileMetadata: Hashable, Sendable {
    /// What kind of item a path names.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A regular file.
        case file
        /// A folder.
        case directory
        /// A symbolic link (never followed by ``DirectoryAccessorProviding``).
        case symbolicLink
        /// Anything else: a socket, a FIFO, a device.
        case other
    }

    /// The item's kind.
    public var kind: Kind
    /// The size in bytes (0 for folders).
    public var size: Int64
    /// The last content modification, with the sub-second precision the file system keeps.
    public var modificationDate: Date
    /// The POSIX permission bits (`0o644`), without the file-type bits.
    public var permissions: UInt16
    /// The item's identity on its volume (the inode number); stays the same across renames and
    /// changes when the item is replaced by another.
    public var fileIdentifier: UInt64
    /// The volume the item is on (the device number).
    public var volumeIdentifier: UInt64
    /// How many names (hard links) the item has.
    public var linkCount: Int
    /// A value its store changes whenever the content changes, even within the same second and
    /// at the same size: a hash of the ETag a WebDAV server gives a file. 0 where the store
    /// gives none (local file systems, folders).
    public var contentTag: UInt64

    /// Creates metadata; fakes and tests build it, live implementations read it from the system.
    public init(
        kind: Kind,
        size: Int64,
        modificationDate: Date,
        permissions: UInt16,
        fileIdentifier: UInt64,
        volumeIdentifier: UInt64 = 0,
        linkCount: Int = 1,
        contentTag: UInt64 = 0
    ) {
        self.kind = kind
        self.size = size
        self.modificationDate = modificationDate
        self.permissions = permissions
        self.fileIdentifier = fileIdentifier
        self.volumeIdentifier = volumeIdentifier
        self.linkCount = linkCount
        self.contentTag = contentTag
    }
}

/// One item of a folder, as ``DirectoryAccessorProviding/contentsOfDirectory(at:)`` lists it.
public struct DirectoryEntry: Hashable, Sendable {
    /// The item's name in its folder (one path component, never `.` or `..`).
    public var name: String
    /// The item's metadata, read in the same call as the listing.
    public var metadata: FileMetadata

    /// Creates an entry.
    public init(name: String, metadata: FileMetadata) {
        self.name = name
        self.metadata = metadata
    }
}
