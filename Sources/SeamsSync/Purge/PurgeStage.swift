import Foundation
import SeamsCore

/// The last stage, after a run that was not interrupted: each side's trash folders older than
/// the retention removed, and an interrupted run's incomplete uploads aborted.
struct PurgeStage {
    let run: SyncRun
    /// When the run started; trash ages are counted from it.
    let start: Date

    /// Runs the stage.
    ///
    /// - Returns: A skipped item for each side whose `.seams-trash` is not a folder (left alone).
    func callAsFunction() -> [SyncReport.Problem] {
        var skipped: [SyncReport.Problem] = []
        for replica in [run.localReplica, run.containerReplica] {
            let root = replica.root
            let purger = TrashPurger(directories: replica.directories, retention: run.options.trashRetention)
            if let refused = purger.purge(root: root, now: start).refused {
                skipped.append(.init(path: root.appending(path: OwnNames.trash).path, reason: refused))
            }
            if let refused = replica.removeAbandonedUploads() {
                skipped.append(.init(path: root.absoluteString, reason: refused))
            }
        }
        return skipped
    }
}
