import Dispatch
import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A run asked to stop (Ctrl-C, a cancelled task) stops between paths: what is done is flushed
/// and recorded, the lock released, and the next run finishes the rest.
@Suite struct InterruptionTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)
    static let count = 300

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem(containerURL: container)
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        for index in 0..<Self.count {
            try fileSystem.write(Data("file \(index)".utf8), to: local.appending(path: "f\(index).txt"))
        }
        return fileSystem
    }

    func engine(_ fileSystem: InMemoryFileSystem, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
        -> SyncEngine
    {
        SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test",
            progress: { if $0.phase == .applying { progress($0.completed, $0.total) } })
    }

    func names(_ fileSystem: InMemoryFileSystem, _ root: URL) throws -> Set<String> {
        Set(try fileSystem.contentsOfDirectory(at: root).map(\.name))
    }

    @Test("a stop asked for during the apply ends the run at a safe point; the next run finishes; nothing is lost")
    func stopDuringApply() throws {
        let fileSystem = try setUp()
        let stop = SyncStopToken()
        let report = try engine(fileSystem, progress: { done, _ in if done >= 64 { stop.requestStop() } })
            .run(local: local, container: container, stateDirectory: state, stop: stop)
        let interruption = try #require(report.interruption)
        #expect(interruption.total == Self.count)
        #expect(interruption.done >= 64 && interruption.done < Self.count, "\(interruption)")
        #expect(report.copiedToContainer == interruption.done, "every path reached was copied whole")
        #expect(!report.succeeded)
        #expect(
            report.summary.contains("interrupted: \(interruption.done) of \(Self.count) done; run again to finish."))
        let copied = try names(fileSystem, container).filter { !$0.hasPrefix(".seams") }
        #expect(copied.count == interruption.done, "no half-done path, no temp file left")
        #expect(
            try names(fileSystem, container).filter { $0.hasPrefix(".seams-tmp") || $0 == ".seams-lock" }.isEmpty,
            "no temp file and no lock left")
        for name in copied {
            #expect(
                try fileSystem.read(from: container.appending(path: name))
                    == fileSystem.read(from: local.appending(path: name)))
        }

        fileSystem.resetCalls()
        let next = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(next.interruption == nil)
        #expect(next.copiedToContainer == Self.count - interruption.done, "the state recorded what the first run did")
        #expect(next.conflicts.isEmpty)
        #expect(try names(fileSystem, container).filter { !$0.hasPrefix(".seams") } == names(fileSystem, local))
    }

    @Test("paths in sync count as done from the start: progress and an interruption's count include them")
    func inSyncPathsCountAsDone() throws {
        let fileSystem = try setUp()
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        fileSystem.advanceTime(by: 10)
        for index in 0..<200 {
            try fileSystem.write(Data("edited \(index)".utf8), to: local.appending(path: "f\(index).txt"))
        }
        let stop = SyncStopToken()
        let seen = LockedValue<[Int]>([])
        let report = try engine(
            fileSystem,
            progress: { done, total in
                seen.withLock { $0.append(done) }
                #expect(total == Self.count)
                if done >= 164 { stop.requestStop() }
            }
        ).run(local: local, container: container, stateDirectory: state, stop: stop)
        let interruption = try #require(report.interruption)
        #expect(interruption.total == Self.count)
        #expect(interruption.done >= 164 && interruption.done < Self.count, "\(interruption)")
        #expect(report.inSync == 100)
        #expect(report.copiedToContainer == interruption.done - 100, "every path done past the 100 in sync was copied")
        #expect(seen.withLock { $0.allSatisfy { $0 >= 100 } }, "progress starts past the paths in sync")
        let next = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(next.copiedToContainer == Self.count - interruption.done, "the rest of the 200 edits")
        #expect(next.inSync == Self.count - next.copiedToContainer)
    }

    @Test("what an interrupted run did is durable: a power cut right after it loses none of it")
    func interruptedWorkIsFlushed() throws {
        let fileSystem = try setUp()
        fileSystem.synchronizeAll()
        let stop = SyncStopToken()
        let report = try engine(fileSystem, progress: { done, _ in if done >= 64 { stop.requestStop() } })
            .run(local: local, container: container, stateDirectory: state, stop: stop)
        let done = try #require(report.interruption).done
        fileSystem.cutPower()
        #expect(try names(fileSystem, container).filter { !$0.hasPrefix(".seams") }.count == done)
        // After the cut the host has booted again: the lock the cut brought back is empty or names
        // the boot that ended; either way it is taken over at once, with no wait.
        var rebooted = SyncProcess.current
        rebooted.bootID = "after the power cut"
        let next = try SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", process: rebooted,
            lockWait: { _ in Issue.record("waited for a lock") }
        ).run(local: local, container: container, stateDirectory: state)
        #expect(next.copiedToContainer == Self.count - done, "the state survived the power cut too")
    }

    @Test("a stop asked for before the run ends its scan: nothing changes, the lock is released")
    func stopBeforeApply() throws {
        let fileSystem = try setUp()
        let stop = SyncStopToken()
        stop.requestStop()
        fileSystem.resetCalls()
        #expect(throws: SyncError.interrupted) {
            try engine(fileSystem).run(local: local, container: container, stateDirectory: state, stop: stop)
        }
        #expect(try names(fileSystem, container).isEmpty, "no file, no lock, no temp")
        #expect(!fileSystem.calls.contains { $0.operation == .copyItem })
    }

    @Test(
        "SyncManager: cancelling the task stops the run at a safe point and throws CancellationError; the next call finishes"
    )
    func managerCancellation() async throws {
        let fileSystem = try setUp()
        let manager = SyncManager(
            fileSystem: fileSystem, fileAccessor: fileSystem, directoryAccessor: fileSystem,
            bookmarkStorage: fileSystem,
            stateDirectory: state)
        let held = LockedValue(false)
        let reached = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let (local, container) = (local, container)
        let task = Task {
            try await manager.sync(local: local, container: container) { progress in
                // On the sync's own thread: hold the run here until the task is cancelled.
                if progress.phase == .applying, progress.completed == 64,
                    held.withLock({
                        let first = !$0
                        $0 = true
                        return first
                    })
                {
                    reached.signal()
                    cancelled.wait()
                }
            }
        }
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                reached.wait()
                continuation.resume()
            }
        }
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        let done = try names(fileSystem, container).filter { !$0.hasPrefix(".seams") }.count
        #expect(done > 0)
        #expect(!fileSystem.fileExists(at: container.appending(path: ".seams-lock")))
        let report = try await manager.sync(local: local, container: container)
        #expect(report.copiedToContainer == Self.count - done)
    }

    @Test("SyncManager: progress counts up to the total, and two calls at once run one after the other")
    func managerProgressAndTurns() async throws {
        let fileSystem = try setUp()
        let manager = SyncManager(
            fileSystem: fileSystem, fileAccessor: fileSystem, directoryAccessor: fileSystem,
            bookmarkStorage: fileSystem,
            stateDirectory: state)
        let seen = LockedValue<[SyncProgress]>([])
        let (local, container) = (local, container)
        async let first = manager.sync(local: local, container: container) { progress in
            seen.withLock { $0.append(progress) }
        }
        async let second = manager.sync(local: local, container: container)
        let reports = try await [first, second]
        #expect(
            reports.map(\.copiedToContainer).sorted() == [0, Self.count],
            "one copied everything, the other found it done")
        let updates = seen.withLock { $0 }
        let scanning = updates.filter { $0.phase == .scanning }
        let applying = updates.filter { $0.phase == .applying }
        if let last = updates.last, last.total > 0 {
            // This call synced: it scanned, then applied, and ended with every path and byte done.
            #expect(!scanning.isEmpty && scanning.allSatisfy { $0.total == 0 && $0.fractionCompleted == 0 })
            #expect(
                updates.firstIndex { $0.phase == .applying }! > updates.lastIndex { $0.phase == .scanning }!,
                "the scan comes first")
            #expect(last.completed == Self.count && last.total == Self.count && last.fractionCompleted == 1)
            #expect(last.bytesTotal > 0 && last.bytesCompleted == last.bytesTotal)
        }
        #expect(scanning.map(\.completed) == scanning.map(\.completed).sorted())
        #expect(applying.map(\.completed) == applying.map(\.completed).sorted())
        #expect(applying.map(\.bytesCompleted) == applying.map(\.bytesCompleted).sorted())
    }

    @Test("SyncManager: a task cancelled before it starts throws CancellationError and touches nothing")
    func managerCancelledBeforeStart() async throws {
        let fileSystem = try setUp()
        let manager = SyncManager(
            fileSystem: fileSystem, fileAccessor: fileSystem, directoryAccessor: fileSystem,
            bookmarkStorage: fileSystem,
            stateDirectory: state)
        let (local, container) = (local, container)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manager.sync(local: local, container: container)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try names(fileSystem, container).isEmpty)
    }

    @Test("SyncManager without a state folder, HOME or XDG_STATE_HOME refuses with noStateDirectory")
    func noStateDirectory() {
        #expect(SyncManager.defaultStateDirectory(environment: [:]) == nil)
        #expect(SyncManager.defaultStateDirectory(environment: ["HOME": "relative"]) == nil)
        #expect(SyncManager.defaultStateDirectory(environment: ["HOME": "/h"])?.path == "/h/.local/state/seams-sync")
        #expect(
            SyncManager.defaultStateDirectory(environment: ["HOME": "/h", "XDG_STATE_HOME": "/x"])?.path
                == "/x/seams-sync")
    }
}
