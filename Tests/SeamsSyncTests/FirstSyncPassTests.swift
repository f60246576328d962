import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A first sync runs in passes (``FirstSyncStage``): each side walked in path order, a bounded
/// number of paths planned and applied at a time. However the passes fall, the run ends where one
/// pass ends: the same folders, the same state, the same counts.
@Suite struct FirstSyncPassTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    /// Two folders that hold what a first sync meets: files and folders on one side or both, the
    /// same or different, a folder against a file, names that sort next to a folder's items,
    /// `.seamsignore` files at the root and below, an ignored folder, the tool's own names, a link.
    func tree() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        func write(_ text: String, _ path: String, in root: URL) throws {
            let url = root.appending(path: path)
            try fileSystem.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileSystem.write(Data(text.utf8), to: url)
        }
        try write("node_modules/\n", ".seamsignore", in: local)
        for path in ["a", "a.txt", "a b/one.txt", "b/x.txt", "b/sub/z.txt", "b/sub/deeper/w.txt", "b.txt", "é.txt"] {
            try write("local \(path)", path, in: local)
        }
        try write("*.log\n", "b/.seamsignore", in: local)
        try write("a log", "b/skip.log", in: local)
        for n in 0..<12 { try write("module \(n)", "node_modules/m\(n).js", in: local) }
        try write("reserved", "b/.seams-mine", in: local)
        try fileSystem.createSymbolicLink(at: local.appending(path: "b/link"), withDestination: "x.txt")
        for path in ["same.txt", "b/same.txt", "b/sub/same.txt"] {
            try write("the same on both", path, in: local)
            try write("the same on both", path, in: container)
        }
        try write("local, 15 bytes", "differs.txt", in: local)
        // Between the conflict copy's name and its file's: the copy's entry comes after a later path.
        try write("between", "differs.sz", in: local)
        try write("other, 15 byte", "differs.txt", in: container)
        try write("local, longer than the other", "b/sub/differs.txt", in: local)
        try write("container", "b/sub/differs.txt", in: container)
        try write("a folder here", "clash/f.txt", in: local)
        try write("a file there", "clash", in: container)
        for n in 0..<9 { try write("container \(n)", "e/deep/f\(n).txt", in: container) }
        try write("container only", "c.txt", in: container)
        try write("in the container's own b", "b/sub/c.txt", in: container)
        return fileSystem
    }

    func engine(_ fileSystem: InMemoryFileSystem, passItems: Int) -> SyncEngine {
        var engine = SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", runID: { "r" },
            scansConcurrently: false)
        engine.firstSyncPassItems = passItems
        return engine
    }

    /// Every item under `root` by path, with a file's text or a link's target; folders end in `/`.
    func contents(_ fileSystem: InMemoryFileSystem, under root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        var pending: [(String, URL)] = [("", root)]
        while let (prefix, url) = pending.popLast() {
            for entry in try fileSystem.contentsOfDirectory(at: url) {
                let path = prefix + entry.name
                let child = url.appending(path: entry.name)
                switch entry.metadata.kind {
                case .directory:
                    result[path + "/"] = ""
                    pending.append((path + "/", child))
                case .symbolicLink:
                    result[path] = "→ " + (try fileSystem.destinationOfSymbolicLink(at: child))
                default:
                    result[path] = String(decoding: try fileSystem.read(from: child), as: UTF8.self)
                }
            }
        }
        return result
    }

    @Test(
        "a first sync in passes of any size ends where one pass ends: the same folders, state and counts",
        arguments: [1, 2, 3, 7])
    func passesEndAlike(passItems: Int) throws {
        let whole = try tree()
        let wholeReport = try engine(whole, passItems: 1_000).run(
            local: local, container: container, stateDirectory: state)
        let passed = try tree()
        let report = try engine(passed, passItems: passItems).run(
            local: local, container: container, stateDirectory: state)

        #expect(report.failures == wholeReport.failures)
        #expect(report.conflicts.count == 3 && report.conflicts == wholeReport.conflicts)
        #expect(
            report.copiedToLocal == wholeReport.copiedToLocal
                && report.copiedToContainer == wholeReport.copiedToContainer)
        #expect(report.inSync == wholeReport.inSync && report.foldersCreated == wholeReport.foldersCreated)
        #expect(
            Set(report.skipped) == Set(wholeReport.skipped) && report.skipped.contains { $0.path == "b/.seams-mine" })
        #expect(report.ignored.sorted() == wholeReport.ignored.sorted())
        #expect(report.ignored.contains("node_modules") && report.ignored.contains("b/skip.log"))
        // The container's marker names a new replica each time: the rest is the same.
        for root in [local, container] {
            #expect(
                try contents(passed, under: root).filter { $0.key != ".seams-replica" }
                    == contents(whole, under: root).filter { $0.key != ".seams-replica" }, "\(root.path)")
        }
        // The same state: every path the passes recorded, as one pass records it.
        let stateFiles = try whole.contentsOfDirectory(at: state).map(\.name).filter { $0.hasSuffix(".archive") }
        #expect(stateFiles.count == 1)
        for name in stateFiles {
            let entries = try ArchiveCodec.decode(passed.read(from: state.appending(path: name))).entries
            let wholeEntries = try ArchiveCodec.decode(whole.read(from: state.appending(path: name))).entries
            #expect(entries.count > 20 && Array(entries.keys) == Array(wholeEntries.keys))
            // The identities are the files' own (new files are numbered in the order they are made).
            func withoutIDs(_ entry: Archive.Entry) -> Archive.Entry {
                var entry = entry
                (entry.localID, entry.containerID) = (0, 0)
                return entry
            }
            #expect(entries.values.map(withoutIDs) == wholeEntries.values.map(withoutIDs))
            // (0 where the run does not know it: the folder a conflict with a file put in place.)
            var unknown = 0
            for (path, entry) in entries {
                let ids = try Side.allCases.map { side in
                    try passed.metadata(at: path.url(in: side == .local ? local : container)).fileIdentifier
                }
                #expect(entry.localID == 0 || entry.localID == ids[0], "\(path)")
                #expect(entry.containerID == 0 || entry.containerID == ids[1], "\(path)")
                if entry.localID == 0 || entry.containerID == 0 { unknown += 1 }
            }
            #expect(unknown == 1)
        }
        // Less what the rules and the tool's own names leave out, the sides are equal, and the
        // next run finds every path in sync.
        let own = { (path: String) in path.hasPrefix(".seams") && path != ".seamsignore" }
        let synced = try contents(passed, under: local).filter {
            !$0.key.hasPrefix("node_modules") && $0.key != "b/skip.log" && $0.key != "b/.seams-mine" && !own($0.key)
        }
        #expect(synced == (try contents(passed, under: container).filter { !own($0.key) }))
        let again = try engine(passed, passItems: passItems).run(
            local: local, container: container, stateDirectory: state)
        #expect(again.copiedToLocal == 0 && again.copiedToContainer == 0 && again.conflicts.isEmpty)
        #expect(again.failures.isEmpty && again.inSync == synced.count)
    }

    @Test("a first sync stopped between two passes records what the passes before did")
    func stoppedBetweenPasses() throws {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        for n in 1...6 { try fileSystem.write(Data("file \(n)".utf8), to: local.appending(path: "f\(n).txt")) }
        let stop = SyncStopToken()
        // The end of the first pass's apply: its last progress says every path of it is done.
        let report = try engine(fileSystem, passItems: 2).run(
            local: local, container: container, stateDirectory: state, stop: stop,
            progress: { progress in
                if progress.phase == .applying, progress.completed == 2, progress.total == 2 { stop.requestStop() }
            })
        #expect(report.interruption == SyncReport.Interruption(done: 2, total: 2))
        #expect(report.copiedToContainer == 2)
        let stateFile = try #require(
            try fileSystem.contentsOfDirectory(at: state).first { $0.name.hasSuffix(".archive") })
        let recorded = try ArchiveCodec.decode(fileSystem.read(from: state.appending(path: stateFile.name))).entries
        #expect(Array(recorded.keys) == [SyncPath("f1.txt"), SyncPath("f2.txt")])
        let rest = try engine(fileSystem, passItems: 2).run(local: local, container: container, stateDirectory: state)
        #expect(rest.copiedToContainer == 4 && rest.inSync == 2 && rest.interruption == nil)
    }

    @Test("an unreadable folder holds back the other side's items under it in every pass, as in one")
    func unreadableFolderAcrossPasses() throws {
        var outcomes: [[String]] = []
        for passItems in [1_000, 2] {
            let fileSystem = InMemoryFileSystem()
            for folder in [local, container] {
                try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
            }
            try fileSystem.createDirectory(at: local.appending(path: "u"), withIntermediateDirectories: false)
            try fileSystem.createDirectory(at: container.appending(path: "u"), withIntermediateDirectories: false)
            for n in 1...5 {
                try fileSystem.write(Data("in u \(n)".utf8), to: container.appending(path: "u/f\(n).txt"))
            }
            try fileSystem.write(Data("after".utf8), to: container.appending(path: "v.txt"))
            let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
            boundary.addRule(.operation(.contentsOfDirectory, at: local.appending(path: "u"), fails: .permissionDenied))
            var engine = SyncEngine(
                directories: boundary, files: boundary, clock: { fileSystem.now }, owner: "test", runID: { "r" },
                scansConcurrently: false)
            engine.firstSyncPassItems = passItems
            let report = try engine.run(local: local, container: container, stateDirectory: state)
            // Nothing written into the folder this side cannot read; the file after it synced.
            #expect(try fileSystem.contentsOfDirectory(at: local.appending(path: "u")).isEmpty, "\(passItems)")
            #expect(try fileSystem.read(from: local.appending(path: "v.txt")) == Data("after".utf8))
            outcomes.append(
                (report.skipped + report.failures).map { "\($0.path): \($0.reason)" }.sorted()
                    + ["copied \(report.copiedToLocal)"])
        }
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[0].last == "copied 1")
    }
}
