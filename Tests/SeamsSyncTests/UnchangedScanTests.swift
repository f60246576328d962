import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A scan compared with the archive keeps unchanged files and folders by path alone; the engine
/// reads again only what the plan must decide, and a run loses nothing through it.
@Suite struct UnchangedScanTests {
    typealias F = Fixtures
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        return fileSystem
    }

    /// Writes `text` at `path` under `root`, making the folders on the way.
    func write(_ fileSystem: InMemoryFileSystem, _ text: String, _ path: String, in root: URL) throws {
        let url = root.appending(path: path)
        try fileSystem.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileSystem.write(Data(text.utf8), to: url)
    }

    func text(_ fileSystem: InMemoryFileSystem, _ path: String, in root: URL) -> String? {
        (try? fileSystem.read(from: root.appending(path: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    func engine(_ fileSystem: InMemoryFileSystem, directories: (any DirectoryAccessorProviding)? = nil) -> SyncEngine {
        SyncEngine(
            directories: directories ?? fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test",
            scansConcurrently: false)
    }

    /// The `metadata` calls a run made on the two synced folders (not the state, lock or marker).
    func metadataCalls(_ calls: [FileSystemCall]) -> [String] {
        calls.compactMap { call in
            guard call.operation == .metadata, let path = call.url?.path,
                path.hasPrefix(local.path + "/") || path.hasPrefix(container.path + "/"),
                !path.contains("/.seams"), !path.contains("/..")  // not the folder-overlap check's walk up
            else { return nil }
            return path
        }
    }

    @Test("the scan keeps unchanged files and folders by path; changed, new and special items and links with metadata")
    func scanSplitsUnchanged() throws {
        let fileSystem = try setUp()
        for name in ["same.txt", "d/same.txt", "edited.txt"] { try write(fileSystem, "v1", name, in: local) }
        try fileSystem.createSymbolicLink(at: local.appending(path: "link"), withDestination: "same.txt")
        var archive = Archive(localRoot: local.path, containerRoot: container.path)
        for entry in try Scanner(directories: fileSystem).scan(local).items {
            archive.entries[entry.key] = Archive.Entry(
                kind: entry.value.kind, local: entry.value.stamp, container: Stamp(size: 0, modified: 0))
        }
        fileSystem.advanceTime(by: 5)
        try write(fileSystem, "v2, longer", "edited.txt", in: local)
        try write(fileSystem, "new", "d/new.txt", in: local)

        let snapshot = try Scanner(directories: fileSystem).scan(local, comparedWith: archive, side: .local)
        #expect(Set(snapshot.unchanged) == Set(["same.txt", "d", "d/same.txt"].map(SyncPath.init)))
        #expect(
            Set(snapshot.items.keys) == Set(["edited.txt", "d/new.txt", "link"].map(SyncPath.init)),
            "a link always keeps its metadata")
        #expect(snapshot.count == 6)
        #expect(
            snapshot.contains(SyncPath("d/same.txt")) && snapshot.contains(SyncPath("link"))
                && !snapshot.contains(SyncPath("gone")))
        // Compared on the other side, whose stamps the archive holds as zero: nothing file-like matches.
        let asContainer = try Scanner(directories: fileSystem).scan(local, comparedWith: archive, side: .container)
        #expect(asContainer.unchanged == [SyncPath("d")], "a folder matches by kind alone")
        // Without an archive every item keeps its metadata, as before.
        let plain = try Scanner(directories: fileSystem).scan(local)
        #expect(plain.unchanged.isEmpty && plain.items.count == 6)
    }

    @Test(
        "a scanner that keeps listings keeps those of folders with unchanged items, in the order listed, up to its number of items"
    )
    func scanKeepsListings() throws {
        let fileSystem = try setUp()
        for name in ["a/1.txt", "a/2.txt", "b/1.txt", "c/1.txt", "c/2.txt", "c/3.txt"] {
            try write(fileSystem, "v1", name, in: local)
        }
        var archive = Archive(localRoot: local.path, containerRoot: container.path)
        for entry in try Scanner(directories: fileSystem).scan(local).items where !entry.key.rawValue.hasPrefix("b") {
            archive.entries[entry.key] = Archive.Entry(
                kind: entry.value.kind, local: entry.value.stamp, container: Stamp(size: 0, modified: 0))
        }
        let all = try Scanner(directories: fileSystem, keptItems: 100).scan(local, comparedWith: archive, side: .local)
        // The root (a and c unchanged) and a and c; not b, whose items are all new.
        #expect(Set(all.listings.keys) == [nil, SyncPath("a"), SyncPath("c")])
        #expect(all.listings[SyncPath("c")]?.map(\.name).sorted() == ["1.txt", "2.txt", "3.txt"])
        #expect(all.keptItems == 3 + 2 + 3)
        // Up to 5 items: the root's 3, then a's 2; c's 3 would pass the bound.
        let some = try Scanner(directories: fileSystem, keptItems: 5).scan(local, comparedWith: archive, side: .local)
        #expect(Set(some.listings.keys) == [nil, SyncPath("a")] && some.keptItems == 5)
        let none = try Scanner(directories: fileSystem).scan(local, comparedWith: archive, side: .local)
        #expect(none.listings.isEmpty && none.keptItems == 0)
    }

    @Test("completing reads the paths unchanged on one side only, in order; a path gone since the scan leaves")
    func completeReadsOneSidedPaths() throws {
        var local = Snapshot()
        var container = Snapshot()
        local.unchanged = UnchangedPaths(["both", "b-only-here", "a-only-here", "gone"].map(SyncPath.init))
        container.unchanged = UnchangedPaths(["both", "there"].map(SyncPath.init))
        container.items[SyncPath("a-only-here")] = F.file(3, at: 9)
        var reads: [String] = []
        let count = Snapshot.complete(&local, &container) { path, side in
            reads.append("\(side) \(path.rawValue)")
            return path.rawValue == "gone" ? nil : F.file(1, at: 1)
        }
        #expect(count == 4)
        #expect(reads == ["local a-only-here", "local b-only-here", "local gone", "container there"])
        #expect(local.unchanged == [SyncPath("both")] && container.unchanged == [SyncPath("both")])
        #expect(local.items[SyncPath("a-only-here")] == F.file(1, at: 1))
        #expect(!local.contains(SyncPath("gone")), "gone since the scan: not in the snapshot")
        #expect(container.items[SyncPath("there")] == F.file(1, at: 1))

        var again = 0
        Snapshot.complete(&local, &container) { _, _ in
            again += 1
            return F.folder()
        }
        #expect(again == 0, "unchanged on both sides now: nothing left to read")
    }

    @Test("a path unchanged on one side alone is never taken as deleted when its metadata was not read")
    func incompleteIsSkipped() {
        var local = Snapshot()
        local.unchanged = [SyncPath("a")]
        local.items[SyncPath("b")] = F.file(2, at: 5)
        var container = Snapshot()
        container.unchanged = [SyncPath("b")]
        let plan = Reconciler().plan(
            archive: F.archive(["a": F.file(1, at: 1), "b": F.file(1, at: 1)]), local: local, container: container)
        #expect(plan.paths == [SyncPath("a"), SyncPath("b")], "one row each")
        #expect(plan.decisions[SyncPath("a")] == Reconciler.incomplete)
        #expect(
            plan.decisions[SyncPath("b")] == Reconciler.incomplete,
            "an edit facing an unread side is not copied over it")
        #expect(plan.deletions(on: .local) == 0 && plan.deletions(on: .container) == 0)
    }

    @Test("a run with no change reads no item again; one edit reads its other side once")
    func rereadsOnlyWhatChanged() throws {
        let fileSystem = try setUp()
        for index in 0..<50 { try write(fileSystem, "file \(index)", "d\(index % 5)/f\(index).txt", in: local) }
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        fileSystem.resetCalls()
        let quiet = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(quiet.inSync == 55 && quiet.copiedToContainer == 0)
        #expect(metadataCalls(fileSystem.calls).isEmpty, "\(metadataCalls(fileSystem.calls))")

        fileSystem.advanceTime(by: 5)
        try write(fileSystem, "edited", "d3/f8.txt", in: local)
        fileSystem.resetCalls()
        let edited = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(edited.copiedToContainer == 1 && edited.inSync == 54)
        let reads = metadataCalls(fileSystem.calls)
        #expect(
            reads.first == container.appending(path: "d3/f8.txt").path,
            "the scan's completion reads the other side first")
        #expect(
            reads.allSatisfy { $0.hasSuffix("/d3/f8.txt") || $0.hasSuffix("/d3") },
            "only the edited file and its folder: \(reads)")
        #expect(text(fileSystem, "d3/f8.txt", in: container) == "edited")
    }

    @Test(
        "on a disk a folder is listed again only when the plan wants at least half its entries; fewer are read one by one"
    )
    func listsAgainOnlyMostOfAFolder() throws {
        let fileSystem = try setUp()
        for index in 0..<20 { try write(fileSystem, "file \(index)", "d\(index % 2)/f\(index).txt", in: local) }
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        // d0 holds 10 files: 3 edited on the local side are read one by one on the other.
        fileSystem.advanceTime(by: 5)
        for index in [0, 2, 4] { try write(fileSystem, "edited \(index)", "d0/f\(index).txt", in: local) }
        fileSystem.resetCalls()
        let edited = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(edited.copiedToContainer == 3)
        func listings(of folder: String) -> Int {
            fileSystem.calls.filter {
                $0.operation == .contentsOfDirectory && $0.url?.path == container.appending(path: folder).path
            }.count
        }
        #expect(listings(of: "d0") == 1, "the scan's listing only")
        let reads = metadataCalls(fileSystem.calls).filter { $0.hasPrefix(container.path + "/d0/f") }
        #expect(
            Set(reads).isSuperset(of: [0, 2, 4].map { container.appending(path: "d0/f\($0).txt").path }), "\(reads)")
        // 5 of d1's 10 edited: half of it, listed once more.
        fileSystem.advanceTime(by: 5)
        for index in [1, 3, 5, 7, 9] { try write(fileSystem, "edited \(index)", "d1/f\(index).txt", in: local) }
        fileSystem.resetCalls()
        let half = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(half.copiedToContainer == 5)
        #expect(listings(of: "d1") == 2, "the scan's listing and one for the plan")
        #expect(
            text(fileSystem, "d1/f9.txt", in: container) == "edited 9"
                && text(fileSystem, "d0/f4.txt", in: container) == "edited 4")
    }

    @Test("a deletion on one side: the other side's unchanged items are read, then trashed")
    func deletionReadsTheOtherSide() throws {
        let fileSystem = try setUp()
        for name in ["keep/a.txt", "keep/b.txt", "keep/c.txt", "keep/d.txt", "gone/b.txt", "gone/c.txt"] {
            try write(fileSystem, name, name, in: local)
        }
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        try fileSystem.removeItem(at: container.appending(path: "gone"), recursively: true)
        fileSystem.resetCalls()
        let report = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(report.deletedLocal == 3, "\(report)")
        let read = Set(metadataCalls(fileSystem.calls).filter { $0.hasPrefix(local.path) })
        #expect(read.isSuperset(of: ["gone", "gone/b.txt", "gone/c.txt"].map { local.appending(path: $0).path }))
        #expect(!read.contains(local.appending(path: "keep/a.txt").path))
        #expect(text(fileSystem, "keep/a.txt", in: local) == "keep/a.txt")
        #expect(text(fileSystem, "gone/b.txt", in: local) == nil)
    }

    @Test("an item gone between the scan and its reading: the edit on the other side is kept and copied back")
    func goneBeforeTheRead() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "v1", "a.txt", in: local)
        try write(fileSystem, "other", "b.txt", in: local)
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        fileSystem.advanceTime(by: 5)
        try write(fileSystem, "v2", "a.txt", in: local)
        let target = container.appending(path: "a.txt")
        let editor = FaultInjectingFileSystem(wrapping: fileSystem)
        editor.addRule(
            .calls(
                where: { operation, url in
                    if operation == .metadata, url == target, (try? fileSystem.read(from: target)) != nil {
                        try? fileSystem.removeItem(at: target, recursively: false)  // a user deletes it just then
                    }
                    return false
                }, fail: .ioError))
        let report = try engine(fileSystem, directories: editor).run(
            local: local, container: container, stateDirectory: state)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(text(fileSystem, "a.txt", in: local) == "v2", "deleted there, changed here: the change is kept")
        #expect(text(fileSystem, "a.txt", in: container) == "v2")
    }

    @Test(
        "an unchanged item that cannot be read again ends the run before any change, with the error",
        arguments: [InjectedFault.permissionDenied, .ioError])
    func unreadableAfterTheScan(_ fault: InjectedFault) throws {
        let fileSystem = try setUp()
        try write(fileSystem, "v1", "a.txt", in: local)
        try write(fileSystem, "v1", "b.txt", in: local)
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        fileSystem.advanceTime(by: 5)
        try write(fileSystem, "v2", "a.txt", in: local)
        try fileSystem.removeItem(at: container.appending(path: "b.txt"), recursively: false)
        let target = container.appending(path: "a.txt")
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem)
        faulty.addRule(.calls(where: { operation, url in operation == .metadata && url == target }, fail: fault))
        fileSystem.resetCalls()
        #expect {
            try engine(fileSystem, directories: faulty).run(local: local, container: container, stateDirectory: state)
        } throws: { error in
            guard case .readFailed(let url, let underlying) = error as? SyncError else { return false }
            return url == target && underlying.posixCode?.rawValue == fault.errno
        }
        #expect(
            text(fileSystem, "a.txt", in: container) == "v1" && text(fileSystem, "b.txt", in: local) == "v1",
            "nothing changed")
        let changes = fileSystem.calls.filter { call in
            call.operation.isWriting && !(call.url?.path ?? "").contains("/.seams")
                && !(call.url?.path ?? "").hasPrefix(state.path)
        }
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test("a container that is not the replica the state knows: every unchanged item is read, nothing is deleted")
    func replicaMismatchReadsEverything() throws {
        let fileSystem = try setUp()
        for name in ["a.txt", "d/b.txt"] { try write(fileSystem, name, name, in: local) }
        _ = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        // The container's marker is gone (another copy of it, restored): not the replica the state knows.
        try fileSystem.removeItem(at: container.appending(path: ".seams-replica"), recursively: false)
        try fileSystem.removeItem(at: local.appending(path: "a.txt"), recursively: false)
        let report = try engine(fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(report.replicaMismatch != nil)
        #expect(report.deletedContainer == 0 && report.deletedLocal == 0, "as a new pair, nothing is deleted anywhere")
        #expect(text(fileSystem, "a.txt", in: local) == "a.txt", "copied back, not deleted there")
        #expect(report.inSync == 2, "the folder and d/b.txt, read again and found equal")
    }
}
