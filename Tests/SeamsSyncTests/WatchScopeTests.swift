import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A sync that lists only the folders a watcher saw change decides what a sync listing every
/// folder decides, and lists no more than it must.
@Suite struct WatchScopeTests: InMemoryFolderPair {
    /// Random edits on both sides, as a user makes them: files written, edited, removed,
    /// renamed and moved, folders made, removed and renamed, ignore rules added.
    struct Editor {
        var random: SplitMix64
        let fileSystem: InMemoryFileSystem

        mutating func pick<T>(_ items: [T]) -> T? {
            items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))]
        }

        /// Every item under `root`: folders (with the root as "") and files, by relative path.
        func items(_ root: URL) throws -> (folders: [String], files: [String]) {
            var folders = [""]
            var files: [String] = []
            var pending = [""]
            while let folder = pending.popLast() {
                let url = folder.isEmpty ? root : root.appending(path: folder)
                for entry in try fileSystem.contentsOfDirectory(at: url) where !entry.name.hasPrefix(".seams") {
                    let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
                    if entry.metadata.kind == .directory {
                        folders.append(path)
                        pending.append(path)
                    } else {
                        files.append(path)
                    }
                }
            }
            return (folders.sorted(), files.sorted())
        }

        func url(_ root: URL, _ path: String) -> URL { path.isEmpty ? root : root.appending(path: path) }

        func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

        /// One edit under `root`.
        mutating func edit(_ root: URL, step: Int) throws {
            let (folders, files) = try items(root)
            let name = "n\(step)-\(random.next() % 1000)"
            switch random.next() % 10 {
            case 0, 1:  // a new file
                guard let folder = pick(folders) else { return }
                try fileSystem.write(Data("new \(step)".utf8), to: url(root, join(folder, name + ".txt")))
            case 2, 3:  // an edit
                guard let file = pick(files) else { return }
                try fileSystem.write(Data("edited \(step) \(random.next())".utf8), to: url(root, file))
            case 4:  // a file removed
                guard let file = pick(files) else { return }
                try fileSystem.removeItem(at: url(root, file), recursively: false)
            case 5:  // a file renamed or moved
                guard let file = pick(files), let folder = pick(folders) else { return }
                try fileSystem.moveItem(
                    at: url(root, file), to: url(root, join(folder, name + ".moved")), replacingExisting: false)
            case 6:  // a folder made, with a file
                guard let folder = pick(folders) else { return }
                let made = join(folder, name)
                try fileSystem.createDirectory(at: url(root, made), withIntermediateDirectories: false)
                try fileSystem.write(Data("inside \(step)".utf8), to: url(root, join(made, "f.txt")))
            case 7:  // a folder removed
                guard let folder = pick(folders.filter { !$0.isEmpty }) else { return }
                try fileSystem.removeItem(at: url(root, folder), recursively: true)
            case 8:  // a folder renamed or moved (not into itself)
                guard let folder = pick(folders.filter { !$0.isEmpty }),
                    let target = pick(folders.filter { $0 != folder && !$0.hasPrefix(folder + "/") })
                else { return }
                try fileSystem.moveItem(
                    at: url(root, folder), to: url(root, join(target, name)), replacingExisting: false)
            default:  // an ignore rule
                guard let folder = pick(folders) else { return }
                try fileSystem.write(Data("*.moved\n".utf8), to: url(root, join(folder, ".seamsignore")))
            }
        }
    }

    /// A tree of a few folders and files on the local side, synced.
    func seeded(_ random: inout SplitMix64) throws -> InMemoryFileSystem {
        let fileSystem = try fileSystem()
        for folder in ["a", "a/b", "a/b/c", "d", "e"] {
            try fileSystem.createDirectory(at: local.appending(path: folder), withIntermediateDirectories: false)
        }
        for index in 0..<12 {
            let folder = ["", "a", "a/b", "a/b/c", "d", "e"][Int(random.next() % 6)]
            let path = folder.isEmpty ? "f\(index).txt" : folder + "/f\(index).txt"
            try fileSystem.write(Data("v1 \(index)".utf8), to: local.appending(path: path))
        }
        _ = try sync(fileSystem)
        return fileSystem
    }

    func scope(_ events: FileEvents) -> SyncScope {
        SyncScope(local: events.changes[0] ?? ChangedFolders(), container: events.changes[1] ?? ChangedFolders())
    }

    /// An engine whose run ids come from a counter, so that two file systems given the same
    /// edits and syncs end the same.
    func countingEngine(_ fileSystem: InMemoryFileSystem) -> SyncEngine {
        let runs = LockedValue(0)
        return SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test",
            runID: {
                runs.withLock {
                    $0 += 1
                    return "r\($0)"
                }
            }, scansConcurrently: false)
    }

    @Test(
        "over random edits on both sides, syncs listing only the folders the events name plan and end as syncs listing every folder",
        arguments: 0..<200)
    func incrementalSyncsAsWhole(seed: UInt64) throws {
        try twins(seed: seed)
    }

    @Test(
        "seeds of a longer sweep that once ended differently: a folder moved inside a tree the events name, a rule file moved or removed by the sync itself, a state entry left by nested moves",
        arguments: [386, 2058, 2135, 2933, 3095] as [UInt64])
    func seedsThatDiverged(seed: UInt64) throws {
        try twins(seed: seed)
    }

    @Test(
        "over random edits on both sides, syncs listing the container whole and the local side by the events (a watcher's polls of a server) plan and end as syncs listing every folder",
        arguments: 0..<100)
    func polledSyncsAsWhole(seed: UInt64) throws {
        try twins(seed: seed, pollingContainer: true)
    }

    @Test(
        "a poll of the container with nothing changed locally lists no local folder; a folder gone from the container is listed whole locally"
    )
    func pollListsNoLocalFolder() throws {
        var random = SplitMix64(seed: 7)
        let fileSystem = try seeded(&random)
        fileSystem.resetCalls()
        let poll = SyncScope(local: ChangedFolders(), container: nil)
        let quiet = try engine(fileSystem).run(local: local, container: container, stateDirectory: state, scope: poll)
        #expect(quiet.planned.isEmpty)
        func localListings() -> [String] {
            fileSystem.calls.filter { $0.operation == .contentsOfDirectory }.compactMap(\.url?.path)
                .filter { $0.hasPrefix(local.path) && !$0.contains("/.seams") }
        }
        #expect(localListings() == [])
        // A folder removed from the container: the poll lists it whole on the local side (and
        // nothing else there), so what it holds goes to the trash, nothing left unseen.
        try fileSystem.removeItem(at: container.appending(path: "a/b"), recursively: true)
        fileSystem.resetCalls()
        let removed = try engine(fileSystem).run(local: local, container: container, stateDirectory: state, scope: poll)
        #expect(removed.failures.isEmpty)
        let listed = localListings()
        #expect(listed.contains("/local/a/b") && listed.allSatisfy { $0.hasPrefix("/local/a/b") }, "\(listed)")
        #expect(!fileSystem.fileExists(at: local.appending(path: "a/b")))
        #expect(try tree(local, fileSystem) == tree(container, fileSystem))
    }

    @Test(
        "a rule file the sync itself removes: the report names its folder, and a sync listing it whole copies what the rule had left out"
    )
    func rulesChangedByTheSync() throws {
        var random = SplitMix64(seed: 13)
        let fileSystem = try seeded(&random)
        try write("*.moved\n", "d/.seamsignore", in: local, fileSystem)
        try write("kept", "d/sub/keep.txt", in: local, fileSystem)
        // A rule file copied to the other side changes no rule: this sync applied it to both.
        #expect(try sync(fileSystem).rulesChanged.isEmpty)
        try write("left out", "d/sub/x.moved", in: local, fileSystem)
        // Removed on the container: this sync removes the local one too, after a scan that
        // applied it (the local side still had it), so `d/sub/x.moved` is left out this time.
        try fileSystem.removeItem(at: container.appending(path: "d/.seamsignore"), recursively: false)
        let engine = engine(fileSystem)
        let report = try engine.run(
            local: local, container: container, stateDirectory: state,
            scope: SyncScope(local: ChangedFolders(folders: ["d"]), container: ChangedFolders(folders: ["d"])))
        #expect(report.rulesChanged == ["d"])
        #expect(read("d/.seamsignore", in: local, fileSystem) == nil)
        #expect(read("d/sub/x.moved", in: container, fileSystem) == nil)
        // The sync's own removal names `d` on the local side, whose listing finds `d/sub` as
        // recorded: without the rules' folder listed whole, the file they left out stays unseen.
        var dryRun = SyncOptions()
        dryRun.dryRun = true
        let unseen = try engine.run(
            local: local, container: container, stateDirectory: state, options: dryRun,
            scope: SyncScope(local: ChangedFolders(folders: ["d"]), container: ChangedFolders()))
        #expect(unseen.planned.isEmpty)
        let again = SyncWatcher.changes(after: report)
        #expect(again.trees == ["d"] && again.folders.contains(""))
        let next = try engine.run(
            local: local, container: container, stateDirectory: state, scope: SyncScope(local: again, container: again))
        #expect(next.copiedToContainer == 1 && next.rulesChanged.isEmpty)
        #expect(read("d/sub/x.moved", in: container, fileSystem) == "left out")
    }

    @Test("a folder removed with a rule file inside it: the report names no folder (the rules apply to nothing now)")
    func rulesRemovedWithTheirFolder() throws {
        var random = SplitMix64(seed: 19)
        let fileSystem = try seeded(&random)
        try write("*.tmp\n", "d/t/u/.seamsignore", in: local, fileSystem)
        try write("kept", "d/t/u/f.txt", in: local, fileSystem)
        _ = try sync(fileSystem)
        try fileSystem.removeItem(at: local.appending(path: "d/t"), recursively: true)
        let report = try sync(fileSystem)
        #expect(report.deletedContainer > 0)
        #expect(read("d/t/u/f.txt", in: container, fileSystem) == nil)
        #expect(report.rulesChanged.isEmpty)
        // And a rule file replaced (edited on one side, copied to the other) is named.
        try write("*.tmp\n", "e/.seamsignore", in: local, fileSystem)
        _ = try sync(fileSystem)
        fileSystem.advanceTime(by: 1)
        try write("*.log\n", "e/.seamsignore", in: container, fileSystem)
        #expect(try sync(fileSystem).rulesChanged == ["e"])
    }

    @Test("a folder moved whole carries its rule file along: the report names no folder")
    func rulesMovedWithTheirFolder() throws {
        var random = SplitMix64(seed: 17)
        let fileSystem = try seeded(&random)
        try write("*.tmp\n", "d/.seamsignore", in: local, fileSystem)
        _ = try sync(fileSystem)
        try move("d", "e/d2", in: local, fileSystem)
        let report = try sync(fileSystem)
        #expect(report.moves == [SyncReport.Move(from: "d", to: "e/d2", madeOn: .container)])
        #expect(report.rulesChanged.isEmpty)
        #expect(read("e/d2/.seamsignore", in: container, fileSystem) == "*.tmp\n")
    }

    /// Twins given the same edits: one syncs whole, the other by the events (with
    /// `pollingContainer`, the container listed whole, as a watcher's poll of a server lists it);
    /// both must plan, end and record the same.
    func twins(seed: UInt64, pollingContainer: Bool = false) throws {
        // Twins: the same edits on both; one syncs whole, the other by the events.
        var random = SplitMix64(seed: seed)
        let whole = try seeded(&random)
        random = SplitMix64(seed: seed)
        let scoped = try seeded(&random)
        var editors = [Editor(random: random, fileSystem: whole), Editor(random: random, fileSystem: scoped)]
        // The scoped twin keeps its state between syncs, as the watcher's engine does.
        var keeping = countingEngine(scoped)
        keeping.stateMemory = StateMemory()
        let engines = [countingEngine(whole), keeping]
        let events = InMemoryFileEvents(fileSystem: scoped)
        // One watch the whole time, as the watcher keeps it: the syncs' own writes are events too.
        let watch = try events.watch([local, container]) { _, _ in false }
        defer { watch.close() }
        var dryRun = SyncOptions()
        dryRun.dryRun = true
        var options = SyncOptions()
        options.force = true
        dryRun.force = true
        var retried = ChangedFolders()
        for round in 0..<6 {
            for index in 0..<2 {
                let fileSystem = index == 0 ? whole : scoped
                fileSystem.advanceTime(by: 1)
                for step in 0..<(1 + Int(editors[index].random.next() % 4)) {
                    let side = editors[index].random.next() % 3 == 0 ? container : local
                    try? editors[index].edit(side, step: round * 10 + step)
                }
                fileSystem.advanceTime(by: 1)
            }
            var seen = watch.next(waitingAtMost: .zero)
            // What failed last time, and folders whose rules the last sync changed, are looked at
            // again, as the watcher does.
            for side in 0..<2 { seen.changes[side, default: ChangedFolders()].formUnion(retried) }
            let planned = try engines[0].run(local: local, container: container, stateDirectory: state, options: dryRun)
            let syncScope = pollingContainer ? SyncScope(local: scope(seen).local, container: nil) : scope(seen)
            let plannedScoped = try engines[1].run(
                local: local, container: container, stateDirectory: state, options: dryRun, scope: syncScope)
            #expect(plannedScoped.planned == planned.planned, "seed \(seed) round \(round), events \(seen)")
            #expect(plannedScoped.moves == planned.moves, "seed \(seed) round \(round)")
            let result = Result {
                try engines[0].run(local: local, container: container, stateDirectory: state, options: options)
            }
            let resultScoped = Result {
                try engines[1].run(
                    local: local, container: container, stateDirectory: state, options: options, scope: syncScope)
            }
            // No random edit makes a whole run fail: every problem is a path's.
            let report = try result.get()
            let reportScoped = try resultScoped.get()
            retried = SyncWatcher.changes(after: reportScoped)
            #expect(reportScoped.failures.map(\.path) == report.failures.map(\.path), "seed \(seed) round \(round)")
            for root in [local, container] {
                #expect(try tree(root, scoped) == tree(root, whole), "seed \(seed) round \(round) \(root.path)")
            }
            // And the states they committed record the same entries.
            let states = try [whole, scoped].map { fileSystem in
                try ArchiveStore(
                    directories: fileSystem, files: fileSystem, stateDirectory: state, localRoot: local,
                    containerRoot: container
                ).load(moveAside: false, now: fileSystem.now).archive.entries.sorted { $0.key < $1.key }
            }
            let paths = states.map { Set($0.map(\.key.rawValue)) }
            let (onlyWhole, onlyScoped) = (
                paths[0].subtracting(paths[1]).sorted(), paths[1].subtracting(paths[0]).sorted()
            )
            #expect(
                paths[1] == paths[0], "seed \(seed) round \(round): paths only in one state \(onlyWhole), \(onlyScoped)"
            )
            // Identities left out: each twin's file system numbers its items in the order it made them.
            func bare(_ entry: Archive.Entry) -> Archive.Entry {
                var entry = entry
                (entry.localID, entry.containerID) = (0, 0)
                return entry
            }
            let differing =
                paths[0] != paths[1]
                ? []
                : zip(states[0], states[1]).filter { bare($0.0.value) != bare($0.1.value) }.map {
                    "\($0.0.key.rawValue): \($0.0.value) / \($0.1.value)"
                }
            #expect(differing.isEmpty, "seed \(seed) round \(round): their entries \(differing)")
        }
    }

    @Test("a one-file edit lists that file's folder only, on that side only")
    func listsOnlyTheChangedFolder() throws {
        var random = SplitMix64(seed: 7)
        let fileSystem = try seeded(&random)
        try fileSystem.write(Data("v2".utf8), to: local.appending(path: "a/b/new.txt"))
        fileSystem.resetCalls()
        let report = try engine(fileSystem).run(
            local: local, container: container, stateDirectory: state,
            scope: SyncScope(local: ChangedFolders(folders: ["a/b"]), container: ChangedFolders()))
        #expect(report.copiedToContainer == 1)
        let listed = fileSystem.calls.filter { $0.operation == .contentsOfDirectory }.compactMap(\.url?.path)
        #expect(listed.filter { !$0.contains("/.seams") && !$0.hasPrefix(state.path) } == ["/local/a/b"])
        #expect(read("a/b/new.txt", in: container, fileSystem) == "v2")
    }

    @Test("a changed folder that is gone, its parent not named, makes that side listed whole; nothing is lost")
    func goneFolderWithoutItsParent() throws {
        var random = SplitMix64(seed: 3)
        let fileSystem = try seeded(&random)
        try write("kept", "a/b/keep.txt", in: local, fileSystem)
        _ = try sync(fileSystem)
        try move("a/b", "d/b2", in: local, fileSystem)
        // Events that named only the old folder: the state cannot say where it went.
        let report = try engine(fileSystem).run(
            local: local, container: container, stateDirectory: state,
            scope: SyncScope(local: ChangedFolders(folders: ["a/b"]), container: ChangedFolders()))
        #expect(report.failures.isEmpty)
        #expect(read("d/b2/keep.txt", in: container, fileSystem) == "kept")
        #expect(read("a/b/keep.txt", in: container, fileSystem) == nil)
        #expect(try tree(local, fileSystem) == tree(container, fileSystem))
    }

    @Test("a folder moved out of a tree the events name, holding an ignored file on the other side: that file stays")
    func folderGoneFromATree() throws {
        var random = SplitMix64(seed: 11)
        let fileSystem = try seeded(&random)
        try write("*.moved\n", ".seamsignore", in: local, fileSystem)
        try write("kept", "a/b/c/keep.txt", in: local, fileSystem)
        _ = try sync(fileSystem)
        try write("only here", "a/b/c/note.moved", in: container, fileSystem)
        try move("a/b/c", "d/c2", in: local, fileSystem)
        // Events that name `a` as a tree (so no folder listing of `a/b` sees `c` gone) and `d`.
        let report = try engine(fileSystem).run(
            local: local, container: container, stateDirectory: state,
            scope: SyncScope(local: ChangedFolders(folders: ["d"], trees: ["a"]), container: ChangedFolders()))
        #expect(report.failures.isEmpty)
        #expect(read("d/c2/keep.txt", in: container, fileSystem) == "kept")
        #expect(read("a/b/c/keep.txt", in: container, fileSystem) == nil)
        // The ignored file is left where it was, not carried along by a move of the whole folder.
        #expect(read("a/b/c/note.moved", in: container, fileSystem) == "only here")
        #expect(read("d/c2/note.moved", in: container, fileSystem) == nil)
        #expect(report.moves.allSatisfy { $0.from != "a/b/c" })
    }

    @Test("a changed folder the state does not know, its parent not named, makes that side listed whole")
    func unknownFolderWithoutItsParent() throws {
        var random = SplitMix64(seed: 5)
        let fileSystem = try seeded(&random)
        try write("fresh", "z/y/new.txt", in: local, fileSystem)
        let report = try engine(fileSystem).run(
            local: local, container: container, stateDirectory: state,
            scope: SyncScope(local: ChangedFolders(folders: ["z/y"]), container: ChangedFolders()))
        #expect(report.failures.isEmpty)
        #expect(read("z/y/new.txt", in: container, fileSystem) == "fresh")
    }

    @Test("an unreadable changed folder is reported as a whole sync reports it, and nothing under it is deleted")
    func unreadableChangedFolder() throws {
        var random = SplitMix64(seed: 9)
        let fileSystem = try seeded(&random)
        try write("x", "d/x.txt", in: local, fileSystem)
        _ = try sync(fileSystem)
        try fileSystem.setPermissions(0o000, at: local.appending(path: "d"))
        defer { try? fileSystem.setPermissions(0o755, at: local.appending(path: "d")) }
        let report = try engine(fileSystem).run(
            local: local, container: container, stateDirectory: state,
            scope: SyncScope(local: ChangedFolders(folders: ["d"]), container: ChangedFolders()))
        #expect(read("d/x.txt", in: container, fileSystem) == "x")
        #expect(report.deletedContainer == 0)
    }

    @Test("the folders of a scope are listed in path order, those inside a listed tree left out")
    func listedOrder() {
        let changes = ChangedFolders(folders: ["a/b", "", "a/b/c", "x"], trees: ["a", "q"])
        let listed = changes.listed.map { ($0.folder?.rawValue ?? "", $0.tree) }
        #expect(listed.map(\.0) == ["", "a", "q", "x"])
        #expect(listed.map(\.1) == [false, true, true, false])
    }
}
