/// The names seams-sync gives its own items inside the two folders, spelled here and nowhere else.
///
/// Everything the engine makes inside a synced folder has a name that starts with `.seams`, so a
/// scan passes over it and no run ever syncs it as a user's file: copies on their way and the
/// lock's and the marker's temp files (`.seams-tmp-…`), the trash, the lock, the container's
/// identity marker.
enum OwnNames {
    /// The start of every name of the tool's own.
    static let prefix = ".seams"
    /// The start of every temp file's name: `.seams-tmp-<run>-<n>` beside a target,
    /// `.seams-tmp-lock-<new|beat|stale>-<run>` and `.seams-tmp-replica-<run>` in the container.
    static let temporaryPrefix = ".seams-tmp-"
    /// The trash folder at the top of each side.
    static let trash = ".seams-trash"
    /// The lock file in the container.
    static let lock = ".seams-lock"
    /// The container's identity marker.
    static let replicaMarker = ".seams-replica"
    /// The tool's own names at the top of a synced folder.
    static let atRoot: Set<String> = [trash, lock, replicaMarker]

    /// The user's ignore rules in a folder: the one name that starts with `.seams` and is not the
    /// tool's own. It syncs like any file, so every device shares the rules; so do its conflict
    /// copies (`.seamsignore.sync-conflict-…`).
    static let ignoreFile = ".seamsignore"
    /// Whether `name` (one path component) is one of the tool's own.
    static func isOwn(_ name: String) -> Bool {
        guard name.utf8.starts(with: prefix.utf8) else { return false }
        return name != ignoreFile && !name.utf8.starts(with: (ignoreFile + ".").utf8)
    }
}
