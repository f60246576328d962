import Foundation
import SeamsCore

/// The fifth stage: the new archive, with the container's identity the applier placed, committed
/// atomically and durably to the pair's state. The applier flushed the container's marker
/// first, so a crash before this commit leaves a generation ahead of the state, which still
/// matches it.
struct CommitStage {
    let prepared: PrepareStage.Prepared

    /// Runs the stage.
    ///
    /// - Parameter archive: The archive after the run.
    /// - Throws: ``SyncError/writeFailed(_:_:)`` when the state cannot be written.
    func callAsFunction(_ archive: consuming Archive) throws {
        archive.replica = prepared.check.next
        try prepared.store.commit(archive, runID: prepared.runID, removingLegacyFile: prepared.fromLegacyFile)
    }
}
