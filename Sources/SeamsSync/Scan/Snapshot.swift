import Foundation
public import SeamsCore

/// One side's tree as a scan found it: every item's metadata by path, read by listing folders
/// (one call per folder), never by reading content.
public struct Snapshot: Sendable {
    /// The items by path; the tool's own `.seams…` items are left out.
    public var items: [SyncPath: FileMetadata]
    /// Folders that could not be listed, with the error; what lies under them is unknown, not
    /// absent, so nothing under them is deleted anywhere.
    public var unreadableFolders: [SyncPath: UnderlyingError]
    /// Temporary files an interrupted run left behind (`.seams-tmp-…`), to be removed.
    public var leftovers: [SyncPath]

    /// Creates a snapshot.
    public init(
        items: [SyncPath: FileMetadata] = [:],
        unreadableFolders: [SyncPath: UnderlyingError] = [:],
        leftovers: [SyncPath] = []
    ) {
        self.items = items
        self.unreadableFolders = unreadableFolders
        self.leftovers = leftovers
    }

    /// Whether `path` lies in a folder that could not be listed.
    ///
    /// - Parameter path: Any path.
    /// - Returns: `true` when the scan cannot tell what is there.
    public func isUnknown(_ path: SyncPath) -> Bool {
        if unreadableFolders.isEmpty { return false }
        var current: SyncPath? = path
        while let candidate = current {
            if unreadableFolders[candidate] != nil, candidate != path { return true }
            current = candidate.parent
        }
        return false
    }

    /// Whether a name belongs to the tool itself (temp files, trash, lock, markers).
    ///
    /// - Parameter name: One path component.
    /// - Returns: `true` for `.seams…` names.
    public static func isOwnName(_ name: String) -> Bool {
        name.utf8.starts(with: ".seams".utf8)
    }

    /// The prefix of temporary files.
    public static let temporaryPrefix = ".seams-tmp-"
}
