import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// The heartbeat on a folder container reads the lock before it renews it: a lock that is gone or
/// is another run's means the lock was lost (exit 4), but one that cannot be read is the run's
/// I/O error as it is (exit 5), never "another sync is running".
@Suite struct LockHeartbeatReadTests {
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    var lockURL: URL { container.appending(path: ".seams-lock") }

    func heldLock() throws -> (InMemoryFileSystem, FaultInjectingFileSystem, SyncLock) {
        let fileSystem = InMemoryFileSystem(containerURL: container)
        try fileSystem.createDirectory(at: container, withIntermediateDirectories: false)
        let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
        let replica = LocalFolderReplica(root: container, directories: boundary, files: boundary)
        let lock = SyncLock(
            in: replica, owner: "this run", runID: "r1", clock: { fileSystem.now }, expiry: 60,
            process: SyncProcess(host: "here", bootID: "boot", pid: 1, isRunning: { _ in true }))
        try lock.acquire()
        fileSystem.advanceTime(by: 30)
        return (fileSystem, boundary, lock)
    }

    @Test("a lock that cannot be read at the heartbeat ends the run with that read error, and is left as it was")
    func unreadableLockIsAnIOError() throws {
        let (fileSystem, boundary, lock) = try heldLock()
        let before = try fileSystem.read(from: lockURL)
        boundary.addRule(.operation(.read, at: lockURL, fails: .ioError))
        do {
            try lock.heartbeat()
            Issue.record("the heartbeat succeeded without reading the lock")
        } catch SyncError.readFailed(let url, let underlying) {
            #expect(url.standardizedFileURL.path == lockURL.path)
            #expect(underlying.posixCode == .EIO, "\(underlying)")
        }
        #expect(try fileSystem.read(from: lockURL) == before)
    }

    @Test(
        "a lock removed or replaced by another run's is lost at the heartbeat: lockHeld, with the other owner when readable"
    )
    func lostLockIsHeld() throws {
        let (fileSystem, _, lock) = try heldLock()
        try fileSystem.removeItem(at: lockURL, recursively: false)
        #expect(throws: SyncError.lockHeld(owner: "unknown")) { try lock.heartbeat() }
        try fileSystem.write(
            Data(Fixtures.lockRecord(owner: "another run", heartbeat: fileSystem.now).utf8), to: lockURL)
        fileSystem.advanceTime(by: 30)
        #expect(throws: SyncError.lockHeld(owner: "another run")) { try lock.heartbeat() }
    }
}
