import Foundation

/// Times `calls` calls of `body` and returns nanoseconds per call (best of `rounds`).
func nanosecondsPerCall(calls: Int, rounds: Int = 5, _ body: (Int) -> Bool) -> Double {
    let clock = ContinuousClock()
    var best = Double.infinity
    var sink = 0
    for _ in 0..<rounds {
        let elapsed = clock.measure {
            for index in 0..<calls where body(index) { sink &+= 1 }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds * 1e9 / Double(calls))
    }
    precondition(sink >= 0)
    return best
}

/// The paths the contenders are asked about: made once, so no contender pays for building strings.
func samplePaths(_ count: Int) -> [String] {
    (0..<count).map { "/data/file-\($0 % 64).json" }
}

/// Prints one line of the table.
func report(_ name: String, _ nanoseconds: Double, baseline: Double) {
    let ratio = nanoseconds / baseline
    print(name.padding(toLength: 34, withPad: " ", startingAt: 0), String(format: "%8.1f ns/call   %5.2fx", nanoseconds, ratio))
}
