import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A run that crashes between writing the new archive's temp file and renaming it into place
/// leaves `.seams-tmp-archive-pair-<hash>-<run>` in the state folder; the next run of the pair,
/// holding the lock, removes it. (The crash suite checks the same after a crash at every call.)
@Suite struct ArchiveLeftoverTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let otherContainer = URL(filePath: "/other", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container, otherContainer] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        try fileSystem.write(Data("1".utf8), to: local.appending(path: "a.txt"))
        return fileSystem
    }

    @discardableResult
    func run(
        _ fileSystem: InMemoryFileSystem, container: URL? = nil, dryRun: Bool = false, runID: String = "next"
    ) throws -> SyncReport {
        var options = SyncOptions()
        options.dryRun = dryRun
        return try SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", runID: { runID }
        )
        .run(local: local, container: container ?? self.container, stateDirectory: state, options: options)
    }

    /// The names in the state folder.
    func stateNames(_ fileSystem: InMemoryFileSystem) throws -> Set<String> {
        Set(try fileSystem.contentsOfDirectory(at: state).map(\.name))
    }

    /// `pair-<hash>` of the one pair synced so far.
    func pairStem(_ fileSystem: InMemoryFileSystem) throws -> String {
        let names = try stateNames(fileSystem).filter { $0.hasPrefix("pair-") }
        try #require(names.count == 1, "\(names)")
        return URL(filePath: names.first!).deletingPathExtension().lastPathComponent
    }

    @Test("the next run removes its pair's leftover temp archives, and nothing else")
    func removesOwnLeftovers() throws {
        let fileSystem = try setUp()
        try run(fileSystem, runID: "first")
        let stem = try pairStem(fileSystem)
        let ownLeftovers = [".seams-tmp-archive-\(stem)-crashed1", ".seams-tmp-archive-\(stem)-crashed2"]
        let kept = [
            ".seams-tmp-archive-pair-0123456789abcdef-running",  // another pair's commit, perhaps under way
            "notes.txt",  // not ours at all
        ]
        for name in ownLeftovers + kept {
            try fileSystem.write(Data("torn".utf8), to: state.appending(path: name))
        }
        let folder = ".seams-tmp-archive-\(stem)-folder"  // a folder is never a commit's temp file
        try fileSystem.createDirectory(at: state.appending(path: folder), withIntermediateDirectories: false)
        let before = try stateNames(fileSystem)

        try run(fileSystem)

        #expect(try stateNames(fileSystem) == before.subtracting(ownLeftovers))
        for name in kept { #expect(try fileSystem.read(from: state.appending(path: name)) == Data("torn".utf8)) }
    }

    /// The pair synced once, and a temp archive of it left as by a crashed commit.
    func syncedWithLeftover() throws -> (InMemoryFileSystem, leftover: URL) {
        let fileSystem = try setUp()
        try run(fileSystem, runID: "first")
        let leftover = state.appending(path: ".seams-tmp-archive-\(try pairStem(fileSystem))-crashed")
        try fileSystem.write(Data("torn".utf8), to: leftover)
        return (fileSystem, leftover)
    }

    @Test("a dry run removes no leftover (it takes no lock and changes nothing)")
    func dryRunKeepsLeftovers() throws {
        let (fileSystem, leftover) = try syncedWithLeftover()
        try run(fileSystem, dryRun: true)
        #expect(fileSystem.fileExists(at: leftover))
        try run(fileSystem)
        #expect(!fileSystem.fileExists(at: leftover))
    }

    @Test("a run refused by the lock removes no leftover")
    func lockedRunKeepsLeftovers() throws {
        let (fileSystem, leftover) = try syncedWithLeftover()
        let lock = Fixtures.lockRecord(owner: "other", heartbeat: fileSystem.now)
        try fileSystem.write(Data(lock.utf8), to: container.appending(path: ".seams-lock"))
        #expect(throws: SyncError.lockHeld(owner: "other")) { try run(fileSystem) }
        #expect(fileSystem.fileExists(at: leftover))
    }

    @Test("two pairs share a state folder: a run of one leaves the other's temp archives alone")
    func otherPairUntouched() throws {
        let fileSystem = try setUp()
        try run(fileSystem, runID: "first")
        let stem = try pairStem(fileSystem)
        try run(fileSystem, container: otherContainer, runID: "first")
        let stems = try stateNames(fileSystem).filter { $0.hasPrefix("pair-") }
            .map { URL(filePath: $0).deletingPathExtension().lastPathComponent }
        let otherStem = try #require(stems.first { $0 != stem })
        let mine = state.appending(path: ".seams-tmp-archive-\(stem)-crashed")
        let theirs = state.appending(path: ".seams-tmp-archive-\(otherStem)-crashed")
        for url in [mine, theirs] { try fileSystem.write(Data("torn".utf8), to: url) }
        try run(fileSystem)
        #expect(!fileSystem.fileExists(at: mine))
        #expect(fileSystem.fileExists(at: theirs))
        try run(fileSystem, container: otherContainer)
        #expect(!fileSystem.fileExists(at: theirs))
    }

    @Test("a crash at the rename of the new archive leaves its temp file; the next run removes it")
    func realCrashLeftover() throws {
        /// The pair synced once, then edited, so the next run commits a new archive.
        func edited() throws -> InMemoryFileSystem {
            let fileSystem = try setUp()
            try run(fileSystem, runID: "first")
            fileSystem.advanceTime(by: 10)
            try fileSystem.write(Data("22".utf8), to: local.appending(path: "a.txt"))
            return fileSystem
        }
        func crashingRun(_ fileSystem: FaultInjectingFileSystem, clock: InMemoryFileSystem) throws {
            _ = try SyncEngine(
                directories: fileSystem, files: fileSystem, clock: { clock.now }, owner: "test", runID: { "crashed" }
            )
            .run(local: local, container: container, stateDirectory: state)
        }
        // Which call renames the temp archive into place (every call before it is the same set
        // on an identical file system, whatever order the scans make them in).
        let counting = try edited()
        let counter = FaultInjectingFileSystem(wrapping: counting)
        try crashingRun(counter, clock: counting)
        let rename = try #require(
            counter.calls.firstIndex {
                $0.operation == .moveItem && $0.url?.lastPathComponent.hasPrefix(".seams-tmp-archive-") == true
            })

        let fileSystem = try edited()
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem)
        faulty.scheduleCrash(atCall: rename + 1)
        #expect(throws: (any Error).self) { try crashingRun(faulty, clock: fileSystem) }
        #expect(faulty.hasCrashed)
        let leftover = ".seams-tmp-archive-\(try pairStem(fileSystem))-crashed"
        #expect(try stateNames(fileSystem).contains(leftover))

        fileSystem.advanceTime(by: 600)  // the crashed run's lock expires
        try run(fileSystem)
        #expect(!(try stateNames(fileSystem).contains(leftover)))
    }
}
