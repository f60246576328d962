/// The call count and the "stop at call N" schedule of the two doubles that can stop a run:
/// ``FaultInjectingFileSystem`` (a crash) and ``InMemoryFileSystem`` (a power cut).
///
/// Every call is counted. Once the scheduled call is reached, it is not made, and it and every
/// later call meet the same ``SimulatedCrash`` until ``restart()``. Kept inside each double's
/// locked state, so it needs no lock of its own.
struct CallCountdown: Sendable {
    /// What a stop is: a crash or a power cut.
    let cause: SimulatedCrash.Cause
    /// The calls counted since creation or ``resetCount()``.
    private(set) var count = 0
    /// The stop that happened and was not restarted.
    private(set) var stop: SimulatedCrash?
    private var callsUntilStop: Int?

    init(cause: SimulatedCrash.Cause) {
        self.cause = cause
    }

    /// Stops at the `call`-th call from now (1 is the next).
    mutating func schedule(atCall call: Int) {
        precondition(call >= 1, "calls are counted from 1")
        callsUntilStop = call
    }

    /// Counts one call and tells whether it may be made.
    ///
    /// - Returns: `nil` when the call goes ahead; otherwise the stop it meets, and whether the
    ///   stop happens at this call (so the caller does what stopping means once, such as losing
    ///   what was not flushed).
    mutating func countCall() -> (stop: SimulatedCrash, isNew: Bool)? {
        count += 1
        if let stop { return (stop, false) }
        guard let remaining = callsUntilStop else { return nil }
        if remaining > 1 {
            callsUntilStop = remaining - 1
            return nil
        }
        callsUntilStop = nil
        let stop = SimulatedCrash(cause: cause, callNumber: count)
        self.stop = stop
        return (stop, true)
    }

    /// Lets calls through again after a stop, and cancels a stop not reached yet.
    mutating func restart() {
        stop = nil
        callsUntilStop = nil
    }

    /// Counts from 0 again (a scheduled stop stays, counted from the next call as before).
    mutating func resetCount() {
        count = 0
    }
}
