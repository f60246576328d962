import Dispatch
import Foundation
import Seams
import SeamsCore
import SeamsTesting
import Testing

@testable import SeamsSync

/// The container lock under real time: a long run keeps it, a takeover race gives it back.
@Suite struct SyncLockTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)
    var lockURL: URL { container.appending(path: ".seams-lock") }

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        try fileSystem.write(Data("1".utf8), to: local.appending(path: "a.txt"))
        return fileSystem
    }

    func lockOwner(_ fileSystem: InMemoryFileSystem) -> String? {
        guard let data = try? fileSystem.read(from: lockURL),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["owner"] as? String
    }

    @Test("a scan longer than the lock's expiry keeps the lock: the background heartbeat refreshes it")
    func longScanKeepsLock() async throws {
        let fileSystem = try setUp()
        // Time for the lock comes from a clock the test moves; the first run's listing of the local
        // folder blocks until the test lets it go. Nothing depends on how fast the machine is.
        let now = LockedValue(Date(timeIntervalSince1970: 1_800_000_000))
        let clock: @Sendable () -> Date = { now.withLock { $0 } }
        let slow = SlowFirstListing(base: fileSystem, slowPath: local.path)
        defer { slow.release.signal() }
        let options = {
            var options = SyncOptions()
            options.lockExpiry = 3  // the heartbeat thread beats every second of real time
            return options
        }()
        let first = SyncEngine(
            directories: slow, files: fileSystem, clock: clock, owner: "first", scansConcurrently: false)
        let (local, container, state) = (local, container, state)
        // On a thread of its own: the run blocks in the slow listing, and a blocked task would hold
        // one of the few threads of the pool that this test (and every other) needs to go on.
        let running = Self.onOwnThread {
            try first.run(local: local, container: container, stateDirectory: state, options: options)
        }
        try await waitUntil { slow.started.withLock { $0 } }
        // The lock is now far past its expiry by the clock, unless the heartbeat renews it.
        let later = now.withLock {
            $0 = $0.addingTimeInterval(60)
            return $0
        }
        let renewed = try await waitUntil { (heartbeat(fileSystem) ?? 0) >= later.timeIntervalSince1970 }
        #expect(renewed, "the background heartbeat renewed the lock while the run was busy scanning")
        let second = SyncEngine(directories: fileSystem, files: fileSystem, clock: clock, owner: "second")
        #expect {
            try second.run(local: local, container: container, stateDirectory: state, options: options)
        } throws: { error in
            guard case SyncError.lockHeld(let owner) = error else { return false }
            return owner.hasPrefix("first")
        }
        slow.release.signal()
        let report = try await running.get()
        #expect(report.copiedToContainer == 1)
        #expect(lockOwner(fileSystem) == nil, "released at the end")
    }

    /// Starts `work` on the engine's executor; `get()` awaits its result without holding a thread.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        BlockingExecutor.shared.execute { result.finish(Result { try work() }) }
        return result
    }

    /// Polls `condition` every 50 ms for up to a minute of real time.
    @discardableResult
    func waitUntil(_ condition: @Sendable () -> Bool) async throws -> Bool {
        for _ in 0..<1200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    func heartbeat(_ fileSystem: InMemoryFileSystem) -> Double? {
        guard let data = try? fileSystem.read(from: lockURL),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["heartbeat"] as? Double
    }

    @Test("an expired lock renewed by its owner just before the takeover is given back, and this run refused")
    func takeoverRace() throws {
        let fileSystem = try setUp()
        let expired = Fixtures.lockRecord(owner: "crashed", heartbeat: Date().addingTimeInterval(-3600))
        try fileSystem.write(Data(expired.utf8), to: lockURL)
        let fresh = Fixtures.lockRecord(owner: "fresh", heartbeat: Date())
        let racer = FaultInjectingFileSystem(wrapping: fileSystem)
        let lockPath = lockURL.path
        let lock = lockURL
        // Between reading the expired record and moving it aside, another run renews the lock.
        racer.addRule(
            .calls(
                where: { operation, url in
                    if operation == .moveItem, url?.path == lockPath {
                        try? fileSystem.write(Data(fresh.utf8), to: lock)
                    }
                    return false
                }, fail: .ioError))
        let engine = SyncEngine(directories: racer, files: fileSystem, owner: "late")
        #expect(throws: SyncError.lockHeld(owner: "fresh")) {
            try engine.run(local: local, container: container, stateDirectory: state)
        }
        #expect(try fileSystem.read(from: lockURL) == Data(fresh.utf8))
        #expect(!fileSystem.fileExists(at: container.appending(path: "a.txt")), "nothing synced")
    }

    @Test("an expired lock is taken over when nobody renews it")
    func takeover() throws {
        let fileSystem = try setUp()
        let expired = Fixtures.lockRecord(owner: "crashed", heartbeat: Date().addingTimeInterval(-3600))
        try fileSystem.write(Data(expired.utf8), to: lockURL)
        let report = try SyncEngine(directories: fileSystem, files: fileSystem, owner: "next")
            .run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(lockOwner(fileSystem) == nil)
    }
}

/// Forwards every call; the first listing of one folder waits until `release` is signalled.
private final class SlowFirstListing: DirectoryAccessorProviding {
    let base: InMemoryFileSystem
    let slowPath: String
    let waited = LockedValue(false)
    /// Set when the slow listing begins.
    let started = LockedValue(false)
    /// Lets the slow listing finish.
    let release = DispatchSemaphore(value: 0)

    init(base: InMemoryFileSystem, slowPath: String) {
        self.base = base
        self.slowPath = slowPath
    }

    func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        if url.path == slowPath,
            !waited.withLock({ done in
                defer { done = true }
                return done
            })
        {
            started.withLock { $0 = true }
            release.wait()
        }
        return try base.contentsOfDirectory(at: url)
    }
    func metadata(at url: URL) throws -> FileMetadata { try base.metadata(at: url) }
    func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        try base.createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories)
    }
    func removeItem(at url: URL, recursively: Bool) throws { try base.removeItem(at: url, recursively: recursively) }
    func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        try base.moveItem(at: source, to: destination, replacingExisting: replacingExisting)
    }
    func copyItem(at source: URL, to destination: URL) throws { try base.copyItem(at: source, to: destination) }
    func linkItem(at source: URL, to destination: URL) throws { try base.linkItem(at: source, to: destination) }
    func synchronizeFile(at url: URL) throws { try base.synchronizeFile(at: url) }
    func synchronizeDirectory(at url: URL) throws { try base.synchronizeDirectory(at: url) }
    func setPermissions(_ permissions: UInt16, at url: URL) throws { try base.setPermissions(permissions, at: url) }
    func setModificationDate(_ date: Date, at url: URL) throws { try base.setModificationDate(date, at: url) }
}

/// The result of work on a thread of its own, awaited without blocking the awaiting task's thread.
final class ThreadResult<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = LockedValue(State())

    func finish(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    func get() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<T, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
