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

    @Test("over random edits on both sides, a sync listing only the folders the events name plans what a whole sync plans", arguments: 0..<60)
    func incrementalPlansAsWhole(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let fileSystem = try seeded(&random)
        var editor = Editor(random: random, fileSystem: fileSystem)
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let engine = engine(fileSystem)
        for round in 0..<4 {
            let watch = try events.watch([local, container]) { _, _ in false }
            fileSystem.advanceTime(by: 1)
            for step in 0..<(1 + Int(editor.random.next() % 4)) {
                try editor.edit(editor.random.next() % 3 == 0 ? container : local, step: round * 10 + step)
            }
            let seen = watch.next(waitingAtMost: .zero)
            watch.close()
            var dryRun = SyncOptions()
            dryRun.dryRun = true
            dryRun.force = true
            fileSystem.advanceTime(by: 1)
            let whole = try engine.run(local: local, container: container, stateDirectory: state, options: dryRun)
            let scoped = try engine.run(
                local: local, container: container, stateDirectory: state, options: dryRun, scope: scope(seen))
            #expect(scoped.planned == whole.planned, "seed \(seed) round \(round), events \(seen)")
            #expect(scoped.moves == whole.moves, "seed \(seed) round \(round)")
            var options = SyncOptions()
            options.force = true
            let report = try engine.run(
                local: local, container: container, stateDirectory: state, options: options, scope: scope(seen))
            #expect(report.failures.isEmpty)
            // Nothing left to do: a whole sync afterwards plans nothing.
            let after = try engine.run(local: local, container: container, stateDirectory: state, options: dryRun)
            #expect(after.planned.isEmpty, "seed \(seed) round \(round): \(after.planned)")
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
