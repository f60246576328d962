import SeamsCore

/// Asks a running sync to stop at its next safe point.
///
/// The engine looks at the token between folders while it scans and between paths while it
/// applies, never inside one change: a change in progress (a copy, its flush and its rename) is
/// finished first. What was done by then is flushed and recorded in the state, the lock is
/// released, and the report says how far the run got (``SyncReport/interruption``); the next run
/// finishes the rest.
///
/// ```swift
/// let stop = SyncStopToken()
/// signalHandler = { stop.requestStop() }          // Ctrl-C, a Cancel button, a deadline
/// let report = try engine.run(local: notes, container: stick, stateDirectory: state, stop: stop)
/// if let interruption = report.interruption { print("\(interruption.done) of \(interruption.total) done") }
/// ```
///
/// `SyncManager` makes one per run and requests the stop when its task is cancelled.
public final class SyncStopToken: Sendable {
    private let requested = LockedValue(false)

    /// Creates a token that has not asked for a stop.
    public init() {}

    /// Asks the run to stop at its next safe point; calling it again changes nothing.
    public func requestStop() {
        requested.withLock { $0 = true }
    }

    /// Whether a stop was requested.
    public var isStopRequested: Bool {
        requested.withLock { $0 }
    }
}
