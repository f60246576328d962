public import Foundation

/// Watches folder trees for changes: the boundary `seams-sync watch` waits on.
///
/// The live one is ``DefaultFileEventSource`` (inotify on Linux); tests use `InMemoryFileEvents` from
/// SeamsTesting, which reports what was done to an `InMemoryFileSystem` and keeps the time.
public protocol FileEventSource: Sendable {
    /// Starts watching the trees under `roots`.
    ///
    /// - Parameters:
    ///   - roots: The folders to watch, each with all it holds.
    ///   - leavingOut: Whether a folder is left unwatched: called with the root's index and the
    ///     folder's path relative to it (the ignore rules' folders, the tool's own).
    /// - Returns: The watch; its ``FileEventWatching/next(waitingAtMost:)`` reports changes.
    /// - Throws: ``FileWatchError`` when the trees cannot be watched at all.
    func watch(_ roots: [URL], leavingOut: @escaping @Sendable (_ root: Int, _ folder: String) -> Bool)
        throws(FileWatchError) -> any FileEventWatching

    /// The time now, on the clock watches wait by (monotonic, counting time asleep; a fake's own).
    var now: Duration { get }

    /// Waits `duration` without a watch (where none could start).
    @available(*, noasync, message: "blocks its thread while it waits")
    func sleep(for duration: Duration)
}

/// One running watch of a ``FileEventSource``.
public protocol FileEventWatching: Sendable {
    /// Waits at most `timeout` for changes and returns them; empty when none came in that time.
    ///
    /// Blocks its thread while it waits.
    @available(*, noasync, message: "blocks its thread while it waits")
    func next(waitingAtMost timeout: Duration) -> FileEvents

    /// Stops watching and frees what the watch holds.
    func close()
}

/// What a watch saw since it was last asked.
public struct FileEvents: Hashable, Sendable {
    /// The changed folders of each root, by the root's index.
    public var changes: [Int: ChangedFolders]
    /// Roots whose events were lost (the kernel's queue overflowed): each must be scanned whole.
    public var lost: Set<Int>
    /// Roots no longer watched (removed, unmounted, the watch limit reached, a folder that could
    /// not be watched): each is scanned whole at every poll until watched again.
    public var unwatched: Set<Int>
    /// Why events were lost, in words, for the user (empty when none were).
    public var reason: String

    /// Creates a set of events.
    public init(
        changes: [Int: ChangedFolders] = [:], lost: Set<Int> = [], unwatched: Set<Int> = [], reason: String = ""
    ) {
        self.changes = changes
        self.lost = lost
        self.unwatched = unwatched
        self.reason = reason
    }

    /// Whether nothing happened.
    public var isEmpty: Bool { changes.values.allSatisfy(\.isEmpty) && lost.isEmpty && unwatched.isEmpty }

    /// Records a change of the item at `path` (relative to root `root`): its folder changed, and
    /// when it is a folder made or moved in (`isNewFolder`), all it holds is new.
    public mutating func record(_ path: String, in root: Int, isNewFolder: Bool = false) {
        let parts = path.split(separator: "/")
        // The tool's own items (temp names, the trash, the lock) are not the user's changes.
        if parts.contains(where: { Self.isToolsOwn($0) }) { return }
        let folder = parts.dropLast().joined(separator: "/")
        changes[root, default: ChangedFolders()].folders.insert(folder)
        if isNewFolder, !parts.isEmpty {
            changes[root, default: ChangedFolders()].trees.insert(parts.joined(separator: "/"))
        }
    }

    /// Whether `name` is one seams-sync gives its own items (`.seams-tmp-…`, `.seams-trash`,
    /// `.seams-lock`): every name that starts with `.seams` but the user's `.seamsignore` files.
    public static func isToolsOwn(_ name: some StringProtocol) -> Bool {
        name.hasPrefix(".seams") && name != ".seamsignore" && !name.hasPrefix(".seamsignore.")
    }

    /// Adds what `other` holds.
    public mutating func formUnion(_ other: FileEvents) {
        for (root, changed) in other.changes { changes[root, default: ChangedFolders()].formUnion(changed) }
        lost.formUnion(other.lost)
        unwatched.formUnion(other.unwatched)
        if reason.isEmpty { reason = other.reason }
    }
}

/// Why a tree cannot be watched.
public enum FileWatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// This platform has no watcher here; `seams-sync watch` then scans whole at every poll.
    case unsupported
    /// The system refused (`inotify_init1` failed), with the reason.
    case unavailable(String)

    /// The reason, in words.
    public var description: String {
        switch self {
        case .unsupported: "this system has no file watcher seams-sync can use"
        case .unavailable(let reason): "the file watcher could not start: \(reason)"
        }
    }
}
