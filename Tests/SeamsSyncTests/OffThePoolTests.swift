import Foundation
import SeamsCore
import Testing

/// The helper that runs the crash sweeps: off the cooperative pool, at the lowest priority, and
/// still inside the test (its expectations are the test's).
@Suite struct OffThePoolTests {
    /// The calling thread's nice value.
    static func niceness() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    @Test("a body runs on a thread of its own at nice 19; the test's other threads keep theirs")
    func lowPriorityThread() async throws {
        let outside = Self.niceness()
        let (inside, name) = try await offThePool { (Self.niceness(), Thread.current.name) }
        #expect(inside == 19)
        #expect(Self.niceness() == outside, "the caller's priority is not changed")
        #expect(name?.contains("seams-worker") != true)
    }

    @Test("at most as many bodies run at once as the gate allows; the rest wait their turn")
    func gateBoundsConcurrency() async throws {
        let gate = LongTestGate(width: 2)
        let running = LockedCounter()
        let finished = LockedCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    await gate.enter()
                    running.change(by: 1)
                    try await Task.sleep(for: .milliseconds(20))
                    running.change(by: -1)
                    gate.leave()
                    finished.change(by: 1)
                }
            }
            try await group.waitForAll()
        }
        #expect((1...2).contains(running.peak), "never more than the gate's width at once")
        #expect(finished.peak == 6, "every waiter had its turn")
    }

    /// A count and the highest it reached.
    final class LockedCounter: Sendable {
        private let state = LockedValue((value: 0, highest: 0))

        func change(by delta: Int) {
            state.withLock { state in
                state.value += delta
                state.highest = max(state.highest, state.value)
            }
        }

        var peak: Int { state.withLock { $0.highest } }
    }
}
