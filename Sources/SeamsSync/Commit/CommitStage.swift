import Foundation
import SeamsCore

/// The fifth stage: the new archive, with the container's identity the applier placed, committed
/// atomically and durably to the pair's state. The applier's final flush made the container's
/// marker durable first, so a crash before this commit leaves a generation ahead of the state,
/// which still matches it.
struct CommitStage {
    let prepared: PrepareStage.Prepared

    /// Runs the stage.
    ///
    /// - Parameter archive: The archive after the run.
    /// - Throws: ``SyncError/writeFailed(_:_:)`` when the state cannot be written.
    func callAsFunction(_ archive: consuming Archive) throws {
        try callAsFunction(archive, after: EndedWork(.success(())))
    }

    /// Runs the stage after the applier's final flush: the new state is written to its temp name
    /// while the flush goes on, and put in place only once the flush has ended well. A failed
    /// flush leaves the old state, and its error is the one thrown.
    ///
    /// - Parameters:
    ///   - archive: The archive after the run.
    ///   - finalFlush: The flush of the folders the run changed (``ApplyStage/Applied/finalFlush``).
    /// - Throws: The flush's error, or ``SyncError/writeFailed(_:_:)`` when the state cannot be written.
    func callAsFunction(_ archive: consuming Archive, after finalFlush: any PendingWork) throws {
        archive.replica = prepared.check.next
        let store = prepared.store
        let staged = Result { try store.stage(archive, runID: prepared.runID) }
        if case .failure(let error) = finalFlush.wait() {
            if case .success(let temp) = staged { store.discard(temp) }
            throw error
        }
        try store.place(staged.get(), removingLegacyFile: prepared.fromLegacyFile)
    }
}
