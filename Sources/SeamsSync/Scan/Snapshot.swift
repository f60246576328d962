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
    /// Items whose names start with `.seams` but are not the tool's own (a user's
    /// `.seams-notes.txt`): neither synced nor removed, reported as skipped every run.
    public var reserved: [SyncPath] = []

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

    /// The tool's own names at the top of a synced folder: the trash, the lock, the container's marker.
    public static let ownRootNames: Set<String> = [".seams-trash", ".seams-lock", ".seams-replica"]

    /// Whether `name` is a temp file name this tool makes: `.seams-tmp-<run>-<n>` beside a target,
    /// `.seams-tmp-lock-<new|beat|stale>-<run>` and `.seams-tmp-replica-<run>` in the container,
    /// where `<run>` is a run id (lower-case letters and digits) and `<n>` a number.
    ///
    /// - Parameter name: One path component.
    /// - Returns: `true` only for those shapes; a user's `.seams-tmp-notes.txt` is not one.
    public static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix) else { return false }
        let parts = name.dropFirst(temporaryPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        func isRunID(_ part: Substring) -> Bool {
            (1...16).contains(part.utf8.count) && part.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
        }
        switch parts.count {
        case 2 where parts[0] == "replica":
            return isRunID(parts[1])
        case 2:
            return isRunID(parts[0]) && (1...9).contains(parts[1].utf8.count) && parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) }
        case 3 where parts[0] == "lock":
            return ["new", "beat", "stale"].contains(parts[1]) && isRunID(parts[2])
        default:
            return false
        }
    }
}
