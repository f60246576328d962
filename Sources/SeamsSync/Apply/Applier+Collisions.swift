import Foundation
import SeamsCore

/// Names the other side's file system takes for another item (`A.txt` for `a.txt` on exFAT).
struct Collisions {
    /// Folders that could not be made because their name reaches another folder
    /// (``ApplyIssue/nameCollision(with:)``), with that folder's name: nothing is put inside
    /// them, or it would land in the other folder.
    var folders: [SyncPath: String] = [:]
    /// Copies and folders refused because their name reaches an item that this run deletes on
    /// that side (a rename by case only, onto FAT or exFAT), and what lies in such folders: tried
    /// again, in plan order, once the deletions are done.
    var waiting: [SyncPath] = []
    /// The folders in ``waiting``: what lies inside them waits with them.
    var waitingFolders: Set<SyncPath> = []
    /// Whether the copies in ``waiting`` are being tried again (then a collision is final).
    var retrying = false
}

/// Copies and folders that meet another item's name, and those that wait for this run's deletions.
extension Applier {
    /// The copies and folders that met an item this run has since deleted, tried again, parents
    /// first, copies in batches as in the first phase; a folder that still collides keeps
    /// everything inside it out. Stops at a safe point when asked to.
    ///
    /// - Returns: `false` when the run was asked to stop (``SyncReport/interruption`` is set).
    mutating func retryAfterDeletions(done: inout Int, total: Int) throws -> Bool {
        guard !collisions.waiting.isEmpty else { return true }
        collisions.retrying = true
        defer { collisions.retrying = false }
        let paths = Set(collisions.waiting)
        collisions.waiting = []
        for folder in collisions.waitingFolders { collisions.folders[folder] = nil }
        collisions.waitingFolders = []
        var remaining = paths.count  // counted in `done` when they were put off
        for entry in plan.entries where paths.contains(entry.path) {
            if context.shouldStop() {
                placeStaged()
                report.interruption = SyncReport.Interruption(done: done - remaining, total: total)
                return false
            }
            if !collisions.folders.isEmpty, let collided = collidedAncestor(of: entry.path) {
                recordFailure(ApplyIssue.insideCollidedFolder(collided.folder, other: collided.other), at: entry.path)
            } else if let source = Self.plainCopySource(entry) {
                stage(entry, from: source)
                if batchIsFull { batchFilled() }
            } else {
                apply(entry)
            }
            remaining -= 1
            if remaining % 64 == 0 { try context.heartbeat() }
        }
        placeStaged()
        return true
    }

    /// Whether a copy or a new folder at `path` that met `other` waits for the deletions: `other`
    /// is the name of an item beside it that this run deletes on the side the copy goes to.
    func waitsForDeletion(_ path: SyncPath, other: String) -> Bool {
        guard !collisions.retrying, other != path.name,
            let entry = plan.entry(at: path),
            case .propagate(let source) = entry.decision, entry.item(on: source) != nil
        else { return false }
        let sibling = path.replacingName(with: other)
        guard let deletion = plan.entry(at: sibling),
            case .propagate(let from) = deletion.decision, from == source, deletion.item(on: from) == nil
        else { return false }
        return true
    }

    /// The other name of the collided folder `path` is inside, if any.
    func collidedAncestor(of path: SyncPath) -> (folder: SyncPath, other: String)? {
        collisions.folders.first { path.isDescendant(of: $0.key) }.map { ($0.key, $0.value) }
    }
}
