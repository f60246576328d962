import Dispatch
import Foundation

/// The one place where seams-sync's blocking work runs: scans, copies, uploads and downloads,
/// the background flush, the lock's heartbeat, and a whole run called from async code.
///
/// File system calls and the WebDAV accessor's exchanges block their thread. Run on Swift's
/// cooperative pool (one thread per core), they would hold threads that other tasks (the
/// accessor's own exchanges among them) need; Dispatch may be slow to lend a thread when the
/// machine is busy. So this executor keeps threads of its own around one queue: a job wakes a
/// thread that waits for one, or starts a new thread when every thread is busy and none is on its
/// way already, and a thread with nothing to do for ``idleTimeout`` seconds ends, so an idle
/// process keeps none. Starting a thread took about half a millisecond here (measured with the
/// other core busy); a cold sync of 10,000 files hands out its copies about 1,250 times.
///
/// A caller never waits for a thread only to hand it work: on a machine whose cores are busy
/// with other work, a woken thread can wait a scheduler tick (4 ms here) before it runs. So
/// ``map(_:width:_:)`` does on the calling thread whatever is left when its own share is done,
/// takes back the jobs no thread has taken, and waits only for the threads that took one; and
/// ``PendingWork/wait()`` runs work started by ``start(_:)`` on the waiting thread when no thread
/// has taken it yet.
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

    /// Jobs not yet taken, in the order given, and the threads that take them.
    private struct Queue {
        /// Jobs no thread has taken yet, each with the id ``withdraw(_:)`` names it by.
        var jobs: [(id: UInt64, job: @Sendable () -> Void)] = []
        /// The id of the last job queued.
        var lastID: UInt64 = 0
        /// Threads waiting for a job, the one that waited least last.
        var idle: [Worker] = []
        /// Threads on their way to the queue (woken, or just started), each to take a job: a job
        /// queued while there are at least as many of them as jobs needs no other thread.
        var coming = 0
        /// Threads started, for tests.
        var started = 0
    }

    private let queue = LockedValue(Queue())
    /// Starts a thread that runs its argument (`Thread.detachNewThread`; tests hold threads back).
    private let startThread: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// One thread's signal that a job may be there.
    private final class Worker: Sendable {
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
    package var threadsStarted: Int { queue.withLock { $0.started } }

    /// How many threads wait for a job right now.
    package var idleThreads: Int { queue.withLock { $0.idle.count } }

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
        // Helpers no thread has taken when the caller finds no index left have nothing to do:
        // withdrawn, and not waited for.
        let done = DispatchSemaphore(value: 0)
        let helpers = (1..<threads).map { _ in
            enqueue {
                work()
                done.signal()
            }
        }
        work()
        let taken = helpers.count - withdraw(helpers)
        for _ in 0..<taken { done.wait() }
        return results.withLock { $0.map { $0! } }
    }

    /// Starts `work` on one of the executor's threads, beside the caller, to be waited for once;
    /// waited for before a thread has begun it, it runs on the waiting thread.
    ///
    /// - Parameter work: What to run; it may block.
    /// - Returns: The running work.
    package func start(_ work: @escaping @Sendable () throws -> Void) -> any PendingWork {
        let pending = Started(work, executor: self)
        pending.queued(as: enqueue { pending.runIfWaiting() })
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
        private let executor: BlockingExecutor
        /// The id of its job in the executor's queue.
        private let id = LockedValue<UInt64>(0)

        init(_ work: @escaping @Sendable () throws -> Void, executor: BlockingExecutor) {
            stage = LockedValue(.waiting(work))
            self.executor = executor
        }

        func queued(as id: UInt64) { self.id.withLock { $0 = id } }

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
                _ = executor.withdraw([id.withLock { $0 }])  // no thread is woken for nothing
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
        enqueue(job)
    }

    /// Queues `job`, wakes a waiting thread for it, or starts one when every thread is busy and
    /// none is on its way.
    ///
    /// - Returns: The job's id, for ``withdraw(_:)``.
    @discardableResult
    private func enqueue(_ job: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, woken, starts) = queue.withLock { queue -> (UInt64, Worker?, Bool) in
            queue.lastID += 1
            queue.jobs.append((queue.lastID, job))
            if let worker = queue.idle.popLast() {
                queue.coming += 1
                return (queue.lastID, worker, false)
            }
            guard queue.jobs.count > queue.coming else { return (queue.lastID, nil, false) }
            queue.coming += 1
            queue.started += 1
            return (queue.lastID, nil, true)
        }
        woken?.wake.signal()
        if starts { startThread { [self] in serve(Worker()) } }
        return id
    }

    /// Takes back the jobs of `ids` that no thread has taken yet.
    ///
    /// - Returns: How many were taken back (they will not run).
    private func withdraw(_ ids: [UInt64]) -> Int {
        queue.withLock { queue in
            let before = queue.jobs.count
            queue.jobs.removeAll { ids.contains($0.id) }
            return before - queue.jobs.count
        }
    }

    /// A thread's life: the jobs in the queue, one after another, then a wait on the idle list
    /// for the next one until the timeout.
    private func serve(_ worker: Worker) {
        Thread.current.threadDictionary[Self.marker] = true
        SystemThreadName.set(Self.threadName)  // for debuggers and crash logs
        var arriving = true  // counted in `coming` until it reaches the queue
        while true {
            // Released before the thread waits: a job's captures are not kept while idle.
            let job: (@Sendable () -> Void)? = queue.withLock { queue in
                if arriving { queue.coming -= 1 }
                guard !queue.jobs.isEmpty else {
                    queue.idle.append(worker)
                    return nil
                }
                return queue.jobs.removeFirst().job
            }
            arriving = false
            if let job {
                job()
                continue
            }
            if worker.wake.wait(timeout: .now() + idleTimeout) == .timedOut {
                let leaves = queue.withLock { queue in
                    guard let index = queue.idle.firstIndex(where: { $0 === worker }) else { return false }
                    queue.idle.remove(at: index)
                    return true
                }
                if leaves { return }
                // Woken just as the wait ran out: its signal is on the way.
                worker.wake.wait()
            }
            arriving = true
        }
    }
}

/// Work started by ``BlockingExecutor/start(_:)``, waited for once.
package protocol PendingWork: Sendable {
    /// Waits for the work and returns how it ended.
    @available(*, noasync, message: "blocks its thread until the work ends")
    func wait() -> Result<Void, any Error>
}
