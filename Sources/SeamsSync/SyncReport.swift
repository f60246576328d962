/// What a run did, or (with `dryRun`) would do: counts, conflicts kept, paths that failed.
///
/// The CLI prints it as text, or as JSON with `--json`.
public struct SyncReport: Hashable, Sendable, Codable {
    /// A conflict resolved by keeping both versions.
    public struct Conflict: Hashable, Sendable, Codable {
        /// The path in conflict; it holds the kept (newer) version.
        public var path: String
        /// The conflict copy that holds the other version, on both sides.
        public var copy: String
    }

    /// A path that was not synced this time, and why; nothing of it was lost.
    public struct Problem: Hashable, Sendable, Codable {
        /// The path.
        public var path: String
        /// Why.
        public var reason: String
    }

    /// One planned change (reported by a dry run).
    public struct Change: Hashable, Sendable, Codable {
        /// The path.
        public var path: String
        /// The decision, in words.
        public var action: String
    }

    /// A file or folder renamed or moved on one side and moved the same way on the other, in one
    /// rename (one `MOVE` on a server), not deleted and copied again.
    public struct Move: Hashable, Sendable, Codable {
        /// Its old path.
        public var from: String
        /// Its new path.
        public var to: String
        /// The side the run moved it on; the user moved it on the other.
        public var madeOn: Side

        /// Creates a move as a report lists it.
        ///
        /// - Parameters:
        ///   - from: Its old path.
        ///   - to: Its new path.
        ///   - madeOn: The side the run moved it on.
        public init(from: String, to: String, madeOn: Side) {
            self.from = from
            self.to = to
            self.madeOn = madeOn
        }
    }

    /// How far a run got that was asked to stop (``SyncStopToken``, Ctrl-C, a cancelled task).
    public struct Interruption: Hashable, Sendable, Codable {
        /// Paths carried out (or left as they were) before the run stopped.
        public var done: Int
        /// Paths the plan held.
        public var total: Int
    }

    /// Whether nothing was changed because this was a dry run.
    public var dryRun = false
    /// Files copied into the local folder.
    public var copiedToLocal = 0
    /// Files copied into the container.
    public var copiedToContainer = 0
    /// Folders created.
    public var foldersCreated = 0
    /// Items moved to the local trash or removed (empty folders).
    public var deletedLocal = 0
    /// Items moved to the container's trash or removed (empty folders).
    public var deletedContainer = 0
    /// Paths identical on both sides after the run.
    public var inSync = 0
    /// Files and folders moved (or, in a dry run, to be moved) as the user moved them on the
    /// other side: a folder once, not what it holds. What changed inside it is counted as
    /// copies and deletions as usual.
    public var moves: [Move] = []
    /// Conflicts kept both.
    public var conflicts: [Conflict] = []
    /// Paths that failed; the run finished without them.
    public var failures: [Problem] = []
    /// Paths left alone on purpose (special files, unreadable folders, links a side cannot hold).
    public var skipped: [Problem] = []
    /// Paths the ignore rules left out, on either side, sorted: an ignored folder once, not
    /// what it holds (which was never listed). Nothing at these paths was read or changed.
    public var ignored: [String] = []
    /// The planned changes, for a dry run.
    public var planned: [Change] = []
    /// The folders whose recorded `.seamsignore` this run replaced, moved away or removed on a
    /// side (not one carried inside a folder moved whole), those still recorded, sorted (the
    /// root as `""`). A run leaves out what the rules of both sides leave out, as they were when
    /// it listed them; after such a change the next run may leave out less, so a sync that lists
    /// only the folders that changed (``SyncScope``) lists these whole, with the folder above
    /// each, as ``SyncWatcher`` does.
    public var rulesChanged: [String] = []
    /// Set when the state file was unreadable and the state was rebuilt (every difference kept both).
    public var rebuiltState = false
    /// Set when the container is not the replica the pair's state describes (another disk at the
    /// same place, one emptied and refilled, or an older copy restored from a backup), with why:
    /// the pair was synced as a new one, nothing was deleted and every difference kept as both.
    public var replicaMismatch: String?
    /// Set when the run stopped at a safe point before finishing its plan: what was done is
    /// recorded, the rest is done by the next run.
    public var interruption: Interruption?

    /// Creates an empty report.
    public init() {}

    /// Whether every path was synced.
    public var succeeded: Bool { failures.isEmpty && interruption == nil }

    /// Whether the run changed nothing and found nothing wrong: no copy, deletion, folder, move
    /// or conflict, no failure, nothing skipped, not interrupted.
    public var changedNothing: Bool {
        copiedToLocal + copiedToContainer + foldersCreated + deletedLocal + deletedContainer == 0 && moves.isEmpty
            && conflicts.isEmpty && failures.isEmpty && skipped.isEmpty && interruption == nil
    }

    /// A few lines a person reads.
    public var summary: String {
        var lines = [
            (dryRun ? "Dry run, nothing changed. " : "")
                + "\(copiedToContainer) to container, \(copiedToLocal) to local, "
                + "\(deletedLocal + deletedContainer) deleted (to trash), \(foldersCreated) folders created, "
                + "\(conflicts.count) conflicts kept both, \(failures.count) failed."
        ]
        if let interruption {
            lines.append("interrupted: \(interruption.done) of \(interruption.total) done; run again to finish.")
        }
        if let replicaMismatch {
            lines.append(
                "Synced as a new pair: \(replicaMismatch). Nothing was deleted; every difference was kept as both versions."
            )
        }
        if !moves.isEmpty {
            lines.append(
                "\(moves.count) \(moves.count == 1 ? "rename or move" : "renames or moves") \(dryRun ? "to make" : "made") as on the other side."
            )
        }
        if !ignored.isEmpty {
            lines.append("\(ignored.count) \(ignored.count == 1 ? "path" : "paths") left alone by ignore rules.")
        }
        if rebuiltState { lines.append("The state file was unreadable: rebuilt; every difference was kept both.") }
        lines += moves.map { "  \(dryRun ? "would move" : "moved") on \($0.madeOn): \($0.from) -> \($0.to)" }
        lines += planned.map { "  would \($0.action): \($0.path)" }
        lines += conflicts.map { "  conflict: \($0.path) (other version kept as \($0.copy))" }
        lines += failures.map { "  failed: \($0.path): \($0.reason)" }
        lines += skipped.map { "  skipped: \($0.path): \($0.reason)" }
        return lines.joined(separator: "\n")
    }
}
