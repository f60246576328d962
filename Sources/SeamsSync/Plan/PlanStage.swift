import SeamsCore

/// The third stage: one decision per path from the archive and the two scans, then the guards
/// that refuse a plan which looks like a mistake (a side found empty, too many deletions) unless
/// the run is forced.
struct PlanStage {
    let options: SyncOptions
    /// Whether the container dates a copied or renamed file anew (``ReplicaCapabilities/datedByServer``).
    var containerDatedByServer = false

    /// Runs the stage.
    ///
    /// - Parameters:
    ///   - archive: What the last sync recorded (the one the scans were compared with).
    ///   - scanned: What the scans found.
    /// - Returns: The plan.
    /// - Throws: ``SyncError/emptySide(_:known:)`` or ``SyncError/tooManyDeletions(_:count:known:limitPercent:)``.
    func callAsFunction(archive: Archive, scanned: ScanStage.Scanned) throws -> SyncPlan {
        let plan = Reconciler(containerDatedByServer: containerDatedByServer).plan(
            archive: archive, local: scanned.local, container: scanned.container)
        // Known items the rules now leave out are neither here nor deleted: the guards do not count them.
        let known = archive.entries.count - archive.entries.count(atOrUnder: scanned.ignored)
        if !options.force { try checkGuards(plan, known: known) }
        return plan
    }

    private func checkGuards(_ plan: SyncPlan, known: Int) throws {
        guard known > 0 else { return }
        for side in Side.allCases where plan.snapshot(side).isEmpty {
            throw SyncError.emptySide(side, known: known)
        }
        for side in Side.allCases {
            let count = plan.deletions(on: side)
            if count * 100 > options.maxDeletePercent * known {
                throw SyncError.tooManyDeletions(
                    side, count: count, known: known, limitPercent: options.maxDeletePercent)
            }
        }
    }
}
