public import Foundation
public import Seams

/// The calls of the file-related protocols, as recorded and as matched by fault rules.
public enum FileSystemOperation: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `FileAccessorProviding.read(from:)`.
    case read
    /// `FileAccessorProviding.write(_:to:)`.
    case write
    /// `FileAccessorProviding.fileExists(at:)`.
    case fileExists
    /// `DirectoryAccessorProviding.contentsOfDirectory(at:)`.
    case contentsOfDirectory
    /// `DirectoryAccessorProviding.metadata(at:)`.
    case metadata
    /// `DirectoryAccessorProviding.createDirectory(at:withIntermediateDirectories:)`.
    case createDirectory
    /// `DirectoryAccessorProviding.removeItem(at:recursively:)`.
    case removeItem
    /// `DirectoryAccessorProviding.moveItem(at:to:replacingExisting:)`.
    case moveItem
    /// `DirectoryAccessorProviding.copyItem(at:to:)`.
    case copyItem
    /// `DirectoryAccessorProviding.linkItem(at:to:)`.
    case linkItem
    /// `DirectoryAccessorProviding.destinationOfSymbolicLink(at:)`.
    case destinationOfSymbolicLink
    /// `DirectoryAccessorProviding.createSymbolicLink(at:withDestination:)`.
    case createSymbolicLink
    /// `DirectoryAccessorProviding.synchronizeFile(at:)`.
    case synchronizeFile
    /// `DirectoryAccessorProviding.synchronizeDirectory(at:)`.
    case synchronizeDirectory
    /// `DirectoryAccessorProviding.setPermissions(_:at:)`.
    case setPermissions
    /// `DirectoryAccessorProviding.setModificationDate(_:at:)`.
    case setModificationDate
    /// `FileSystemProviding.containerURL(for:)`.
    case containerURL
    /// `BookmarkStorageProviding.saveBookmark(_:for:)`.
    case saveBookmark
    /// `BookmarkStorageProviding.loadBookmark(for:)`.
    case loadBookmark

    /// Whether the call changes the file system; it picks Foundation's read or write error codes.
    public var isWriting: Bool {
        switch self {
        case .read, .fileExists, .contentsOfDirectory, .metadata, .destinationOfSymbolicLink, .synchronizeFile,
            .synchronizeDirectory,
            .containerURL, .loadBookmark:
            false
        case .write, .createDirectory, .removeItem, .moveItem, .copyItem, .linkItem, .createSymbolicLink,
            .setPermissions,
            .setModificationDate, .saveBookmark:
            true
        }
    }

    /// The operation's name.
    public var description: String { rawValue }
}

/// One call an ``InMemoryFileSystem`` or a ``FaultInjectingFileSystem`` received, and how it ended.
///
/// ```swift
/// try await engine.sync()
/// #expect(!fileSystem.calls.contains { $0.operation == .read })   // no content was read
/// #expect(fileSystem.calls.filter { $0.outcome != .success }.isEmpty)
/// ```
public struct FileSystemCall: Hashable, Sendable, CustomStringConvertible {
    /// How a call ended.
    public enum Outcome: Hashable, Sendable {
        /// It returned (for `fileExists`, whatever it answered).
        case success
        /// It threw; compared by domain, code and C error number.
        case failure(UnderlyingError)
    }

    /// Which call.
    public var operation: FileSystemOperation
    /// The path it was about (for bookmarks, a URL made from the key; `nil` for `containerURL`).
    public var url: URL?
    /// The second path of a move, copy or link.
    public var destination: URL?
    /// How it ended.
    public var outcome: Outcome

    /// Creates a record.
    public init(operation: FileSystemOperation, url: URL?, destination: URL? = nil, outcome: Outcome) {
        self.operation = operation
        self.url = url
        self.destination = destination
        self.outcome = outcome
    }

    /// The error it threw, if any.
    public var error: UnderlyingError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// `operation path [-> destination]: outcome`.
    public var description: String {
        var text = "\(operation) \(url?.path ?? "-")"
        if let destination { text += " -> \(destination.path)" }
        switch outcome {
        case .success: text += ": ok"
        case .failure(let error): text += ": \(error.domain) \(error.code)"
        }
        return text
    }
}
