import Foundation
import Seams
import SeamsSync
import SeamsTesting
import Synchronization
import Testing

/// The container lock under real time: a long run keeps it, a takeover race gives it back.
@Suite struct SyncLockTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)
    var lockURL: URL { container.appending(path: ".seams-lock") }

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] { try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false) }
        try fileSystem.write(Data("1".utf8), to: local.appending(path: "a.txt"))
        return fileSystem
    }

    func lockOwner(_ fileSystem: InMemoryFileSystem) -> String? {
        guard let data = try? fileSystem.read(from: lockURL),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["owner"] as? String
    }

    @Test("a scan longer than the lock's expiry keeps the lock: the background heartbeat refreshes it")
    func longScanKeepsLock() async throws {
        let fileSystem = try setUp()
        // The first listing of the local folder takes 7 s; the lock expires after 3 s without a beat.
        // (A wrapper of its own: a fault rule's predicate runs under the wrapper's lock and would
        // block the heartbeat too.)
        let slow = SlowFirstListing(base: fileSystem, slowPath: local.path, seconds: 7)
        let options = {
            var options = SyncOptions()
            options.lockExpiry = 3
            return options
        }()
        let first = SyncEngine(directories: slow, files: fileSystem, owner: "first", scansConcurrently: false)
        let (local, container, state) = (local, container, state)
        let running = Task.detached { try first.run(local: local, container: container, stateDirectory: state, options: options) }
        // Wait until the first run holds the lock and sits in its slow listing, however long a
        // loaded machine takes to get there; then let the lock age past its expiry.
        for _ in 0..<600 where !slow.started.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(slow.started.withLock { $0 })
        try await Task.sleep(for: .seconds(4))
        let second = SyncEngine(directories: fileSystem, files: fileSystem, owner: "second")
        #expect {
            try second.run(local: local, container: container, stateDirectory: state, options: options)
        } throws: { error in
            guard case SyncError.lockHeld(let owner) = error else { return false }
            return owner.hasPrefix("first")
        }
        let report = try await running.value
        #expect(report.copiedToContainer == 1)
        #expect(lockOwner(fileSystem) == nil, "released at the end")
    }

    @Test("an expired lock renewed by its owner just before the takeover is given back, and this run refused")
    func takeoverRace() throws {
        let fileSystem = try setUp()
        let expired = #"{"owner":"crashed","heartbeat":\#(Date().timeIntervalSince1970 - 3600)}"#
        try fileSystem.write(Data(expired.utf8), to: lockURL)
        let fresh = #"{"owner":"fresh","heartbeat":\#(Date().timeIntervalSince1970)}"#
        let racer = FaultInjectingFileSystem(wrapping: fileSystem)
        let lockPath = lockURL.path
        let lock = lockURL
        // Between reading the expired record and moving it aside, another run renews the lock.
        racer.addRule(.calls(where: { operation, url in
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
        let expired = #"{"owner":"crashed","heartbeat":\#(Date().timeIntervalSince1970 - 3600)}"#
        try fileSystem.write(Data(expired.utf8), to: lockURL)
        let report = try SyncEngine(directories: fileSystem, files: fileSystem, owner: "next")
            .run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(lockOwner(fileSystem) == nil)
    }
}

/// Forwards every call; the first listing of one folder sleeps first.
private final class SlowFirstListing: DirectoryAccessorProviding {
    let base: InMemoryFileSystem
    let slowPath: String
    let seconds: TimeInterval
    let slept = Mutex(false)
    /// Set when the slow listing begins.
    let started = Mutex(false)

    init(base: InMemoryFileSystem, slowPath: String, seconds: TimeInterval) {
        self.base = base
        self.slowPath = slowPath
        self.seconds = seconds
    }

    func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        if url.path == slowPath, !slept.withLock({ done in defer { done = true }; return done }) {
            started.withLock { $0 = true }
            Thread.sleep(forTimeInterval: seconds)
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
