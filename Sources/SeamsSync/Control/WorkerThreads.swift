import Dispatch
import Foundation
import SeamsCore

/// Threads that run blocking work and wait a while for more before they end: the threads behind
/// ``mapOnThreads(_:width:_:)``.
///
/// A cold sync of 10,000 files hands its copies out a few at a time, about 1,250 times, and
/// starting a `Thread` took about half a millisecond here (measured with the other core busy). A
/// thread here takes the next job as soon as it is handed one, and ends after ``idleTimeout``
/// with none, so an idle process keeps no thread.
///
/// ```swift
/// WorkerThreads.shared.run { copyOneFile() }   // on an idle thread, or a new one
/// ```
package final class WorkerThreads: Sendable {
    /// The threads the engine's scans and copies share.
    package static let shared = WorkerThreads(idleTimeout: 2)

    /// How long, in seconds, a thread with nothing to do waits for a job before it ends.
    package let idleTimeout: Double

    /// Threads waiting for a job, the one that waited least last.
    private let idle = LockedValue<[Worker]>([])
    /// Threads started, for tests.
    private let started = LockedValue(0)

    /// One thread: the job it was handed, and the signal that one is there.
    private final class Worker: Sendable {
        let job = LockedValue<(@Sendable () -> Void)?>(nil)
        let wake = DispatchSemaphore(value: 0)
    }

    /// Creates a set of threads, none started yet.
    ///
    /// - Parameter idleTimeout: Seconds a thread waits for its next job before it ends.
    package init(idleTimeout: Double) {
        self.idleTimeout = idleTimeout
    }

    /// How many threads were started so far (each ended one was counted when it started).
    package var threadsStarted: Int { started.withLock { $0 } }

    /// How many threads wait for a job right now.
    package var idleThreads: Int { idle.withLock { $0.count } }

    /// Runs `job` on a thread that waits for work, or on a new one when none does; returns at once.
    ///
    /// - Parameter job: What to run; it may block.
    package func run(_ job: @escaping @Sendable () -> Void) {
        if let worker = idle.withLock({ $0.popLast() }) {
            worker.job.withLock { $0 = job }
            worker.wake.signal()
            return
        }
        let worker = Worker()
        worker.job.withLock { $0 = job }
        started.withLock { $0 += 1 }
        let thread = Thread { [self] in serve(worker) }
        thread.name = "seams-sync worker"
        thread.start()
    }

    /// A thread's life: its job, then wait on the idle list for the next one until the timeout.
    private func serve(_ worker: Worker) {
        while true {
            do {
                // Released before the thread waits: the job's captures are not kept while idle.
                let job = worker.job.withLock { job in
                    defer { job = nil }
                    return job
                }
                job?()
            }
            idle.withLock { $0.append(worker) }
            if worker.wake.wait(timeout: .now() + idleTimeout) == .timedOut {
                let leaves = idle.withLock { list in
                    guard let index = list.firstIndex(where: { $0 === worker }) else { return false }
                    list.remove(at: index)
                    return true
                }
                if leaves { return }
                // Handed a job just as the wait ran out: its signal is on the way.
                worker.wake.wait()
            }
        }
    }
}
