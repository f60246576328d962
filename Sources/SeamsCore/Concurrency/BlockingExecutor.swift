import Dispatch
import Foundation

/// The one place where seams-sync's blocking work runs: scans, copies, uploads and downloads,
/// the background flush, the lock's heartbeat, and a whole run called from async code.
///
/// File system calls and the WebDAV accessor's exchanges block their thread. Run on Swift's
/// cooperative pool (one thread per core), they would hold threads that other tasks (the
/// accessor's own exchanges among them) need; Dispatch may be slow to lend a thread when the
/// machine is busy. So this executor keeps threads of its own: a job goes to a thread that waits
/// for one, or to a new thread when none does, and a thread with nothing to do for
/// ``idleTimeout`` seconds ends, so an idle process keeps none. Starting a thread took about half
/// a millisecond here (measured with the other core busy); a cold sync of 10,000 files hands out
/// its copies about 1,250 times.
///
/// A caller never waits for a thread only to hand it work: on a machine whose cores are busy
/// with other work, a woken thread can wait a scheduler tick (4 ms here) before it runs. So
/// ``map(_:width:_:)`` does on the calling thread whatever is left when its own share is done,
/// and waits only for the threads already running a call; and ``PendingWork/wait()`` runs work
/// started by ``start(_:)`` on the waiting thread when no thread has begun it yet.
///
/// Four entry points, one pool:
///
/// ```swift
/// let report = try await BlockingExecutor.shared.run { try engine.run(...) }  // from async code
/// let sizes = BlockingExecutor.shared.map(files.count, width: 4) { size(files[$0]) }
/// let flush = BlockingExecutor.shared.start { try flushBatch() }  // beside the caller; wait() later
/// BlockingExecutor.shared.execute { heartbeat() }  // fire and forget
/// ```
package final class BlockingExecutor: Sendable {
    /// The threads the engine's scans and copies share.
    package static let shared = BlockingExecutor(idleTimeout: 2)

    /// The system's name of the executor's threads (at most 15 bytes, Linux's limit).
    package static let threadName = "seams-worker"

    /// The key of the calling thread's dictionary that marks an executor's thread.
    private static let marker = "seams-sync.executor"

    /// Whether the calling thread is one of an executor's (a thread's name cannot tell: on Linux
    /// it reads back the name of the thread that started it).
    package static var isExecutorThread: Bool { Thread.current.threadDictionary[marker] != nil }

    /// How long, in seconds, a thread with nothing to do waits for a job before it ends.
    package let idleTimeout: Double

    /// Threads waiting for a job, the one that waited least last.
    private let idle = LockedValue<[Worker]>([])
    /// Starts a thread that runs its argument (`Thread.detachNewThread`; tests hold threads back).
    private let startThread: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Threads started, for tests.
    private let started = LockedValue(0)

    /// One thread: the job it was handed, and the signal that one is there.
    private final class Worker: Sendable {
        let job = LockedValue<(@Sendable () -> Void)?>(nil)
        let wake = DispatchSemaphore(value: 0)
    }

    /// Creates an executor, no thread started yet.
    ///
    /// - Parameter idleTimeout: Seconds a thread waits for its next job before it ends.
    package convenience init(idleTimeout: Double) {
        self.init(idleTimeout: idleTimeout) { Thread.detachNewThread($0) }
    }

    /// Creates an executor that starts its threads with `startThread`: a test passes one that
    /// starts them late, or never, to see what a caller does while no thread has come.
    ///
    /// - Parameters:
    ///   - idleTimeout: Seconds a thread waits for its next job before it ends.
    ///   - startThread: Runs its argument on a new thread.
    package init(idleTimeout: Double, startThread: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.idleTimeout = idleTimeout
        self.startThread = startThread
    }

    /// How many threads were started so far (each ended one was counted when it started).
    package var threadsStarted: Int { started.withLock { $0 } }

    /// How many threads wait for a job right now.
    package var idleThreads: Int { idle.withLock { $0.count } }

    // MARK: Entry points

    /// Runs `work` on one of the executor's threads and waits for it without holding a thread of
    /// Swift's cooperative pool: the async entry point to blocking work.
    ///
    /// - Parameter work: What to run; it may block.
    /// - Returns: What `work` returned.
    /// - Throws: What `work` threw.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            execute { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Calls `transform` for each index of `0..<count` on at most `width` threads (the calling
    /// thread and up to `width - 1` of the executor's) and returns the results in index order,
    /// once every call has returned. With a `width` of 1 or a single index, every call runs on
    /// the calling thread, in order. A thread that has not begun by the time the calling thread
    /// finds no call left is not waited for.
    ///
    /// - Parameters:
    ///   - count: How many calls.
    ///   - width: At most this many calls at once.
    ///   - transform: One call; it may block.
    /// - Returns: What each call returned, by index.
    @available(*, noasync, message: "blocks its thread until every call returns; call it from the executor's threads")
    package func map<T: Sendable>(_ count: Int, width: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        let threads = min(width, count)
        guard threads > 1 else { return (0..<count).map(transform) }
        let next = LockedValue(0)
        let results = LockedValue<[T?]>(Array(repeating: nil, count: count))
        let work = { @Sendable in
            while true {
                let index = next.withLock { next in
                    defer { next += 1 }
                    return next
                }
                guard index < count else { return }
                let result = transform(index)
                results.withLock { $0[index] = result }
            }
        }
        // Helpers that began, and whether the caller still lets them: once the caller finds no
        // index left, a helper that has not begun has nothing to do, and is not waited for.
        let helpers = LockedValue((running: 0, closed: false))
        let done = DispatchSemaphore(value: 0)
        for _ in 1..<threads {
            execute {
                let begins = helpers.withLock { helpers in
                    if !helpers.closed { helpers.running += 1 }
                    return !helpers.closed
                }
                guard begins else { return }
                work()
                done.signal()
            }
        }
        work()
        let running = helpers.withLock { helpers in
            helpers.closed = true
            return helpers.running
        }
        for _ in 0..<running { done.wait() }
        return results.withLock { $0.map { $0! } }
    }

    /// Starts `work` on one of the executor's threads, beside the caller, to be waited for once;
    /// waited for before a thread has begun it, it runs on the waiting thread.
    ///
    /// - Parameter work: What to run; it may block.
    /// - Returns: The running work.
    package func start(_ work: @escaping @Sendable () throws -> Void) -> any PendingWork {
        let pending = Started(work)
        execute { pending.runIfWaiting() }
        return pending
    }

    /// Work begun by ``start(_:)``: run by whichever comes first, a thread of the executor or
    /// the thread that waits for it.
    private final class Started: PendingWork {
        enum Stage {
            case waiting(@Sendable () throws -> Void)
            case running
            case ended(Result<Void, any Error>)
        }
        private let stage: LockedValue<Stage>
        private let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping @Sendable () throws -> Void) {
            stage = LockedValue(.waiting(work))
        }

        /// Takes the work if nobody has: the caller then runs it.
        private func claim() -> (@Sendable () throws -> Void)? {
            stage.withLock { stage in
                guard case .waiting(let work) = stage else { return nil }
                stage = .running
                return work
            }
        }

        /// On the executor's thread: runs the work unless the waiting thread took it.
        func runIfWaiting() {
            guard let work = claim() else { return }
            let result = Result { try work() }
            stage.withLock { $0 = .ended(result) }
            done.signal()
        }

        @available(*, noasync, message: "blocks its thread until the work ends")
        func wait() -> Result<Void, any Error> {
            if let work = claim() {
                let result = Result { try work() }
                stage.withLock { $0 = .ended(result) }
                return result
            }
            done.wait()
            return stage.withLock {
                guard case .ended(let result) = $0 else { preconditionFailure("signalled once ended") }
                return result
            }
        }
    }

    /// Runs `job` on a thread that waits for work, or on a new one when none does; returns at once.
    ///
    /// - Parameter job: What to run; it may block.
    package func execute(_ job: @escaping @Sendable () -> Void) {
        if let worker = idle.withLock({ $0.popLast() }) {
            worker.job.withLock { $0 = job }
            worker.wake.signal()
            return
        }
        let worker = Worker()
        worker.job.withLock { $0 = job }
        started.withLock { $0 += 1 }
        startThread { [self] in serve(worker) }
    }

    /// A thread's life: its job, then wait on the idle list for the next one until the timeout.
    private func serve(_ worker: Worker) {
        Thread.current.threadDictionary[Self.marker] = true
        SystemThreadName.set(Self.threadName)  // for debuggers and crash logs
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

/// Work started by ``BlockingExecutor/start(_:)``, waited for once.
package protocol PendingWork: Sendable {
    /// Waits for the work and returns how it ended.
    @available(*, noasync, message: "blocks its thread until the work ends")
    func wait() -> Result<Void, any Error>
}
