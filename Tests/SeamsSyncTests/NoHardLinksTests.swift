import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A container on FAT or exFAT (a USB stick): `link` answers EPERM there. The engine keeps every
/// guarantee without hard links; the crash suite runs every scenario this way too.
@Suite struct NoHardLinksTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    /// The fake, and the same fake seen through a boundary whose every `link` fails as on exFAT.
    func setUp() throws -> (InMemoryFileSystem, FaultInjectingFileSystem) {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        let noLinks = FaultInjectingFileSystem(wrapping: fileSystem)
        noLinks.addRule(.operation(.linkItem, fails: .hardLinksUnsupported))
        return (fileSystem, noLinks)
    }

    @discardableResult
    func run(_ fileSystem: InMemoryFileSystem, _ noLinks: FaultInjectingFileSystem) throws -> SyncReport {
        try SyncEngine(directories: noLinks, files: noLinks, clock: { fileSystem.now }, owner: "test")
            .run(local: local, container: container, stateDirectory: state)
    }

    func text(_ fileSystem: InMemoryFileSystem, _ url: URL) -> String? {
        (try? fileSystem.read(from: url)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The one file under this run's trash folder of `root` named `name`.
    func trashed(_ fileSystem: InMemoryFileSystem, _ name: String, in root: URL) throws -> URL? {
        let trash = root.appending(path: ".seams-trash")
        for run in try fileSystem.contentsOfDirectory(at: trash) {
            let url = trash.appending(path: run.name).appending(path: name)
            if fileSystem.fileExists(at: url) { return url }
        }
        return nil
    }

    @Test("a replaced version is copied into the trash and flushed before its path is replaced")
    func replacedVersionCopiedToTrash() throws {
        let (fileSystem, noLinks) = try setUp()
        try fileSystem.write(Data("old".utf8), to: local.appending(path: "a.txt"))
        try fileSystem.write(Data("keep".utf8), to: local.appending(path: "b.txt"))
        try run(fileSystem, noLinks)
        fileSystem.advanceTime(by: 10)
        try fileSystem.write(Data("new".utf8), to: local.appending(path: "a.txt"))
        try fileSystem.removeItem(at: container.appending(path: "b.txt"), recursively: false)
        fileSystem.resetCalls()

        let report = try run(fileSystem, noLinks)
        #expect(report.failures.isEmpty)
        #expect(text(fileSystem, container.appending(path: "a.txt")) == "new")
        let replaced = try #require(try trashed(fileSystem, "a.txt", in: container))
        #expect(text(fileSystem, replaced) == "old")
        let deleted = try #require(try trashed(fileSystem, "b.txt", in: local))
        #expect(text(fileSystem, deleted) == "keep")

        // Order on the disk: copy into the trash, flush that copy, only then the rename over a.txt.
        let calls = fileSystem.calls
        let target = container.appending(path: "a.txt").path
        let copied = try #require(
            calls.firstIndex { $0.operation == .copyItem && $0.destination?.path == replaced.path })
        let flushed = try #require(
            calls.firstIndex { $0.operation == .synchronizeFile && $0.url?.path == replaced.path })
        let renamed = try #require(calls.firstIndex { $0.operation == .moveItem && $0.destination?.path == target })
        #expect(calls[copied].url?.path == target)
        #expect(copied < flushed && flushed < renamed)
        #expect(!calls.contains { $0.operation == .linkItem }, "no link reached the file system")
    }

    @Test("the lock works without hard links: a live one refuses, an expired one is taken over, none is left")
    func lock() throws {
        let (fileSystem, noLinks) = try setUp()
        try fileSystem.write(Data("1".utf8), to: local.appending(path: "a.txt"))
        let lockURL = container.appending(path: ".seams-lock")
        let lock = Fixtures.lockRecord(owner: "other", heartbeat: fileSystem.now)
        try fileSystem.write(Data(lock.utf8), to: lockURL)
        #expect(throws: SyncError.lockHeld(owner: "other")) { try run(fileSystem, noLinks) }
        #expect(text(fileSystem, lockURL) == lock, "the live lock is untouched")
        fileSystem.advanceTime(by: 120)
        try run(fileSystem, noLinks)
        #expect(text(fileSystem, container.appending(path: "a.txt")) == "1")
        #expect(!fileSystem.fileExists(at: lockURL))
        #expect(
            try fileSystem.contentsOfDirectory(at: container).map(\.name).allSatisfy { !$0.hasPrefix(".seams-tmp") })
    }

    @Test("while a run holds the lock, a second run is refused")
    func heldLockRefusesSecondRun() throws {
        let (fileSystem, noLinks) = try setUp()
        try fileSystem.write(Data("1".utf8), to: local.appending(path: "a.txt"))
        // The first run stops inside its scan of the container; a second run starts meanwhile.
        let second = FaultInjectingFileSystem(wrapping: fileSystem)
        second.addRule(.operation(.linkItem, fails: .hardLinksUnsupported))
        let secondResult = LockedValue<(any Error)?>(nil)
        noLinks.addRule(
            .calls(
                where: { operation, url in
                    if operation == .contentsOfDirectory, url?.path == container.path {
                        let result = Result { try run(fileSystem, second) }
                        if case .failure(let error) = result { secondResult.withLock { $0 = error } }
                    }
                    return false
                }, fail: .ioError))
        try run(fileSystem, noLinks)
        let error = try #require(secondResult.withLock { $0 })
        guard case .lockHeld(let owner) = error as? SyncError else {
            Issue.record("expected lockHeld, got \(error)")
            return
        }
        #expect(owner.hasPrefix("test"))
        #expect(text(fileSystem, container.appending(path: "a.txt")) == "1")
    }
}
