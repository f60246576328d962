import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A file or folder renamed or moved on one side travels as the same rename on the other: no
/// copy, nothing in the trash, not counted as deletions by the guards; what changed meanwhile on
/// either side is decided at the new path, and nothing is lost.
@Suite struct MoveSyncTests: InMemoryFolderPair {
    @Test("a file renamed locally is renamed in the container: no copy, no read of it, nothing in the trash")
    func fileRename() throws {
        let fs = try fileSystem()
        try write("report", "docs/draft.txt", in: local, fs)
        try write("other", "docs/other.txt", in: local, fs)
        _ = try sync(fs)
        try move("docs/draft.txt", "docs/final.txt", in: local, fs)
        fs.resetCalls()
        let report = try sync(fs)
        let reads = fs.calls.filter { $0.operation == .read && $0.url?.path.hasSuffix(".txt") == true }
        #expect(reads.isEmpty, "a moved file's content is not read: \(reads)")
        #expect(report.failures.isEmpty)
        #expect(report.moves == [SyncReport.Move(from: "docs/draft.txt", to: "docs/final.txt", madeOn: .container)])
        #expect(report.copiedToContainer == 0 && report.copiedToLocal == 0 && report.deletedContainer == 0)
        #expect(try tree(container, fs) == ["docs/final.txt": "report", "docs/other.txt": "other"])
        #expect(try trash(container, fs).isEmpty)
        #expect(report.summary.contains("1 rename or move made as on the other side."))
        #expect(report.summary.contains("moved on container: docs/draft.txt -> docs/final.txt"))
        let again = try sync(fs)
        #expect(
            again.moves.isEmpty
                && again.copiedToLocal + again.copiedToContainer + again.deletedLocal + again.deletedContainer == 0)
        #expect(again.failures.isEmpty)
    }

    @Test("a folder holding most of the files, renamed, is one move, and the deletion guard lets it through")
    func folderRenameNotRefused() throws {
        let fs = try fileSystem()
        for index in 0..<8 { try write("photo \(index)", "Photos/IMG_\(index).JPG", in: local, fs) }
        try write("a", "notes/a.txt", in: local, fs)
        try write("b", "b.txt", in: local, fs)
        _ = try sync(fs)
        try move("Photos", "Photos 2024", in: local, fs)
        fs.resetCalls()
        let report = try sync(fs)  // the default guard refuses deleting more than half
        #expect(report.failures.isEmpty)
        #expect(report.moves == [SyncReport.Move(from: "Photos", to: "Photos 2024", madeOn: .container)])
        #expect(report.copiedToContainer == 0 && report.deletedContainer == 0 && report.foldersCreated == 0)
        let moves = fs.calls.filter { call in
            call.operation == .moveItem && call.url?.path.hasPrefix(container.path) == true
                && call.url?.path.contains("/.seams") == false
        }
        #expect(moves.count == 1, "one rename in the container (besides its marker's): \(moves)")
        #expect(try tree(container, fs) == (try tree(local, fs)))
        #expect(try tree(container, fs)["Photos 2024/IMG_7.JPG"] == "photo 7")
        #expect(try trash(container, fs).isEmpty)
    }

    @Test("a folder renamed in the container is renamed in the local folder")
    func containerSideFolderRename() throws {
        let fs = try fileSystem()
        try write("1", "Old/x.txt", in: local, fs)
        try write("2", "Old/sub/y.txt", in: local, fs)
        _ = try sync(fs)
        try move("Old", "New", in: container, fs)
        let report = try sync(fs)
        #expect(report.moves == [SyncReport.Move(from: "Old", to: "New", madeOn: .local)])
        #expect(report.copiedToLocal == 0 && report.deletedLocal == 0)
        #expect(try tree(local, fs) == ["New/x.txt": "1", "New/sub/y.txt": "2"])
    }

    @Test("moved on one side and edited on the other: the edit ends at the new path, the older version in the trash")
    func moveAndEdit() throws {
        let fs = try fileSystem()
        try write("v1", "a/file.txt", in: local, fs)
        try write("keep", "a/keep.txt", in: local, fs)
        _ = try sync(fs)
        try move("a", "b", in: local, fs)
        fs.advanceTime(by: 5)
        try write("v2 longer", "a/file.txt", in: container, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.moves.map(\.to) == ["b"])
        #expect(try tree(local, fs) == ["b/file.txt": "v2 longer", "b/keep.txt": "keep"])
        #expect(try tree(container, fs) == ["b/file.txt": "v2 longer", "b/keep.txt": "keep"])
        #expect(try trash(local, fs) == ["v1"], "the version the edit replaced is kept")
    }

    @Test("inside a moved folder, a file added, one deleted and one renamed travel with it")
    func changesInsideMovedFolder() throws {
        let fs = try fileSystem()
        try write("x", "F/x.txt", in: local, fs)
        try write("y", "F/y.txt", in: local, fs)
        try write("z", "F/z.txt", in: local, fs)
        _ = try sync(fs)
        try move("F", "G", in: local, fs)
        try fs.removeItem(at: local.appending(path: "G/y.txt"), recursively: false)
        try move("G/z.txt", "G/zz.txt", in: local, fs)
        try write("new", "G/new.txt", in: local, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.moves.map(\.to) == ["G", "G/zz.txt"])
        #expect(report.copiedToContainer == 1 && report.deletedContainer == 1)
        #expect(try tree(container, fs) == ["G/x.txt": "x", "G/zz.txt": "z", "G/new.txt": "new"])
        #expect(try trash(container, fs) == ["y"])
    }

    @Test("a file moved into a folder new on its side: the folder is made, then the file moved into it")
    func moveIntoNewFolder() throws {
        let fs = try fileSystem()
        try write("song", "song.mp3", in: local, fs)
        _ = try sync(fs)
        try fs.createDirectory(at: local.appending(path: "Music/2024"), withIntermediateDirectories: true)
        try move("song.mp3", "Music/2024/song.mp3", in: local, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.moves.map(\.to) == ["Music/2024/song.mp3"])
        #expect(report.copiedToContainer == 0 && report.foldersCreated == 2)
        #expect(try tree(container, fs) == ["Music/2024/song.mp3": "song"])
        #expect((try sync(fs)).foldersCreated == 0)
    }

    @Test(
        "a file moved out of a folder, then the folder moved: the folder the file left is flushed before it moves, and the run ends well"
    )
    func fileOutThenFolderMoved() throws {
        let fs = try fileSystem()
        try write("deep", "a/b/c/f.txt", in: local, fs)
        try write("other", "a/b/c/g.txt", in: local, fs)
        try write("e", "e/x/keep.txt", in: local, fs)
        _ = try sync(fs)
        try move("a/b/c/f.txt", "e/x/f.moved", in: local, fs)
        try move("a", "e/y", in: local, fs)  // after e/x/f.moved in the plan's order
        fs.resetCalls()
        // Before, the folder the file left was flushed at its old name after the folder moved,
        // and the whole run ended with "Could not write /container/a/b/c".
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.moves.map(\.to) == ["e/x/f.moved", "e/y"])
        #expect(report.copiedToContainer == 0 && report.deletedContainer == 0)
        #expect(try tree(container, fs) == (try tree(local, fs)))
        let flushes = fs.calls.filter { $0.operation == .synchronizeDirectory }
        #expect(flushes.allSatisfy { $0.outcome == .success }, "\(flushes)")
        let left = flushes.firstIndex { $0.url?.path == container.appending(path: "a/b/c").path }
        let moved = fs.calls.firstIndex {
            $0.operation == .moveItem && $0.url?.path == container.appending(path: "a").path
        }
        #expect(left != nil && moved != nil, "the folder left flushed at its name, then moved")
        if let left, let moved { #expect(fs.calls.firstIndex(of: flushes[left])! < moved) }
        #expect(try trash(container, fs).isEmpty)
    }

    @Test("one file moved to different names on the two sides keeps both names")
    func movedDifferentlyOnBothSides() throws {
        let fs = try fileSystem()
        try write("text", "a.txt", in: local, fs)
        _ = try sync(fs)
        try move("a.txt", "mine.txt", in: local, fs)
        try move("a.txt", "theirs.txt", in: container, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty && report.moves.isEmpty)
        #expect(try tree(local, fs) == ["mine.txt": "text", "theirs.txt": "text"])
        #expect(try tree(container, fs) == (try tree(local, fs)))
    }

    @Test("a move whose new name the other side has taken since is not made: both kept")
    func targetTakenOnOtherSide() throws {
        let fs = try fileSystem()
        try write("old", "a.txt", in: local, fs)
        try write("c", "c.txt", in: local, fs)
        try write("d", "d.txt", in: local, fs)
        _ = try sync(fs)
        try move("a.txt", "b.txt", in: local, fs)
        try write("their b", "b.txt", in: container, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty && report.moves.isEmpty)
        #expect(report.conflicts.count == 1)
        let names = try tree(container, fs)
        #expect(names.values.sorted() == ["c", "d", "old", "their b"])
        #expect(try tree(local, fs) == names)
    }

    @Test(
        "a file moved into an ignored folder is deleted on the other side (into its trash); one moved out of it is new there"
    )
    func moveIntoAndOutOfIgnored() throws {
        let fs = try fileSystem()
        try write("build/\n", ".seamsignore", in: local, fs)
        try write("x", "src/x.txt", in: local, fs)
        for index in 1...3 { try write("keep \(index)", "k\(index).txt", in: local, fs) }
        try write("artifact", "build/out.bin", in: local, fs)
        _ = try sync(fs)
        try move("src/x.txt", "build/x.txt", in: local, fs)
        try move("build/out.bin", "src/out.bin", in: local, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty && report.moves.isEmpty)
        #expect(try trash(container, fs) == ["x"])
        #expect(read("src/out.bin", in: container, fs) == "artifact")
        #expect(read("build/x.txt", in: container, fs) == nil && read("build/x.txt", in: local, fs) == "x")
    }

    @Test("a dry run lists the move and changes nothing")
    func dryRun() throws {
        let fs = try fileSystem()
        try write("x", "F/x.txt", in: local, fs)
        _ = try sync(fs)
        try move("F", "G", in: local, fs)
        var options = SyncOptions()
        options.dryRun = true
        let report = try sync(fs, options)
        #expect(report.moves == [SyncReport.Move(from: "F", to: "G", madeOn: .container)])
        #expect(report.summary.contains("would move on container: F -> G"))
        #expect(try tree(container, fs) == ["F/x.txt": "x"])
    }

    @Test("a move that fails leaves both sides and the state as they were, and the next run makes it")
    func failedMove() throws {
        let memory = try fileSystem()
        try write("x", "F/x.txt", in: local, memory)
        try write("y", "F/y.txt", in: local, memory)
        _ = try sync(memory)
        try move("F", "G", in: local, memory)
        let faulty = FaultInjectingFileSystem(wrapping: memory)
        let target = container.appending(path: "G")
        faulty.addRule(
            FaultRule.calls(
                where: { operation, url in operation == .moveItem && url?.path == target.path },
                fail: .permissionDenied, times: 1))
        memory.advanceTime(by: 1)
        let report = try SyncEngine(directories: faulty, files: faulty, clock: { memory.now }, owner: "test")
            .run(local: local, container: container, stateDirectory: state)
        #expect(report.moves.isEmpty)
        #expect(report.failures.map(\.path) == ["G"], "reported once, at the new path")
        #expect(report.failures.first?.reason.contains("moved here from \"F\"") == true)
        #expect(try tree(container, memory) == ["F/x.txt": "x", "F/y.txt": "y"], "nothing deleted or copied")
        #expect(try trash(container, memory).isEmpty)
        let next = try sync(memory)
        #expect(next.failures.isEmpty)
        #expect(next.moves == [SyncReport.Move(from: "F", to: "G", madeOn: .container)])
        #expect(try tree(container, memory) == ["G/x.txt": "x", "G/y.txt": "y"])
    }

    @Test("the state records each side's identities, and a state without them learns them on a run with no change")
    func identitiesLearned() throws {
        let fs = try fileSystem()
        try write("x", "F/x.txt", in: local, fs)
        _ = try sync(fs)
        let store = ArchiveStore(
            directories: fs, files: fs, stateDirectory: state, localRoot: local, containerRoot: container)
        var archive = try store.load(moveAside: false, now: fs.now).archive
        let recorded = try #require(archive.entries[SyncPath("F/x.txt")])
        #expect(recorded.localID != 0 && recorded.containerID != 0 && recorded.localID != recorded.containerID)
        #expect(archive.entries[SyncPath("F")]?.containerID != 0, "a folder the run made has its identity too")
        // As an older state: no identities.
        for (path, entry) in Array(archive.entries) {
            var bare = entry
            (bare.localID, bare.containerID) = (0, 0)
            archive.entries[path] = bare
        }
        try store.commit(archive, runID: "older", removingLegacyFile: false)
        let learning = try sync(fs)
        #expect(learning.copiedToLocal + learning.copiedToContainer == 0)
        let learned = try store.load(moveAside: false, now: fs.now).archive
        #expect(learned.entries[SyncPath("F/x.txt")] == recorded)
        try move("F", "G", in: container, fs)
        #expect(try sync(fs).moves.map(\.to) == ["G"])
    }

    /// Writes `text <name>` at `<name>.txt` under `root` for each name, each with a stamp of its
    /// own (two files of one size and date swapped would look unchanged), then syncs.
    func writeAndSync(_ names: [String], in root: URL, _ fs: InMemoryFileSystem) throws {
        for name in names {
            fs.advanceTime(by: 1)
            try write("text \(name)", "\(name).txt", in: root, fs)
        }
        _ = try sync(fs)
    }

    /// Swaps `a.txt` and `b.txt` under `root` through `t.txt`, as a user does.
    func swapAB(in root: URL, _ fs: InMemoryFileSystem) throws {
        try move("a.txt", "t.txt", in: root, fs)
        try move("b.txt", "a.txt", in: root, fs)
        try move("t.txt", "b.txt", in: root, fs)
    }

    /// The container's renames of user paths (not the tool's own items) in the calls since the last reset.
    func containerMoves(_ fs: InMemoryFileSystem) -> [String] {
        fs.calls.filter { call in
            call.operation == .moveItem && call.url?.path.hasPrefix(container.path) == true
                && call.url?.path.contains("/.seams") == false
        }.compactMap { $0.url?.path }
    }

    @Test(
        "a folder moved, then a folder inside it moved out: the state keeps nothing at the old paths, and a file made there after is copied, not taken for one deleted"
    )
    func nestedMovesLeaveNoEntries() throws {
        let fs = try fileSystem()
        try write("top", "a/top.txt", in: local, fs)
        try write("inner", "a/b/inner.txt", in: local, fs)
        try write("deep", "a/b/c/deep.txt", in: local, fs)
        _ = try sync(fs)
        try move("a", "x", in: local, fs)
        try move("x/b", "y", in: local, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.copiedToContainer == 0 && report.deletedContainer == 0)
        #expect(try tree(container, fs) == ["x/top.txt": "top", "y/inner.txt": "inner", "y/c/deep.txt": "deep"])
        let store = ArchiveStore(
            directories: fs, files: fs, stateDirectory: state, localRoot: local, containerRoot: container)
        let recorded = try store.load(moveAside: false, now: fs.now).archive.entries.map(\.key.rawValue)
        #expect(recorded.sorted() == ["x", "x/top.txt", "y", "y/c", "y/c/deep.txt", "y/inner.txt"])
        // A new file at an old path: new, as the state records nothing there.
        try write("new", "a/b/inner.txt", in: local, fs)
        let next = try sync(fs)
        #expect(next.copiedToContainer == 1 && next.deletedLocal == 0)
        #expect(read("a/b/inner.txt", in: container, fs) == "new")
        #expect(read("a/b/inner.txt", in: local, fs) == "new")
    }

    @Test(
        "a folder moved, then a folder inside it moved out, and the run stopped between the two moves: the next run makes the second move, no copy both ways",
        arguments: [false, true])
    func nestedMovesCutBetween(secondMoveFails: Bool) throws {
        let fs = try fileSystem()
        try write("top", "a/top.txt", in: local, fs)
        try write("inner", "a/b/inner.txt", in: local, fs)
        try write("deep", "a/b/c/deep.txt", in: local, fs)
        _ = try sync(fs)
        try move("a", "x", in: local, fs)
        try move("x/b", "y", in: local, fs)
        fs.advanceTime(by: 1)
        // The run stops (or its second move fails) right after the container's `a`→`x`.
        let boundary = FaultInjectingFileSystem(wrapping: fs)
        let stop = SyncStopToken()
        let (first, second) = (container.appending(path: "x").path, container.appending(path: "y").path)
        boundary.addRule(
            FaultRule(
                matches: { operation, url in
                    guard operation == .moveItem else { return false }
                    if !secondMoveFails, url?.path == first { stop.requestStop() }  // the move itself goes on
                    return secondMoveFails && url?.path == second
                }, fault: .ioError))
        let cut = try SyncEngine(directories: boundary, files: boundary, clock: { fs.now }, owner: "test")
            .run(local: local, container: container, stateDirectory: state, stop: stop)
        #expect(cut.moves.map { "\($0.from)>\($0.to)" } == ["a>x"], "\(cut.moves)")
        #expect(try tree(container, fs) == ["x/top.txt": "top", "x/b/inner.txt": "inner", "x/b/c/deep.txt": "deep"])
        // The next run sees the second move: made, nothing copied, nothing in the trash.
        let next = try sync(fs)
        #expect(next.failures.isEmpty)
        #expect(next.moves.map { "\($0.from)>\($0.to)" } == ["x/b>y"], "\(next.moves)")
        #expect(next.copiedToContainer + next.copiedToLocal + next.deletedContainer + next.deletedLocal == 0)
        #expect(try tree(container, fs) == ["x/top.txt": "top", "y/inner.txt": "inner", "y/c/deep.txt": "deep"])
        #expect(try tree(local, fs) == (try tree(container, fs)))
        #expect(try trash(container, fs).isEmpty && (try trash(local, fs)).isEmpty)
        let quiet = try sync(fs)
        #expect(quiet.moves.isEmpty && quiet.copiedToContainer + quiet.copiedToLocal == 0)
    }

    @Test("a chain (b moved to c, then a to b) is made from its end on the other side: no copy, nothing in the trash")
    func chain() throws {
        let fs = try fileSystem()
        try writeAndSync(["a", "b", "k1", "k2"], in: local, fs)
        try move("b.txt", "c.txt", in: local, fs)
        try move("a.txt", "b.txt", in: local, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(
            report.moves == [
                SyncReport.Move(from: "b.txt", to: "c.txt", madeOn: .container),
                SyncReport.Move(from: "a.txt", to: "b.txt", madeOn: .container),
            ])
        #expect(report.copiedToContainer == 0 && report.deletedContainer == 0 && report.conflicts.isEmpty)
        #expect(
            try tree(container, fs) == ["b.txt": "text a", "c.txt": "text b", "k1.txt": "text k1", "k2.txt": "text k2"])
        #expect(try tree(local, fs) == (try tree(container, fs)))
        #expect(try trash(container, fs).isEmpty)
        let again = try sync(fs)
        #expect(again.moves.isEmpty && again.copiedToLocal + again.copiedToContainer + again.deletedContainer == 0)
    }

    @Test(
        "two files swapped on one side are swapped on the other, one waiting in the trash meanwhile; nothing copied or left in the trash"
    )
    func swap() throws {
        let fs = try fileSystem()
        try writeAndSync(["a", "b", "k"], in: container, fs)
        try swapAB(in: container, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(
            Set(report.moves) == [
                SyncReport.Move(from: "a.txt", to: "b.txt", madeOn: .local),
                SyncReport.Move(from: "b.txt", to: "a.txt", madeOn: .local),
            ])
        #expect(report.copiedToLocal == 0 && report.deletedLocal == 0 && report.conflicts.isEmpty)
        #expect(try tree(local, fs) == ["a.txt": "text b", "b.txt": "text a", "k.txt": "text k"])
        #expect(try trash(local, fs).isEmpty)
        #expect(try sync(fs).moves.isEmpty)
    }

    @Test(
        "three folders rotated (a cycle of three): their files, each in a cycle of three, are renamed the same way on the other side; nothing copied"
    )
    func folderCycle() throws {
        let fs = try fileSystem()
        for name in ["x", "y", "z"] {
            fs.advanceTime(by: 1)  // stamps of their own
            try write("\(name) 1", "\(name)/one.txt", in: local, fs)
            try write("\(name) 2", "\(name)/sub/two.txt", in: local, fs)
        }
        _ = try sync(fs)
        try move("x", "tmp", in: local, fs)
        try move("z", "x", in: local, fs)
        try move("y", "z", in: local, fs)
        try move("tmp", "y", in: local, fs)
        fs.resetCalls()
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        // A folder whose entries did not change is not read again, so the folders' own new
        // inodes go unseen: the files are matched, each one of a cycle of three.
        #expect(
            Set(report.moves.map(\.to)) == [
                "x/one.txt", "y/one.txt", "z/one.txt", "x/sub/two.txt", "y/sub/two.txt", "z/sub/two.txt",
            ])
        #expect(report.copiedToContainer == 0 && report.deletedContainer == 0 && report.foldersCreated == 0)
        #expect(try tree(container, fs) == (try tree(local, fs)))
        #expect(try tree(container, fs)["y/sub/two.txt"] == "x 2")
        #expect(try trash(container, fs).isEmpty)
        #expect(
            containerMoves(fs).count == 6, "each file renamed once (and once through the trash): \(containerMoves(fs))")
    }

    @Test(
        "a file moved over another one: the one it replaced goes to the trash on the other side, the file is renamed, not copied"
    )
    func moveOverAnother() throws {
        let fs = try fileSystem()
        try writeAndSync(["a", "b", "k"], in: local, fs)
        try fs.moveItem(at: local.appending(path: "a.txt"), to: local.appending(path: "b.txt"), replacingExisting: true)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.moves == [SyncReport.Move(from: "a.txt", to: "b.txt", madeOn: .container)])
        #expect(report.copiedToContainer == 0 && report.deletedContainer == 0)
        #expect(try tree(container, fs) == ["b.txt": "text a", "k.txt": "text k"])
        #expect(try trash(container, fs) == ["text b"], "the replaced version is kept")
    }

    @Test("a file renamed to a backup name and written anew (as some editors save) is one rename and one new copy")
    func backupThenWrite() throws {
        let fs = try fileSystem()
        try write("version 1", "notes.txt", in: local, fs)
        try write("k", "k.txt", in: local, fs)
        _ = try sync(fs)
        try move("notes.txt", "notes.txt~", in: local, fs)
        try write("version 2", "notes.txt", in: local, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        #expect(report.moves == [SyncReport.Move(from: "notes.txt", to: "notes.txt~", madeOn: .container)])
        #expect(report.copiedToContainer == 1)
        #expect(try tree(container, fs) == ["notes.txt": "version 2", "notes.txt~": "version 1", "k.txt": "k"])
        #expect(try trash(container, fs).isEmpty)
    }

    @Test("a swap on one side while the other side edited one of the files: no move, both versions kept")
    func swapAndEdit() throws {
        let fs = try fileSystem()
        try writeAndSync(["a", "b", "k"], in: local, fs)
        try swapAB(in: local, fs)
        try write("edited a", "a.txt", in: container, fs)
        let report = try sync(fs)
        #expect(report.failures.isEmpty)
        let texts = try tree(container, fs).values.sorted() + (try trash(container, fs))
        for text in ["text a", "text b", "edited a"] { #expect(texts.contains(text), "\(text) kept") }
        #expect(try tree(local, fs) == (try tree(container, fs)))
    }

    @Test(
        "a swap whose last step fails: the item waits in the trash, the failure says so, and the next run converges with nothing lost"
    )
    func swapFailsHalfway() throws {
        let memory = try fileSystem()
        try writeAndSync(["a", "b", "k"], in: local, memory)
        try swapAB(in: local, memory)
        let faulty = FaultInjectingFileSystem(wrapping: memory)
        faulty.addRule(
            FaultRule.calls(
                where: { operation, url in
                    operation == .moveItem
                        && url?.path.hasPrefix(container.appending(path: ".seams-trash").path) == true
                }, fail: .permissionDenied, times: 2))
        memory.advanceTime(by: 1)
        let report = try SyncEngine(directories: faulty, files: faulty, clock: { memory.now }, owner: "test")
            .run(local: local, container: container, stateDirectory: state)
        #expect(!report.failures.isEmpty)
        let texts = try tree(container, memory).values.sorted() + (try trash(container, memory))
        for text in ["text a", "text b"] { #expect(texts.contains(text), "\(text) kept in the container") }
        let next = try sync(memory)
        #expect(next.failures.isEmpty)
        #expect(try tree(container, memory) == ["a.txt": "text b", "b.txt": "text a", "k.txt": "text k"])
        #expect(try tree(local, memory) == (try tree(container, memory)))
    }
}
