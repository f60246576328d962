// A module that applies @Mockable to a public protocol, as an app's own module does.
// `ReleaseBuildTests` compiles it as a release build does and reads its symbols and libraries.
import SeamsMacros

/// Tells the time.
@Mockable
public protocol ClockProviding: Sendable {
    /// Seconds since some fixed moment.
    func now() -> Double
    /// A clock that started at `start`.
    static func started(at start: Double) -> Self
}

/// Measures how long something took with a clock.
public struct Stopwatch: Sendable {
    private let clock: any ClockProviding

    /// A stopwatch that reads `clock`.
    public init(clock: any ClockProviding) {
        self.clock = clock
    }

    /// The seconds that `body` took.
    public func measure(_ body: () -> Void) -> Double {
        let start = clock.now()
        body()
        return clock.now() - start
    }
}

/// Counts ticks: a protocol without `Self`, so its @Mockable also writes the forwarding extension
/// that a child protocol's mock uses.
@Mockable
public protocol TickProviding: Sendable {
    /// The next tick.
    func tick() -> Int
}
