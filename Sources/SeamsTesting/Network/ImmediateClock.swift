import Seams

/// A clock whose sleeps return at once and move its time forward, so that code which waits
/// (a retry back-off, a mock's delay) runs instantly and deterministically in tests.
///
/// ```swift
/// let clock = ImmediateClock()
/// let client = ForecastClient(transport: mock, clock: clock)   // back-off sleeps on `clock`
/// _ = try await client.forecast(for: "Oslo")
/// #expect(clock.sleeps == [.seconds(1), .seconds(2)])          // what it waited, in order
/// ```
///
/// A sleep in a cancelled task throws `CancellationError`, as a real clock's does. State sits
/// behind a lock (`LockedValue`): one clock may be shared by any number of tasks.
public final class ImmediateClock: Clock, Sendable {
    /// A point in the clock's time: how long after its start.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// The time since the clock was made.
        public let offset: Duration

        /// Creates the instant `offset` after the clock's start.
        ///
        /// - Parameter offset: The time since the start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Earlier instants come first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleeps: [Duration] = []
    }

    private let state = LockedValue(State())

    /// Creates a clock at its start.
    public init() {}

    /// The clock's current time: the start plus every sleep so far.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Zero: the clock has no granularity.
    public var minimumResolution: Duration { .zero }

    /// Every sleep's length, in the order they were asked for.
    public var sleeps: [Duration] {
        state.withLock { $0.sleeps }
    }

    /// The time slept in all, the sum of ``sleeps``.
    public var elapsed: Duration {
        state.withLock { $0.now.offset }
    }

    /// Moves the time to `deadline` (if it is later) and returns at once.
    ///
    /// - Parameters:
    ///   - deadline: When the sleep would end.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(max(.zero, state.now.duration(to: deadline)))
            state.now = max(state.now, deadline)
        }
        await Task.yield()
    }
}
