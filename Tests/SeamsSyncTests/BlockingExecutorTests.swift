import Dispatch
import Foundation
import SeamsCore
import Testing

@testable import SeamsSync

/// The executor's threads: kept between calls, ended when idle, never losing a job.
@Suite struct BlockingExecutorTests {
    /// Waits until `condition` holds, up to 30 seconds (a busy machine starts threads late).
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 30)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return true
    }

    @Test("a thread that finished its job takes the next: 500 calls of width 3 start two threads, not a thousand")
    func threadsAreKept() {
        let workers = BlockingExecutor(idleTimeout: 60)
        for round in 0..<500 {
            let results = workers.map(6, width: 3) { $0 + round }
            #expect(results == (0..<6).map { $0 + round })
        }
        // Each call queues two jobs, and takes back those no thread has taken when it is done; a
        // thread waiting on the idle list, or on its way to the queue, takes the next call's jobs.
        // A thread may still be busy with a job when the next call comes, so a few more may start:
        // a handful, where a thread per job was a thousand.
        #expect(workers.threadsStarted >= 2)
        #expect(workers.threadsStarted <= 20, "\(workers.threadsStarted) threads started")
    }

    @Test("jobs handed out together run at the same time, each on a thread of its own")
    func jobsRunTogether() {
        let workers = BlockingExecutor(idleTimeout: 60)
        let arrived = LockedValue(0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            workers.execute {
                arrived.withLock { $0 += 1 }
                // Each waits for all four: one thread running them in turn would never get past.
                let deadline = Date(timeIntervalSinceNow: 30)
                while arrived.withLock({ $0 }) < 4, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                finished.signal()
            }
        }
        for _ in 0..<4 { #expect(finished.wait(timeout: .now() + 60) == .success) }
        #expect(arrived.withLock { $0 } == 4)
        #expect(workers.threadsStarted == 4)
    }

    @Test("an idle thread ends after the timeout, and the next job starts a new one")
    func idleThreadsEnd() {
        let workers = BlockingExecutor(idleTimeout: 1)
        let done = DispatchSemaphore(value: 0)
        workers.execute { done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success)
        // The thread puts itself on the idle list after its job and waits there a second (time
        // enough for this test to see it, even on a busy machine), then leaves it.
        #expect(eventually { workers.idleThreads == 1 }, "the thread did not wait for a next job")
        #expect(eventually { workers.idleThreads == 0 }, "the idle thread did not end")
        workers.execute { done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(workers.threadsStarted == 2, "the ended thread was not handed the second job")
    }

    @Test("a caller waits for no thread that has not begun: map's calls and started work run on the calling thread")
    func noWaitForThreadsNotBegun() {
        // No thread starts until the test lets it: on a busy machine a woken thread may wait
        // milliseconds for a core, and a caller that waits for it waits as long.
        let held = LockedValue<[@Sendable () -> Void]>([])
        let workers = BlockingExecutor(idleTimeout: 60) { body in held.withLock { $0.append(body) } }
        struct Failed: Error, Equatable {}
        let outcome = LockedValue<(squares: [Int], ran: Bool, failure: Failed?)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let squares = workers.map(5, width: 3) { $0 * $0 }
            let ran = LockedValue(false)
            let started = workers.start { ran.withLock { $0 = true } }
            let ended = started.wait()
            let failing = workers.start { throw Failed() }.wait()
            var failure: Failed?
            if case .failure(let error) = failing { failure = error as? Failed }
            let succeeded = (try? ended.get()) != nil
            outcome.withLock { $0 = (squares, succeeded && ran.withLock { $0 }, failure) }
            finished.signal()
        }
        let returned = finished.wait(timeout: .now() + 30) == .success
        // Let the held threads go either way: they find nothing left to do (or, before this
        // behaviour, the calls they were waited for).
        for body in held.withLock({ $0 }) { Thread.detachNewThread(body) }
        #expect(returned, "the caller waited for threads that had not begun")
        if !returned { _ = finished.wait(timeout: .now() + 30) }
        let seen = outcome.withLock { $0 }
        #expect(seen?.squares == [0, 1, 4, 9, 16])
        #expect(seen?.ran == true, "started work was not run by the thread that waited for it")
        #expect(seen?.failure == Failed(), "the error of started work run by the waiting thread was not returned")
        // The started work found the map's two threads on their way: no other thread was started.
        #expect(workers.threadsStarted == 2)
    }

    @Test("started work a thread has begun is waited for, and runs once")
    func startedWorkRunsOnce() {
        let workers = BlockingExecutor(idleTimeout: 60)
        let runs = LockedValue([Int](repeating: 0, count: 200))
        for index in 0..<200 {
            let began = DispatchSemaphore(value: 0)
            let pending = workers.start {
                runs.withLock { $0[index] += 1 }
                began.signal()
            }
            // Half the time the thread has begun (and ended) before the wait; else either may run it.
            if Bool.random() { #expect(began.wait(timeout: .now() + 30) == .success) }
            #expect((try? pending.wait().get()) != nil)
            #expect(runs.withLock { $0[index] } >= 1, "ended when the wait returned")
        }
        // Every thread idle again (none leaves within the minute): each job a thread took has
        // ended, so a second run of any work would be counted by now.
        let deadline = ContinuousClock.now + .seconds(30)
        while workers.idleThreads < workers.threadsStarted, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        #expect(workers.idleThreads == workers.threadsStarted)
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 200))
    }

    @Test("a job handed to a thread as its idle wait runs out is still run")
    func noJobLostAtTheTimeout() {
        // A timeout of a millisecond and pauses around it: many jobs arrive just as a thread's
        // wait ends, the moment a thread both leaves and is handed a job.
        let workers = BlockingExecutor(idleTimeout: 0.001)
        let ran = LockedValue(0)
        let done = DispatchSemaphore(value: 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            workers.execute {
                ran.withLock { $0 += 1 }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.002, using: &generator))
        }
        #expect(ran.withLock { $0 } == 400)
    }

    @Test("the engine's async run makes every call on the executor's threads, none on the caller's")
    func asyncRunOnExecutor() async throws {
        let base = FileManager.default.temporaryDirectory.appending(
            path: "seams-executor-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: base) }
        let (local, container, state) = (
            base.appending(path: "l"), base.appending(path: "c"), base.appending(path: "s")
        )
        for folder in [local, container] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data("x".utf8).write(to: local.appending(path: "a.txt"))
        let boundary = LiveBoundary()
        let onExecutor = LockedValue<[Bool]>([])
        boundary.beforeCall.withLock {
            $0 = { _, _ in onExecutor.withLock { $0.append(BlockingExecutor.isExecutorThread) } }
        }
        let engine = SyncEngine(directories: boundary, files: boundary, owner: "test")
        let report = try await engine.run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(FileManager.default.fileExists(atPath: container.appending(path: "a.txt").path))
        let calls = onExecutor.withLock { $0 }
        #expect(
            calls.count > 10 && calls.allSatisfy { $0 },
            "\(calls.filter { !$0 }.count) of \(calls.count) calls elsewhere")
        #expect(!BlockingExecutor.isExecutorThread, "the test's own task is not on the executor")
    }

    @Test("the executor's threads carry its name, as debuggers and crash logs show it")
    func threadsAreNamed() async throws {
        let name = try await BlockingExecutor.shared.run { SystemThreadName.current() }
        #expect(name == BlockingExecutor.threadName)
    }
}
