import Foundation
import SeamsCore

/// Runs a long synchronous test body on a thread of its own, at most as many bodies at once as
/// the machine has cores, and waits for it without holding a thread of Swift's cooperative pool.
///
/// Swift Testing calls a synchronous test on the cooperative pool, which has one thread per core.
/// A crash sweep computes for a minute or more under the thread sanitizer; two of them on a
/// two-core machine held the whole pool, and every other test's network exchanges (whose replies
/// resume on the pool) ran past their timeouts. Off the pool, the sweeps still took both cores
/// from the threads that answer those exchanges, so their threads run at the lowest priority
/// (nice 19): the other tests' threads go first, and the sweeps take what is left. The body runs
/// in the test's own task, with that executor preferred, so an `#expect` inside it is still the
/// test's.
///
/// - Parameter body: The test's work; it may compute or block for as long as it needs.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw.
nonisolated func offThePool<T>(_ body: () throws -> T) async throws -> T {
    await LongTestGate.shared.enter()
    defer { LongTestGate.shared.leave() }
    return try await withTaskExecutorPreference(BackgroundThreadExecutor.shared) { try body() }
}

/// Lets at most as many long test bodies run at once as the machine has cores; the rest wait
/// (suspended, holding no thread) in the order they came.
final class LongTestGate: Sendable {
    static let shared = LongTestGate(width: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private struct State: ~Copyable {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: LockedValue<State>

    init(width: Int) {
        state = LockedValue(State(free: width))
    }

    /// Waits for a place, then takes it.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives the place to the longest waiter, or back to the gate.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// A task executor that runs each job on a new thread of its own, at the lowest priority (nice
/// 19), with 8 MiB of stack as a main thread has: for a few long test bodies, never for the
/// engine's work.
final class BackgroundThreadExecutor: TaskExecutor {
    static let shared = BackgroundThreadExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            // Linux keeps a nice value per thread: this one only, and the threads it starts.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)  // 0: the calling thread
            job.runSynchronously(on: executor)
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
