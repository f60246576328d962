import Foundation
import Testing

/// How long the loopback tests wait where they do not test timing.
///
/// An exchange with the loopback server ends in milliseconds on a quiet machine. Under the thread
/// sanitizer the network suites alone keep both cores busy for over a minute, and beside every
/// other suite an exchange can wait far longer than 30 seconds for a core: the timeouts that were
/// 30 and 60 seconds fired there while nothing was wrong. So the exchanges wait up to five
/// minutes and the suites up to ten; a transport that hangs still fails, later. The tests of
/// timing itself (a server slower than the timeout) keep their short timeouts.
enum Patience {
    /// The timeout of an exchange that should end at once.
    static let exchange: Duration = .seconds(300)
    /// The time limit of a suite of such exchanges.
    static let suite: TimeLimitTrait.Duration = .minutes(10)
}

/// Whether this test process runs under the thread sanitizer (its runtime is loaded).
let underThreadSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
