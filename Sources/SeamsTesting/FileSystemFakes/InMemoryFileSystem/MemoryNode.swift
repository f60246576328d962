import Foundation
import Seams

/// A name in a folder, compared byte for byte as Linux does (Swift's `String` equality would
/// merge names that differ only in Unicode normalization).
typealias MemoryName = [UInt8]

/// One inode of ``InMemoryFileSystem``: a file, a folder or a symbolic link, with what a power
/// cut would leave.
struct MemoryNode: Sendable {
    enum Kind: Sendable {
        case file
        case directory
        /// Its `content` is the target text, made durable with the link (as ext4 keeps a short
        /// target inside the inode it creates); the link's name needs its folder's flush.
        case symbolicLink
    }

    /// What survives a power cut: the state at the last flush of this inode.
    struct Durable: Sendable {
        var content: Data
        var children: [MemoryName: UInt64]
        var permissions: UInt16
        var modified: Date
    }

    var kind: Kind
    var content: Data
    var children: [MemoryName: UInt64]
    var permissions: UInt16
    var modified: Date
    /// Names that refer to this file; folders compute theirs.
    var linkCount: Int
    /// Whether this folder's names fold case, as on FAT and exFAT (its subfolders' names too).
    var foldsNames = false
    var durable: Durable

    init(kind: Kind, content: Data = Data(), permissions: UInt16, modified: Date, durable: Bool) {
        self.kind = kind
        self.content = content
        self.children = [:]
        self.permissions = permissions
        self.modified = modified
        self.linkCount = 1
        self.durable = Durable(
            content: durable ? content : Data(), children: [:], permissions: permissions, modified: modified)
    }

    var isDirectory: Bool { kind == .directory }
    var isSymbolicLink: Bool { kind == .symbolicLink }

    /// Copies the current state into what a power cut keeps (`fsync`).
    mutating func flush() {
        durable = Durable(content: content, children: children, permissions: permissions, modified: modified)
    }

    /// Owner permission check for a non-root user who owns every item: 4 read, 2 write, 1 search.
    func allows(_ access: UInt16) -> Bool {
        (permissions >> 6) & access == access
    }
}

/// A C error number and the path it is about, thrown inside the fake's tree and turned into the
/// Foundation error at the boundary, where it is known whether the call reads or writes.
struct MemoryFailure: Error {
    var errno: Int32
    var path: String
    /// Reported with the read codes even by a writing call (a copy's missing source).
    var asRead: Bool

    init(_ errno: Int32, _ path: String, asRead: Bool = false) {
        self.errno = errno
        self.path = path
        self.asRead = asRead
    }

    func cocoa(writing: Bool) -> CocoaError {
        CocoaError.fileSystemError(errno: errno, path: path, writing: writing && !asRead)
    }
}
