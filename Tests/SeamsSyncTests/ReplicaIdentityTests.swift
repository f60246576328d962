import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// The pair knows its container: another disk at the same place, a container emptied and
/// refilled, or one restored from an older backup is synced as a new pair, never read as
/// "the files added since were deleted there".
@Suite struct ReplicaIdentityTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        for name in ["a", "b", "c"] { try write(fileSystem, name, "\(name).txt", in: local) }
        return fileSystem
    }

    @discardableResult
    func run(_ fileSystem: InMemoryFileSystem, local: URL? = nil, state: URL? = nil) throws -> SyncReport {
        fileSystem.advanceTime(by: 1)
        return try SyncEngine(directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test")
            .run(local: local ?? self.local, container: container, stateDirectory: state ?? self.state)
    }

    func write(_ fileSystem: InMemoryFileSystem, _ text: String, _ path: String, in root: URL) throws {
        try fileSystem.write(Data(text.utf8), to: root.appending(path: path))
    }

    /// The user's files in `root`, by name.
    func files(_ fileSystem: InMemoryFileSystem, _ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for entry in try fileSystem.contentsOfDirectory(at: root) where !entry.name.hasPrefix(".seams") {
            result[entry.name] = String(
                decoding: try fileSystem.read(from: root.appending(path: entry.name)), as: UTF8.self)
        }
        return result
    }

    func trashIsEmpty(_ fileSystem: InMemoryFileSystem, _ root: URL) -> Bool {
        ((try? fileSystem.contentsOfDirectory(at: root.appending(path: ".seams-trash"))) ?? []).isEmpty
    }

    func marker(_ fileSystem: InMemoryFileSystem) throws -> ReplicaIdentity? {
        guard
            case .marker(let identity) = try ReplicaMarker(
                replica: LocalFolderReplica(root: container, directories: fileSystem, files: fileSystem)
            ).read()
        else { return nil }
        return identity
    }

    /// Empties the container (its marker too) and fills it with `files`.
    func replaceContainer(_ fileSystem: InMemoryFileSystem, with files: [String: String]) throws {
        try fileSystem.removeItem(at: container, recursively: true)
        try fileSystem.createDirectory(at: container, withIntermediateDirectories: false)
        for (name, text) in files { try write(fileSystem, text, name, in: container) }
    }

    @Test("each commit writes the container's identity and a generation one higher, and the state records them")
    func generations() throws {
        let fileSystem = try setUp()
        try run(fileSystem)
        let first = try #require(try marker(fileSystem))
        #expect(first.generation == 1)
        try write(fileSystem, "d", "d.txt", in: local)
        try run(fileSystem)
        let second = try #require(try marker(fileSystem))
        #expect(second == ReplicaIdentity(id: first.id, generation: 2))
        let stored = try ArchiveStore(
            directories: fileSystem, files: fileSystem, stateDirectory: state, localRoot: local,
            containerRoot: container
        ).load(moveAside: false, now: fileSystem.now)
        #expect(stored.archive.replica == second)
        try run(fileSystem)
        #expect(try marker(fileSystem) == second, "a run that changes nothing commits nothing")
    }

    @Test("another disk mounted at the container's place: synced as a new pair, nothing deleted, both versions kept")
    func anotherContainer() throws {
        let fileSystem = try setUp()
        try run(fileSystem)
        // The other disk was synced once by another pair: it has a marker of its own.
        try replaceContainer(fileSystem, with: ["b.txt": "other disk's b", "x.txt": "x"])
        let elsewhere = URL(filePath: "/elsewhere", directoryHint: .isDirectory)
        try fileSystem.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        try run(fileSystem, local: elsewhere, state: URL(filePath: "/other-state"))
        let otherID = try #require(try marker(fileSystem)).id
        let report = try run(fileSystem)
        #expect(
            report.replicaMismatch?.contains("another one than this pair last synced with") == true, "\(report.summary)"
        )
        #expect(report.summary.contains("Synced as a new pair"))
        #expect(report.deletedLocal == 0 && report.deletedContainer == 0)
        #expect(trashIsEmpty(fileSystem, local) && trashIsEmpty(fileSystem, container))
        let localFiles = try files(fileSystem, local)
        #expect(localFiles["a.txt"] == "a" && localFiles["c.txt"] == "c" && localFiles["x.txt"] == "x")
        #expect(report.conflicts.map(\.path) == ["b.txt"], "both versions of b.txt are kept")
        #expect(localFiles.values.contains("b") && localFiles.values.contains("other disk's b"))
        #expect(try files(fileSystem, container) == localFiles)
        #expect(try marker(fileSystem)?.id == otherID, "the disk keeps its own identity")
        #expect(try run(fileSystem).replicaMismatch == nil, "from now on it is this pair's container")
    }

    @Test("another replica is known before the scan: its run reads what a new pair's run reads, no item twice")
    func mismatchKnownBeforeScan() throws {
        let refill = ["a.txt": "a", "b.txt": "another b", "y.txt": "y"]
        // The pair synced once; then the container was emptied and refilled.
        let synced = try setUp()
        try run(synced)
        try replaceContainer(synced, with: refill)
        // The same two trees as a pair that never synced.
        let fresh = InMemoryFileSystem()
        for folder in [local, container] { try fresh.createDirectory(at: folder, withIntermediateDirectories: false) }
        for name in ["a", "b", "c"] { try write(fresh, name, "\(name).txt", in: local) }
        fresh.advanceTime(by: 1)  // the refilled container is the newer side, as above
        for (name, text) in refill { try write(fresh, text, name, in: container) }

        func itemReads(_ base: InMemoryFileSystem) throws -> (reads: [String], report: SyncReport) {
            let recorded = FaultInjectingFileSystem(wrapping: base)
            base.advanceTime(by: 1)
            let report = try SyncEngine(
                directories: recorded, files: recorded, clock: { base.now }, owner: "test", runID: { "r" }
            )
            .run(local: local, container: container, stateDirectory: state)
            let calls = recorded.calls
            let marker = try #require(
                calls.firstIndex { $0.operation == .read && $0.url?.lastPathComponent == ".seams-replica" })
            let listing = try #require(calls.firstIndex { $0.operation == .contentsOfDirectory && $0.url == local })
            #expect(marker < listing, "the container's identity is read before either side is listed")
            // Metadata of the user's items read one by one (the tool's own `.seams` names aside).
            let reads = calls.filter { call in
                guard call.operation == .metadata, let url = call.url, !url.path.contains("/.seams") else {
                    return false
                }
                return url.path.hasPrefix(local.path + "/") || url.path.hasPrefix(container.path + "/")
            }
            return (reads.map { "\($0.url!.path)" }.sorted(), report)  // copies go two at once: in either order
        }
        let mismatched = try itemReads(synced)
        let new = try itemReads(fresh)
        #expect(mismatched.report.replicaMismatch != nil && new.report.replicaMismatch == nil)
        #expect(mismatched.reads == new.reads, "no item's metadata read a second time after the scan")
        #expect(mismatched.report.conflicts.map(\.path) == ["b.txt"] && new.report.conflicts.map(\.path) == ["b.txt"])
        #expect(try files(synced, local) == files(fresh, local))
    }

    @Test("a container emptied and refilled (no marker): synced as a new pair, nothing deleted")
    func emptiedAndRefilled() throws {
        let fileSystem = try setUp()
        try run(fileSystem)
        try replaceContainer(fileSystem, with: ["a.txt": "a", "y.txt": "y"])
        let report = try run(fileSystem)
        #expect(report.replicaMismatch?.contains("has no .seams-replica") == true, "\(report.summary)")
        #expect(report.deletedLocal == 0 && trashIsEmpty(fileSystem, local))
        #expect(try files(fileSystem, local) == ["a.txt": "a", "b.txt": "b", "c.txt": "c", "y.txt": "y"])
        #expect(try files(fileSystem, container) == files(fileSystem, local))
    }

    @Test("a container restored from an older backup: the files added since are not deleted, they go back to it")
    func restoredFromBackup() throws {
        let fileSystem = try setUp()
        try run(fileSystem)
        let backup = URL(filePath: "/backup", directoryHint: .isDirectory)
        try fileSystem.copyItem(at: container, to: backup)
        try write(fileSystem, "new", "new.txt", in: local)
        try write(fileSystem, "b edited", "b.txt", in: local)
        try run(fileSystem)
        try fileSystem.removeItem(at: container, recursively: true)
        try fileSystem.copyItem(at: backup, to: container)
        let report = try run(fileSystem)
        #expect(report.replicaMismatch?.contains("older copy") == true, "\(report.summary)")
        #expect(
            report.deletedLocal == 0 && trashIsEmpty(fileSystem, local),
            "new.txt is not read as deleted in the container")
        let localFiles = try files(fileSystem, local)
        #expect(localFiles["new.txt"] == "new")
        #expect(
            localFiles.values.contains("b edited") && localFiles.values.contains("b"),
            "the backup's b.txt is kept beside the edit")
        #expect(try files(fileSystem, container) == localFiles)
    }

    @Test("two pairs share one container: each sees the other's generations, and deletions still propagate")
    func twoPairs() throws {
        let fileSystem = try setUp()
        let laptop = URL(filePath: "/laptop", directoryHint: .isDirectory)
        let laptopState = URL(filePath: "/laptop-state", directoryHint: .isDirectory)
        try fileSystem.createDirectory(at: laptop, withIntermediateDirectories: false)
        try run(fileSystem)
        try run(fileSystem, local: laptop, state: laptopState)
        #expect(try files(fileSystem, laptop).keys.sorted() == ["a.txt", "b.txt", "c.txt"])
        try fileSystem.removeItem(at: local.appending(path: "a.txt"), recursively: false)
        try run(fileSystem)
        let report = try run(fileSystem, local: laptop, state: laptopState)
        #expect(report.replicaMismatch == nil)
        #expect(report.deletedLocal == 1, "the deletion reached the laptop")
        #expect(try files(fileSystem, laptop).keys.sorted() == ["b.txt", "c.txt"])
    }

    @Test("a crash after the marker's write and before the state's commit: the next run still knows its container")
    func crashBetweenMarkerAndState() throws {
        let fileSystem = try setUp()
        try run(fileSystem)
        try fileSystem.removeItem(at: local.appending(path: "a.txt"), recursively: false)
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem)
        faulty.addRule(
            .calls(
                where: { operation, url in
                    operation == .moveItem && url?.path.hasPrefix("/state/") == true
                }, fail: .ioError))
        #expect(throws: SyncError.self) {
            try SyncEngine(directories: faulty, files: faulty, clock: { fileSystem.now }, owner: "test")
                .run(local: local, container: container, stateDirectory: state)
        }
        #expect(try marker(fileSystem)?.generation == 2, "the marker was written first")
        let report = try run(fileSystem)
        #expect(report.replicaMismatch == nil, "a marker ahead of the state matches")
        #expect(!(try files(fileSystem, container)).keys.contains("a.txt"), "the deletion stands")
    }

    @Test("the marker and the tool's other names are never synced or reported")
    func markerNotSynced() throws {
        let fileSystem = try setUp()
        let report = try run(fileSystem)
        #expect(!fileSystem.fileExists(at: local.appending(path: ".seams-replica")))
        #expect(report.skipped.isEmpty)
    }

    @Test(
        "ReplicaCheck: every case of state and marker",
        arguments: [
            (nil, ReplicaMarker.Found.missing, false),
            (ReplicaIdentity(id: "a", generation: 3), .marker(ReplicaIdentity(id: "a", generation: 3)), false),
            (ReplicaIdentity(id: "a", generation: 3), .marker(ReplicaIdentity(id: "a", generation: 9)), false),
            (ReplicaIdentity(id: "a", generation: 3), .marker(ReplicaIdentity(id: "a", generation: 2)), true),
            (ReplicaIdentity(id: "a", generation: 3), .marker(ReplicaIdentity(id: "b", generation: 3)), true),
            (ReplicaIdentity(id: "a", generation: 3), .missing, true),
            (ReplicaIdentity(id: "a", generation: 3), .unreadable, true),
        ] as [(ReplicaIdentity?, ReplicaMarker.Found, Bool)])
    func check(known: ReplicaIdentity?, found: ReplicaMarker.Found, mismatch: Bool) {
        let archive = Archive(localRoot: "/l", containerRoot: "/c", replica: known)
        let check = ReplicaCheck(archive: archive, found: found, newID: { "fresh" })
        #expect((check.mismatch != nil) == mismatch, "\(check)")
        var seen: ReplicaIdentity?
        if case .marker(let identity) = found { seen = identity }
        #expect(check.next.id == seen?.id ?? known?.id ?? "fresh")
        #expect(check.next.generation > seen?.generation ?? 0)
        if !mismatch, let known { #expect(check.next.generation > known.generation) }
    }
}
