import Foundation
import SeamsCore

/// The fourth stage: the plan carried out through the boundaries (``Applier``), the container's
/// new marker placed, and the touched folders flushed (the last flush may still be going on when
/// the stage returns: see ``startingFinalFlush(_:archive:mustCommit:)``).
struct ApplyStage {
    let run: SyncRun
    let prepared: PrepareStage.Prepared
    /// Reports progress: paths and bytes done of those to do.
    var progress: @Sendable (SyncProgress) -> Void
    /// Whether copies go several at once (off where the order of calls must not vary).
    let concurrently: Bool
    /// How many copies go to a server at once.
    let requestsInFlight: Int
    /// Where the work that goes at once runs (`nil`: threads).
    let work: (any ConcurrentWork)?

    /// What the stage did.
    struct Applied {
        /// The archive after the run: each path done recorded anew, each failed one as it was.
        var archive: Archive
        /// What was done, skipped and failed.
        var report: SyncReport
        /// Whether the state must be committed (a path changed, or ``PrepareStage/Prepared/mustCommit``).
        var commitNeeded: Bool
        /// The flush of the folders the run changed, started beside the caller: nothing that
        /// relies on them being durable (the state's commit) happens before it has ended well.
        var finalFlush: any PendingWork
    }

    /// Runs the stage and waits for its final flush.
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - archive: The archive the plan was made against, consumed: the applier changes it in place.
    ///   - mustCommit: Whether the state is committed even if no path changes.
    /// - Throws: ``SyncError`` when the run cannot go on (the lock lost, a flush failed).
    func callAsFunction(_ plan: SyncPlan, archive: consuming Archive, mustCommit: Bool) throws -> Applied {
        let applied = try startingFinalFlush(plan, archive: archive, mustCommit: mustCommit)
        try applied.finalFlush.wait().get()
        return applied
    }

    /// Runs the stage, and returns while its final flush may still be going on, so that the
    /// caller can write the new state to its temp name meanwhile.
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - archive: The archive the plan was made against, consumed: the applier changes it in place.
    ///   - mustCommit: Whether the state is committed even if no path changes.
    /// - Throws: ``SyncError`` when the run cannot go on (the lock lost, a flush failed).
    func startingFinalFlush(_ plan: SyncPlan, archive: consuming Archive, mustCommit: Bool) throws -> Applied {
        let lock = prepared.lock
        let runID = prepared.runID
        var context = ApplyContext(
            replicas: run.transfers, runID: runID,
            trashFolderName: TrashPurger.folderName(startingAt: prepared.start, runID: runID),
            heartbeat: { try lock?.heartbeat() }, progress: progress, shouldStop: run.shouldStop,
            mustCommit: mustCommit, marker: MarkerPlacement(marker: prepared.marker, identity: prepared.check.next))
        context.batchCount = max(1, run.options.copyBatchCount)
        // Requests mostly wait: as many at once as asked; local copies share two cores.
        let atOnce = concurrently || work != nil
        let networked = Side.allCases.contains { run.can($0, .networked) }
        context.copiesAtOnce = atOnce ? (networked ? requestsInFlight : SyncEngine.localCopiesAtOnce) : 1
        if let work { context.work = work }
        var applier = Applier(context: context, plan: plan, archive: archive)
        let (result, finalFlush) = try applier.runStartingFinalFlush()
        var report = applier.report
        // Only folders still recorded: a removed folder's rules apply to nothing now.
        report.rulesChanged = applier.rulesChanged.compactMap { folder in
            guard let folder else { return "" }
            return result.entries[folder]?.kind == .directory ? folder.rawValue : nil
        }.sorted()
        return Applied(archive: result, report: report, commitNeeded: applier.commitNeeded, finalFlush: finalFlush)
    }
}
