import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// Whose lock it is decides how it is taken over: a dead process of this host at once, another
/// host's only after watching it unchanged for the expiry, by this process's own measure.
@Suite struct LockOwnerTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)
    var lockURL: URL { container.appending(path: ".seams-lock") }
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A pair with one local file, and the lock `record` already in the container.
    func setUp(lock record: [String: Any]?, raw: Data? = nil) throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        try fileSystem.write(Data("1".utf8), to: local.appending(path: "a.txt"))
        if let record { try fileSystem.write(try JSONSerialization.data(withJSONObject: record), to: lockURL) }
        if let raw { try fileSystem.write(raw, to: lockURL) }
        return fileSystem
    }

    /// A record as another run writes it.
    func record(owner: String, heartbeat: Date, host: String, boot: String, pid: Int32) -> [String: Any] {
        ["owner": owner, "heartbeat": heartbeat.timeIntervalSince1970, "host": host, "boot": boot, "pid": pid]
    }

    /// The time a run spent watching, and the fake clock it moved.
    final class Watch: Sendable {
        let now = LockedValue(LockOwnerTests.start)
        let waited = LockedValue<TimeInterval>(0)
        /// Runs at each wait, with the total waited so far.
        let onWait: @Sendable (TimeInterval) -> Void

        init(onWait: @escaping @Sendable (TimeInterval) -> Void = { _ in }) { self.onWait = onWait }

        var clock: @Sendable () -> Date { { self.now.withLock { $0 } } }
        var wait: @Sendable (TimeInterval) -> Void {
            { seconds in
                let total = self.waited.withLock {
                    $0 += seconds
                    return $0
                }
                self.now.withLock { $0 = $0.addingTimeInterval(seconds) }
                self.onWait(total)
            }
        }
    }

    func engine(_ fileSystem: InMemoryFileSystem, _ watch: Watch, running: @escaping @Sendable (Int32) -> Bool)
        -> SyncEngine
    {
        SyncEngine(
            directories: fileSystem, files: fileSystem, clock: watch.clock, owner: "this run",
            process: SyncProcess(host: "laptop", bootID: "boot-2", pid: 100, isRunning: running), lockWait: watch.wait)
    }

    @Test("a fresh lock left by a process of this host that no longer exists is taken over at once")
    func deadProcess() throws {
        let fileSystem = try setUp(
            lock: record(owner: "killed", heartbeat: Self.start, host: "laptop", boot: "boot-2", pid: 4242))
        let watch = Watch()
        let report = try engine(fileSystem, watch, running: { $0 != 4242 })
            .run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(watch.waited.withLock { $0 } == 0, "no waiting for a lock whose owner is known dead")
        #expect(!fileSystem.fileExists(at: lockURL), "released at the end")
    }

    @Test("a fresh lock of a live process of this host is refused at once, and left as it is")
    func liveProcess() throws {
        let fileSystem = try setUp(
            lock: record(owner: "busy", heartbeat: Self.start, host: "laptop", boot: "boot-2", pid: 4242))
        let before = try fileSystem.read(from: lockURL)
        let watch = Watch()
        #expect(throws: SyncError.lockHeld(owner: "busy")) {
            try engine(fileSystem, watch, running: { _ in true }).run(
                local: local, container: container, stateDirectory: state)
        }
        #expect(watch.waited.withLock { $0 } == 0)
        #expect(try fileSystem.read(from: lockURL) == before)
        #expect(!fileSystem.fileExists(at: container.appending(path: "a.txt")), "nothing was synced")
    }

    @Test("a lock of a live process of this host whose heartbeat is older than the expiry is taken over")
    func hungProcess() throws {
        let old = Self.start.addingTimeInterval(-61)
        let fileSystem = try setUp(
            lock: record(owner: "hung", heartbeat: old, host: "laptop", boot: "boot-2", pid: 4242))
        let report = try engine(fileSystem, Watch(), running: { _ in true }).run(
            local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
    }

    @Test("a lock written before this host's last boot is taken over at once, even if its process id is in use now")
    func earlierBoot() throws {
        let fileSystem = try setUp(
            lock: record(owner: "before reboot", heartbeat: Self.start, host: "laptop", boot: "boot-1", pid: 4242))
        let watch = Watch()
        let report = try engine(fileSystem, watch, running: { _ in true }).run(
            local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(watch.waited.withLock { $0 } == 0)
    }

    @Test(
        "another host's lock is taken over only after this run watched it unchanged for the expiry, whatever its clock says",
        arguments: [-1_000_000.0, 0, 1_000_000])
    func otherHostUnchanged(skew: TimeInterval) throws {
        let heartbeat = Self.start.addingTimeInterval(skew)
        let fileSystem = try setUp(
            lock: record(owner: "desktop run", heartbeat: heartbeat, host: "desktop", boot: "x", pid: 100))
        let watch = Watch()
        let report = try engine(
            fileSystem, watch,
            running: { _ in
                Issue.record("another host's pid was looked up here")
                return true
            }
        )
        .run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(watch.waited.withLock { $0 } >= SyncOptions().lockExpiry, "watched for the whole expiry")
    }

    @Test("another host's lock that changes while watched is refused, even with a heartbeat that looks a week old")
    func otherHostAlive() throws {
        let stale = Self.start.addingTimeInterval(-7 * 24 * 3600)
        let fileSystem = try setUp(
            lock: record(owner: "desktop run", heartbeat: stale, host: "desktop", boot: "x", pid: 7))
        let refreshed = try JSONSerialization.data(
            withJSONObject: record(
                owner: "desktop run", heartbeat: stale.addingTimeInterval(20), host: "desktop", boot: "x", pid: 7))
        let lockURL = lockURL
        let watch = Watch { waited in
            if waited >= 20, !((try? fileSystem.read(from: lockURL)) == refreshed) {
                try? fileSystem.write(refreshed, to: lockURL)  // the other host's heartbeat thread
            }
        }
        #expect(throws: SyncError.lockHeld(owner: "desktop run")) {
            try engine(fileSystem, watch, running: { _ in true }).run(
                local: local, container: container, stateDirectory: state)
        }
        #expect(watch.waited.withLock { $0 } < SyncOptions().lockExpiry)
        #expect(try fileSystem.read(from: lockURL) == refreshed, "the live lock is left in place")
    }

    @Test("an unreadable lock (torn, or not ours) is watched like another host's, then taken over")
    func unreadable() throws {
        let fileSystem = try setUp(lock: nil, raw: Data("{\"own".utf8))
        let watch = Watch()
        let report = try engine(fileSystem, watch, running: { _ in true }).run(
            local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(watch.waited.withLock { $0 } >= SyncOptions().lockExpiry)
    }

    @Test("the lock a run writes names its host, boot and process")
    func recordNamesOwner() throws {
        let fileSystem = try setUp(lock: nil)
        let seen = LockedValue<Data?>(nil)
        let lockURL = lockURL
        let engine = SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { Self.start }, owner: "this run",
            progress: { _ in
                if seen.withLock({ $0 == nil }), let data = try? fileSystem.read(from: lockURL) {
                    seen.withLock { $0 = data }
                }
            },
            process: SyncProcess(host: "laptop", bootID: "boot-2", pid: 321, isRunning: { _ in true }))
        _ = try engine.run(local: local, container: container, stateDirectory: state)
        let data = try #require(seen.withLock { $0 }, "the lock was in place while the run worked")
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(record["host"] as? String == "laptop")
        #expect(record["boot"] as? String == "boot-2")
        #expect(record["pid"] as? Int == 321)
        #expect((record["owner"] as? String)?.hasPrefix("this run") == true)
    }
}
