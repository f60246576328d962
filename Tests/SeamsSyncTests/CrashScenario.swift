import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// One starting state for the crash-consistency suite.
struct CrashScenario: Sendable, CustomTestStringConvertible {
    let name: String
    /// The options of every run of the scenario, its setup syncs included.
    let options: SyncOptions
    let setup: @Sendable (inout ScenarioBuilder) throws -> Void
    /// A file the user saves while the run under test is going, if any.
    let duringRun: UserSave?
    /// Whether the container's names fold case, as on FAT and exFAT (the local side's never do).
    let foldingContainer: Bool

    /// Where the rules put every version once the run (and, with a save during it, the next
    /// run) is done: each user path of the converged folders with its text (a folder ends in `/`,
    /// a link's text is `link → target`), conflict copies under `<path> (conflict copy)`; and what
    /// the trash holds, by the path each version had. Stated from the rules, not read off the
    /// engine: a version in the trash where the rules say conflict copy fails the scenario.
    var expected: Expected?

    /// The end state a scenario's rules give (see ``expected``).
    struct Expected: Sendable {
        /// Path (or `<path> (conflict copy)`) → text, the same on both sides.
        var files: [String: String]
        /// Path → the texts the trash of either side keeps of it.
        var trash: [String: [String]] = [:]
    }

    /// Whether the run copies several plain files, so that copies, placements and the background
    /// flush can go at once: the scenario also runs in seeded interleavings of that work.
    var copiesAtOnce = false

    /// The paths a pass of a first sync takes at most, when the scenario makes passes small.
    var firstSyncPassItems: Int?

    /// Folders the scenario's ignore rules leave out of the sync (`ignored/`): what is under them
    /// may be on one side only, and the two sides are compared without them.
    var ignoredFolders: [SyncPath] = []

    /// This scenario with the end state its rules give.
    ///
    /// - Parameters:
    ///   - files: Path (or `<path> (conflict copy)`) → text on the local side, which the
    ///     container mirrors (less the names a case-folding container cannot hold apart).
    ///   - trash: Path → the texts the trash keeps of it.
    func expecting(_ files: [String: String], trash: [String: [String]] = [:]) -> CrashScenario {
        var scenario = self
        scenario.expected = Expected(files: files, trash: trash)
        return scenario
    }

    /// This scenario, its sides compared without what is under `folders` (which its ignore rules
    /// leave out of the sync).
    func leavingOut(_ folders: String...) -> CrashScenario {
        var scenario = self
        scenario.ignoredFolders = folders.map(SyncPath.init)
        return scenario
    }

    /// This scenario with a first sync in passes of at most `items` paths.
    func inPasses(of items: Int) -> CrashScenario {
        var scenario = self
        scenario.firstSyncPassItems = items
        return scenario
    }

    /// This scenario, also run with its copies at once in seeded interleavings.
    var atOnce: CrashScenario {
        var scenario = self
        scenario.copiesAtOnce = true
        return scenario
    }

    var testDescription: String { name }

    init(
        _ name: String, options: SyncOptions = SyncOptions(), duringRun: UserSave? = nil,
        foldingContainer: Bool = false,
        _ setup: @escaping @Sendable (inout ScenarioBuilder) throws -> Void
    ) {
        self.name = name
        self.options = options
        self.duringRun = duringRun
        self.foldingContainer = foldingContainer
        self.setup = setup
    }

    /// A save the user makes during the run under test: `text` written to `path` and flushed (file
    /// and folder), just before the call at `fraction` of an uninterrupted run's calls. When the
    /// crash or the power cut comes first, the user saves after it, before the recovery run. The
    /// saved text is the newest version of the path: it must end at the path or in a conflict copy
    /// beside it, never only in the trash.
    struct UserSave: Sendable {
        let side: Side
        let path: String
        let text: String
        let fraction: Double
    }

    /// Options whose copies wait for a flush in batches of `count`.
    static func batches(of count: Int) -> SyncOptions {
        var options = SyncOptions()
        options.copyBatchCount = count
        return options
    }

    /// Options that let a run delete every item (a folder renamed on a small tree deletes most of it).
    static let deleteAny: SyncOptions = {
        var options = SyncOptions()
        options.maxDeletePercent = 100
        return options
    }()
}

extension CrashScenario {
    /// The scenarios the suites run: ``every``, or those whose name contains
    /// `SEAMS_CRASH_SCENARIO` when it is set (to sweep one scenario while working on it).
    static let all: [CrashScenario] = {
        guard let only = ProcessInfo.processInfo.environment["SEAMS_CRASH_SCENARIO"], !only.isEmpty else {
            return every
        }
        return every.filter { $0.name.contains(only) }
    }()

    /// Sixty-odd scenarios covering every decision rule, folders, moves, conflicts and recovery.
    static let every: [CrashScenario] = [
        .init("first sync, local to an empty container") { b in
            try b.write(.local, "a.txt", "alpha")
            try b.write(.local, "d/b.txt", "beta")
            try b.folder(.local, "empty")
        }.atOnce.expecting(
            ["a.txt": "alpha", "d/": "", "d/b.txt": "beta", "empty/": ""]),
        .init("first sync, container to an empty local folder") { b in
            try b.write(.container, "a.txt", "alpha")
            try b.write(.container, "d/e/b.txt", "beta")
        }.expecting(
            ["a.txt": "alpha", "d/": "", "d/e/": "", "d/e/b.txt": "beta"]),
        .init("first sync, different files on both sides") { b in
            try b.write(.local, "l.txt", "from local")
            try b.write(.container, "c.txt", "from container")
        }.expecting(
            ["c.txt": "from container", "l.txt": "from local"]),
        .init("first sync, same file on both sides") { b in
            try b.write(.local, "same.txt", "identical")
            try b.write(.container, "same.txt", "identical")
        }.expecting(
            ["same.txt": "identical"]),
        .init("first sync, same name, different content") { b in
            try b.write(.local, "x.txt", "local x")
            b.tick()
            try b.write(.container, "x.txt", "container x, longer")
        }.expecting(
            ["x.txt": "container x, longer", "x.txt (conflict copy)": "local x"]),
        .init("links: new ones go across, one retargeted, one deleted") { b in
            try b.write(.local, "a.txt", "alpha")
            try b.link(.local, "old", to: "a.txt")
            try b.link(.local, "gone", to: "x")
            try b.sync()
            try b.link(.local, "new", to: "../outside")
            try b.link(.container, "old", to: "a-much-longer-target.txt")
            try b.remove(.local, "gone")
        }.expecting(
            ["a.txt": "alpha", "new": "link → ../outside", "old": "link → a-much-longer-target.txt"],
            trash: ["gone": ["link → x"], "old": ["link → a.txt"]]),
        .init("a link became a file in the container") { b in
            try b.write(.local, "k.txt", "k")
            try b.link(.local, "l", to: "k.txt")
            try b.sync()
            try b.remove(.container, "l")
            try b.write(.container, "l", "now a file")
        }.expecting(
            ["k.txt": "k", "l": "now a file"],
            trash: ["l": ["link → k.txt"]]),
        .init("links changed on both sides: conflict, both kept as links") { b in
            try b.link(.local, "l", to: "v1")
            try b.sync()
            try b.link(.local, "l", to: "local-target")
            b.tick()
            try b.link(.container, "l", to: "container-target")
        }.expecting(
            ["l": "link → container-target", "l (conflict copy)": "link → local-target"]),
        .init(
            "more copies than one flush batch holds (batches of 2): new, edited and replaced files",
            options: batches(of: 2)
        ) { b in
            try b.write(.local, "e1.txt", "edit me 1")
            try b.write(.local, "e2.txt", "edit me 2")
            try b.sync()
            for n in 1...3 { try b.write(.local, "new\(n).txt", "new \(n)") }
            try b.write(.local, "e1.txt", "edited 1, local")
            try b.write(.container, "e2.txt", "edited 2, container")
        }.atOnce.expecting(
            [
                "e1.txt": "edited 1, local", "e2.txt": "edited 2, container", "new1.txt": "new 1", "new2.txt": "new 2",
                "new3.txt": "new 3",
            ],
            trash: ["e1.txt": ["edit me 1"], "e2.txt": ["edit me 2"]]),
        .init("a first sync in passes of 2: new files on both sides, one the same on both, one different") { b in
            try b.write(.local, "a.txt", "a local")
            try b.write(.local, "d/x.txt", "x local")
            try b.write(.local, "d/y.txt", "y local")
            try b.write(.local, "same.txt", "the same on both")
            try b.write(.container, "same.txt", "the same on both")
            try b.write(.container, "c.txt", "c in the container")
            try b.write(.container, "d/z.txt", "z in the container")
            try b.write(.local, "both.txt", "both, local")
            b.tick()
            try b.write(.container, "both.txt", "both, the container's")
        }.inPasses(of: 2).atOnce.expecting(
            [
                "a.txt": "a local", "both.txt": "both, the container's", "both.txt (conflict copy)": "both, local",
                "c.txt": "c in the container", "d/": "", "d/x.txt": "x local", "d/y.txt": "y local",
                "d/z.txt": "z in the container", "same.txt": "the same on both",
            ]),
        .init("a .seamsignore added that names a synced file, while another file is edited") { b in
            try b.write(.local, "a.log", "log v1")
            try b.write(.local, "b.txt", "b v1")
            try b.write(.local, "c.txt", "c")
            try b.sync()
            try b.write(.local, ".seamsignore", "*.log\n")
            try b.write(.container, "b.txt", "b v2 container")
        }.expecting(
            [".seamsignore": "*.log\n", "a.log": "log v1", "b.txt": "b v2 container", "c.txt": "c"],
            trash: ["b.txt": ["b v1"]]),
        .init("edit on the local side") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.local, "a.txt", "v2 local")
        }.expecting(
            ["a.txt": "v2 local"],
            trash: ["a.txt": ["v1"]]),
        .init("a killed run's lock in the container, an edit to sync") { b in
            try b.write(.local, "a.txt", "v1")
            try b.write(.local, "b.txt", "b")
            try b.sync()
            try b.write(.local, "a.txt", "v2 local")
            try b.killedRunsLock()
        }.expecting(
            ["a.txt": "v2 local", "b.txt": "b"],
            trash: ["a.txt": ["v1"]]),
        .init("edit in the container") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.container, "a.txt", "v2 container")
        }.expecting(
            ["a.txt": "v2 container"],
            trash: ["a.txt": ["v1"]]),
        .init("edits on both sides: conflict") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.local, "a.txt", "v2 local")
            b.tick()
            try b.write(.container, "a.txt", "v2 container!")
        }.expecting(
            ["a.txt": "v2 container!", "a.txt (conflict copy)": "v2 local"]),
        .init("edits on both sides, same size, different bytes") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.container, "a.txt", "AAAA")
            b.tick()
            try b.write(.local, "a.txt", "BBBB")
        }.expecting(
            ["a.txt": "BBBB", "a.txt (conflict copy)": "AAAA"]),
        .init("the same edit on both sides") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.local, "a.txt", "same edit")
            b.tick()
            try b.write(.container, "a.txt", "same edit")
        }.expecting(
            ["a.txt": "same edit"]),
        .init("delete on the local side") { b in
            for n in 1...4 { try b.write(.local, "f\(n).txt", "file \(n)") }
            try b.sync()
            try b.remove(.local, "f2.txt")
        }.expecting(
            ["f1.txt": "file 1", "f3.txt": "file 3", "f4.txt": "file 4"],
            trash: ["f2.txt": ["file 2"]]),
        .init("delete in the container") { b in
            for n in 1...4 { try b.write(.local, "f\(n).txt", "file \(n)") }
            try b.sync()
            try b.remove(.container, "f3.txt")
        }.expecting(
            ["f1.txt": "file 1", "f2.txt": "file 2", "f4.txt": "file 4"],
            trash: ["f3.txt": ["file 3"]]),
        .init("deleted locally, edited in the container") { b in
            try b.write(.local, "a.txt", "v1")
            try b.write(.local, "b.txt", "keep")
            try b.sync()
            try b.remove(.local, "a.txt")
            try b.write(.container, "a.txt", "v2 container")
        }.expecting(
            ["a.txt": "v2 container", "b.txt": "keep"]),
        .init("a folder deleted locally") { b in
            try b.write(.local, "d/x.txt", "x")
            try b.write(.local, "d/y.txt", "y")
            for n in 1...4 { try b.write(.local, "f\(n).txt", "file \(n)") }
            try b.sync()
            try b.remove(.local, "d")
        }.expecting(
            ["f1.txt": "file 1", "f2.txt": "file 2", "f3.txt": "file 3", "f4.txt": "file 4"],
            trash: ["d/x.txt": ["x"], "d/y.txt": ["y"]]),
        .init("a folder deleted locally while the container added to it") { b in
            try b.write(.local, "d/x.txt", "x")
            try b.write(.local, "keep.txt", "k")
            try b.sync()
            try b.remove(.local, "d")
            try b.write(.container, "d/new.txt", "new in container")
        }.expecting(
            ["d/": "", "d/new.txt": "new in container", "keep.txt": "k"],
            trash: ["d/x.txt": ["x"]]),
        .init("a file became a folder locally") { b in
            try b.write(.local, "t", "was a file")
            try b.write(.local, "keep.txt", "k")
            try b.sync()
            try b.remove(.local, "t")
            try b.write(.local, "t/inside.txt", "now a folder")
        }.expecting(
            ["keep.txt": "k", "t/": "", "t/inside.txt": "now a folder"],
            trash: ["t": ["was a file"]]),
        .init("a folder became a file in the container") { b in
            try b.write(.local, "t/inside.txt", "was inside")
            for n in 1...3 { try b.write(.local, "keep\(n).txt", "keep \(n)") }
            try b.sync()
            try b.remove(.container, "t")
            try b.write(.container, "t", "now a file")
        }.expecting(
            ["keep1.txt": "keep 1", "keep2.txt": "keep 2", "keep3.txt": "keep 3", "t": "now a file"],
            trash: ["t/inside.txt": ["was inside"]]),
        .init("a file here, a folder there, both new") { b in
            try b.write(.local, "x", "local file")
            try b.write(.container, "x/y.txt", "container folder")
        }.expecting(
            ["x (conflict copy)": "local file", "x/": "", "x/y.txt": "container folder"]),
        .init("a new empty folder locally") { b in
            try b.write(.local, "a.txt", "a")
            try b.sync()
            try b.folder(.local, "new/empty")
        }.expecting(
            ["a.txt": "a", "new/": "", "new/empty/": ""]),
        .init("an empty folder deleted in the container") { b in
            try b.write(.local, "a.txt", "a")
            try b.write(.local, "b.txt", "b")
            try b.folder(.local, "e")
            try b.sync()
            try b.remove(.container, "e")
        }.expecting(
            ["a.txt": "a", "b.txt": "b"]),
        .init("a rename on the local side") { b in
            try b.write(.local, "old name.txt", "renamed content")
            try b.write(.local, "b.txt", "b")
            try b.sync()
            try b.remove(.local, "old name.txt")
            try b.write(.local, "new name.txt", "renamed content")
        }.expecting(
            ["b.txt": "b", "new name.txt": "renamed content"],
            trash: ["old name.txt": ["renamed content"]]),
        .init("many new files on both sides") { b in
            for n in 1...5 {
                try b.write(.local, "l/\(n).txt", "local \(n)")
                try b.write(.container, "c/\(n).txt", "container \(n)")
            }
        }.atOnce.expecting(
            [
                "c/": "", "c/1.txt": "container 1", "c/2.txt": "container 2", "c/3.txt": "container 3",
                "c/4.txt": "container 4", "c/5.txt": "container 5", "l/": "", "l/1.txt": "local 1",
                "l/2.txt": "local 2", "l/3.txt": "local 3", "l/4.txt": "local 4", "l/5.txt": "local 5",
            ]),
        .init("a deep new tree") { b in
            try b.write(.local, "a/b/c/d/e/f.txt", "deep")
            try b.write(.local, "a/b/x.txt", "mid")
        }.expecting(
            [
                "a/": "", "a/b/": "", "a/b/c/": "", "a/b/c/d/": "", "a/b/c/d/e/": "", "a/b/c/d/e/f.txt": "deep",
                "a/b/x.txt": "mid",
            ]),
        .init("edits and deletes on both sides") { b in
            for n in 1...5 { try b.write(.local, "f\(n).txt", "file \(n)") }
            try b.sync()
            try b.write(.local, "f1.txt", "f1 edited")
            try b.remove(.local, "f2.txt")
            try b.write(.container, "f3.txt", "f3 edited")
            try b.write(.container, "f6.txt", "new")
        }.atOnce.expecting(
            ["f1.txt": "f1 edited", "f3.txt": "f3 edited", "f4.txt": "file 4", "f5.txt": "file 5", "f6.txt": "new"],
            trash: ["f1.txt": ["file 1"], "f2.txt": ["file 2"], "f3.txt": ["file 3"]]),
        .init("a conflict the local side wins") { b in
            try b.write(.local, "a.md", "v1")
            try b.sync()
            try b.write(.container, "a.md", "container older")
            b.tick()
            try b.write(.local, "a.md", "local newer, longer")
        }.expecting(
            ["a.md": "local newer, longer", "a.md (conflict copy)": "container older"]),
        .init("a conflict in a subfolder") { b in
            try b.write(.local, "p/q/a.txt", "v1")
            try b.sync()
            try b.write(.local, "p/q/a.txt", "L")
            b.tick()
            try b.write(.container, "p/q/a.txt", "container wins")
        }.expecting(
            ["p/": "", "p/q/": "", "p/q/a.txt": "container wins", "p/q/a.txt (conflict copy)": "L"]),
        .init("a file touched, content the same") { b in
            try b.write(.local, "a.txt", "unchanged")
            try b.sync()
            try b.write(.local, "a.txt", "unchanged")
        }.expecting(
            ["a.txt": "unchanged"],
            trash: ["a.txt": ["unchanged"]]),
        .init("a temp file left by an interrupted run") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.container, ".seams-tmp-old-1", "torn leftover")
            try b.write(.local, "a.txt", "v2")
        }.expecting(
            ["a.txt": "v2"],
            trash: ["a.txt": ["v1"]]),
        .init("a damaged state file") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            let state = try b.harness.fileSystem.contentsOfDirectory(at: CrashHarness.state).filter {
                $0.name.hasPrefix("pair-")
            }
            for entry in state {
                try b.harness.fileSystem.write(Data("garbage".utf8), to: CrashHarness.state.appending(path: entry.name))
            }
            try b.write(.local, "a.txt", "v2 local")
            try b.write(.container, "b.txt", "new")
        }.expecting(
            ["a.txt": "v2 local", "a.txt (conflict copy)": "v1", "b.txt": "new"]),
        .init("a conflict whose copy name is taken") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.local, "a.txt", "L2")
            let date = try b.harness.fileSystem.metadata(at: CrashHarness.local.appending(path: "a.txt"))
                .modificationDate
            b.tick()
            try b.write(.container, "a.txt", "container 2")
            let taken = ConflictNamer().conflictPath(for: SyncPath("a.txt"), origin: .local, modified: date) { _ in
                false
            }
            try b.write(.local, taken.rawValue, "unrelated")
        }.expecting(
            ["a.txt": "container 2", "a.txt (conflict copy)": "L2 | unrelated"]),
        .init("an edit locally and a new folder in the container") { b in
            try b.write(.local, "a.txt", "v1")
            try b.sync()
            try b.write(.local, "a.txt", "v2")
            try b.write(.container, "n/m.txt", "nested new")
        }.expecting(
            ["a.txt": "v2", "n/": "", "n/m.txt": "nested new"],
            trash: ["a.txt": ["v1"]]),
        .init("names in NFC and NFD side by side") { b in
            try b.write(.local, "caf\u{E9}.txt", "nfc")
            try b.write(.local, "cafe\u{301}.txt", "nfd")
        }.expecting(
            ["café.txt": "nfc | nfd"]),
        .init("deleted on both sides") { b in
            for n in 1...4 { try b.write(.local, "f\(n).txt", "file \(n)") }
            try b.sync()
            try b.remove(.local, "f1.txt")
            try b.remove(.container, "f1.txt")
        }.expecting(
            ["f2.txt": "file 2", "f3.txt": "file 3", "f4.txt": "file 4"]),
        .init("a folder renamed locally") { b in
            try b.write(.local, "old/x.txt", "x in the folder")
            try b.write(.local, "old/y.txt", "y in the folder")
            for n in 1...4 { try b.write(.local, "k\(n).txt", "keep \(n)") }
            try b.sync()
            try b.move(.local, "old", to: "new")
        }.expecting(
            [
                "k1.txt": "keep 1", "k2.txt": "keep 2", "k3.txt": "keep 3", "k4.txt": "keep 4", "new/": "",
                "new/x.txt": "x in the folder", "new/y.txt": "y in the folder",
            ]),
        .init("a folder renamed in the container, a file in it edited locally and another deleted there") { b in
            try b.write(.local, "old/x.txt", "x v1")
            try b.write(.local, "old/y.txt", "y")
            try b.write(.local, "old/z.txt", "z")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.move(.container, "old", to: "new")
            try b.remove(.container, "new/z.txt")
            try b.write(.local, "old/x.txt", "x v2 local")
        }.expecting(
            ["k.txt": "keep", "new/": "", "new/x.txt": "x v2 local", "new/y.txt": "y"],
            trash: ["new/x.txt": ["x v1"], "new/z.txt": ["z"]]),
        .init("a file moved locally into a folder new there, renamed in another, edited in the container") { b in
            try b.write(.local, "a.txt", "a v1")
            try b.write(.local, "d/b.txt", "b")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.folder(.local, "new/deeper")
            try b.move(.local, "a.txt", to: "new/deeper/a.txt")
            try b.move(.local, "d/b.txt", to: "d/c.txt")
            try b.write(.container, "a.txt", "a v2 container")
        }.expecting(
            [
                "d/": "", "d/c.txt": "b", "k.txt": "keep", "new/": "", "new/deeper/": "",
                "new/deeper/a.txt": "a v2 container",
            ],
            trash: ["new/deeper/a.txt": ["a v1"]]),
        .init("a folder with a subfolder renamed in the container") { b in
            try b.write(.local, "old/x.txt", "x in the folder")
            try b.write(.local, "old/sub/y.txt", "y in the subfolder")
            for n in 1...3 { try b.write(.local, "k\(n).txt", "keep \(n)") }
            try b.sync()
            try b.move(.container, "old", to: "new")
        }.expecting(
            [
                "k1.txt": "keep 1", "k2.txt": "keep 2", "k3.txt": "keep 3", "new/": "", "new/sub/": "",
                "new/sub/y.txt": "y in the subfolder",
                "new/x.txt": "x in the folder",
            ]),
        .init("a chain of renames locally: b.txt to c.txt, then a.txt to b.txt") { b in
            try b.write(.local, "a.txt", "a")
            try b.write(.local, "b.txt", "bb")
            try b.write(.local, "k.txt", "keep")
            try b.write(.local, "l.txt", "keep too")
            try b.sync()
            try b.move(.local, "b.txt", to: "c.txt")
            try b.move(.local, "a.txt", to: "b.txt")
        }.expecting(
            ["b.txt": "a", "c.txt": "bb", "k.txt": "keep", "l.txt": "keep too"]),
        .init("two files swapped in the container") { b in
            try b.write(.local, "a.txt", "a")
            try b.write(.local, "b.txt", "bb")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.move(.container, "a.txt", to: "t.txt")
            try b.move(.container, "b.txt", to: "a.txt")
            try b.move(.container, "t.txt", to: "b.txt")
        }.expecting(
            ["a.txt": "bb", "b.txt": "a", "k.txt": "keep"]),
        .init("two folders swapped locally, a file that moves with them edited in the container") { b in
            try b.write(.local, "x/one.txt", "x one")
            try b.write(.local, "x/two.txt", "x two, longer")
            try b.write(.local, "y/one.txt", "y one, longest of all")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.move(.local, "x", to: "t")
            try b.move(.local, "y", to: "x")
            try b.move(.local, "t", to: "y")
            try b.write(.container, "x/two.txt", "x two, edited in the container")
        }.expecting(
            [
                "k.txt": "keep", "x/": "", "x/one.txt": "y one, longest of all", "y/": "", "y/one.txt": "x one",
                "y/two.txt": "x two, edited in the container",
            ],
            trash: ["y/two.txt": ["x two, longer"]]),
        .init("a file renamed to different names on the two sides") { b in
            try b.write(.local, "a.txt", "a")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.move(.local, "a.txt", to: "b.txt")
            try b.move(.container, "a.txt", to: "c.txt")
        }.expecting(
            ["b.txt": "a", "c.txt": "a", "k.txt": "keep"]),
        .init("a file moved into an ignored folder locally, another moved out of it") { b in
            try b.write(.local, ".seamsignore", "ignored/\n")
            try b.write(.local, "a.txt", "a")
            try b.write(.local, "k.txt", "keep")
            try b.write(.local, "ignored/b.txt", "b, never synced")
            try b.sync()
            try b.move(.local, "a.txt", to: "ignored/a.txt")
            try b.move(.local, "ignored/b.txt", to: "b.txt")
        }.leavingOut("ignored/").expecting(
            // Out of sync: a deletion on the other side (the version kept in its trash) and a new file.
            [
                ".seamsignore": "ignored/\n", "b.txt": "b, never synced", "ignored/": "", "ignored/a.txt": "a",
                "k.txt": "keep",
            ],
            trash: ["a.txt": ["a"]]),
        .init("a file moved into an ignored folder in the container, edited locally") { b in
            try b.write(.local, ".seamsignore", "ignored/\n")
            try b.write(.local, "a.txt", "a v1")
            try b.write(.local, "c.txt", "c")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.folder(.container, "ignored")
            try b.move(.container, "a.txt", to: "ignored/a.txt")
            try b.move(.container, "c.txt", to: "ignored/c.txt")
            try b.write(.local, "a.txt", "a v2 local")
        }.leavingOut("ignored/").expecting(
            // The edit wins over the deletion; the other file is deleted locally, kept in the trash.
            [".seamsignore": "ignored/\n", "a.txt": "a v2 local", "k.txt": "keep"],
            trash: ["c.txt": ["c"]]),
        .init("a file moved over another one locally", options: deleteAny) { b in
            try b.write(.local, "a.txt", "a")
            try b.write(.local, "b.txt", "bb")
            try b.write(.local, "k.txt", "keep")
            try b.sync()
            try b.move(.local, "a.txt", to: "b.txt", replacing: true)
        }.expecting(
            ["b.txt": "a", "k.txt": "keep"],
            trash: ["b.txt": ["bb"]]),
        .init("edits in the container, one of them in a new folder") { b in
            try b.write(.local, "a.txt", "a v1")
            try b.write(.local, "d/b.txt", "b v1")
            try b.sync()
            try b.write(.container, "a.txt", "a v2 container")
            try b.write(.container, "d/b.txt", "b v2 container, longer")
            try b.write(.container, "fresh/c.txt", "c new in container")
        }.expecting(
            [
                "a.txt": "a v2 container", "d/": "", "d/b.txt": "b v2 container, longer", "fresh/": "",
                "fresh/c.txt": "c new in container",
            ],
            trash: ["a.txt": ["a v1"], "d/b.txt": ["b v1"]]),
        .init(
            "a file renamed locally while the container saves it again under its old name",
            duringRun: .init(
                side: .container, path: "a.txt", text: "a saved in the container during the run", fraction: 0.5)
        ) { b in
            try b.write(.local, "a.txt", "a v1")
            try b.write(.local, "k.txt", "keep")
            try b.write(.local, "l.txt", "keep too")
            try b.sync()
            try b.move(.local, "a.txt", to: "b.txt")
        }.expecting(
            // The save comes before the scan: an edit on the other side follows the move.
            ["b.txt": "a saved in the container during the run", "k.txt": "keep", "l.txt": "keep too"],
            trash: ["b.txt": ["a v1"]]),
        .init(
            "a file renamed locally while the container saves a new file under the new name",
            duringRun: .init(
                side: .container, path: "b.txt", text: "b saved in the container during the run", fraction: 0.5)
        ) { b in
            try b.write(.local, "a.txt", "a v1")
            try b.write(.local, "k.txt", "keep")
            try b.write(.local, "l.txt", "keep too")
            try b.sync()
            try b.move(.local, "a.txt", to: "b.txt")
        }.expecting(
            [
                "b.txt": "b saved in the container during the run", "b.txt (conflict copy)": "a v1", "k.txt": "keep",
                "l.txt": "keep too",
            ],
            trash: ["a.txt": ["a v1"]]),
        .init(
            "a file edited locally again while the run copies its last edit",
            duringRun: .init(side: .local, path: "a.txt", text: "v3, saved during the run", fraction: 0.5)
        ) { b in
            try b.write(.local, "a.txt", "v1")
            try b.write(.local, "b.txt", "b")
            try b.sync()
            try b.write(.local, "a.txt", "v2 local")
            try b.write(.container, "b.txt", "b v2")
        }.expecting(
            ["a.txt": "v3, saved during the run", "b.txt": "b v2"],
            trash: ["a.txt": ["v1", "v2 local"], "b.txt": ["b"]]),
        .init(
            "the copy's target edited while the run replaces it",
            duringRun: .init(side: .local, path: "a.txt", text: "local edit during the run", fraction: 0.6)
        ) { b in
            try b.write(.local, "a.txt", "v1")
            try b.write(.local, "c.txt", "c")
            try b.sync()
            try b.write(.container, "a.txt", "v2 container")
            try b.write(.container, "c.txt", "c v2")
        }.expecting(
            ["a.txt": "local edit during the run", "a.txt (conflict copy)": "v2 container", "c.txt": "c v2"],
            trash: ["a.txt": ["v1", "v2 container"], "c.txt": ["c"]]),
        .init(
            "a file the run deletes is edited first",
            duringRun: .init(
                side: .container, path: "f2.txt", text: "f2 edited in the container during the run", fraction: 0.7)
        ) { b in
            for n in 1...3 { try b.write(.local, "f\(n).txt", "file \(n)") }
            try b.sync()
            try b.remove(.local, "f2.txt")
            try b.write(.local, "f1.txt", "f1 v2")
        }.expecting(
            ["f1.txt": "f1 v2", "f2.txt": "f2 edited in the container during the run", "f3.txt": "file 3"],
            trash: ["f1.txt": ["file 1"]]),
        .init(
            "a new file in a folder the run deletes",
            duringRun: .init(side: .container, path: "d/new.txt", text: "new in d during the run", fraction: 0.5)
        ) { b in
            try b.write(.local, "d/x.txt", "x")
            try b.write(.local, "d/y.txt", "y")
            for n in 1...4 { try b.write(.local, "k\(n).txt", "keep \(n)") }
            try b.sync()
            try b.remove(.local, "d")
        }.expecting(
            [
                "d/": "", "d/new.txt": "new in d during the run", "k1.txt": "keep 1", "k2.txt": "keep 2",
                "k3.txt": "keep 3", "k4.txt": "keep 4",
            ],
            trash: ["d/x.txt": ["x"], "d/y.txt": ["y"]]),
        .init(
            "the copy's target edited in the container while the run replaces it",
            duringRun: .init(side: .container, path: "a.txt", text: "container edit during the run", fraction: 0.6)
        ) { b in
            try b.write(.local, "a.txt", "v1")
            try b.write(.local, "c.txt", "c")
            try b.sync()
            try b.write(.local, "a.txt", "v2 local")
            try b.write(.local, "c.txt", "c v2")
        }.expecting(
            ["a.txt": "container edit during the run", "a.txt (conflict copy)": "v2 local", "c.txt": "c v2"],
            trash: ["a.txt": ["v1", "v2 local"], "c.txt": ["c"]]),
        .init(
            "a new file's name taken in the container during the run",
            duringRun: .init(
                side: .container, path: "n2.txt", text: "n2 made in the container during the run", fraction: 0.6)
        ) { b in
            for n in 1...4 { try b.write(.local, "n\(n).txt", "new \(n)") }
            try b.write(.local, "k.txt", "k")
            try b.write(.container, "k.txt", "k")
        }.atOnce.expecting(
            [
                "k.txt": "k", "n1.txt": "new 1", "n2.txt": "n2 made in the container during the run",
                "n2.txt (conflict copy)": "new 2", "n3.txt": "new 3", "n4.txt": "new 4",
            ]),
        .init(
            "a conflict whose losing side is saved again during the run",
            // Over WebDAV, the save comes just before the conflict moves the local file aside (call
            // 14 of 30): the window the scenario is about. Every other position is a test of its own
            // ("the user's save at every call of the run…").
            duringRun: .init(side: .local, path: "a.txt", text: "local saved again during the run", fraction: 0.47)
        ) { b in
            try b.write(.local, "a.txt", "v1")
            try b.write(.local, "b.txt", "b")
            try b.sync()
            try b.write(.local, "a.txt", "L2")
            b.tick()
            try b.write(.container, "a.txt", "container wins, longer")
        }.expecting(
            [
                "a.txt": "local saved again during the run", "a.txt (conflict copy)": "container wins, longer",
                "b.txt": "b",
            ]),
        .init("names that differ only in case, onto a container that folds case", foldingContainer: true) { b in
            try b.write(.local, "Notes.txt", "upper N")
            try b.write(.local, "notes.txt", "lower n")
            try b.write(.local, "Photos/a.jpg", "a in Photos")
            try b.write(.local, "photos/b.jpg", "b in photos")
            try b.write(.local, "plain.txt", "plain")
        }.expecting(
            [
                "Notes.txt": "upper N", "Photos/": "", "Photos/a.jpg": "a in Photos", "notes.txt": "lower n",
                "photos/": "", "photos/b.jpg": "b in photos", "plain.txt": "plain",
            ]),
        .init("a rename by case only, on each side of a container that folds case", foldingContainer: true) { b in
            try b.write(.local, "readme.md", "read me")
            try b.write(.local, "Todo.txt", "to do")
            try b.write(.local, "k.txt", "k")
            try b.sync()
            try b.remove(.local, "readme.md")
            try b.write(.local, "README.md", "read me")
            try b.harness.fileSystem.moveItem(
                at: b.root(.container).appending(path: "Todo.txt"), to: b.root(.container).appending(path: "TODO.txt"),
                replacingExisting: true)
        }.expecting(
            ["README.md": "read me", "TODO.txt": "to do", "k.txt": "k"],
            trash: ["Todo.txt": ["to do"], "readme.md": ["read me"]]),
        .init(
            "a folder renamed by case only, on each side of a container that folds case", options: deleteAny,
            foldingContainer: true
        ) { b in
            try b.write(.local, "Photos/a.jpg", "a")
            try b.write(.local, "Photos/sub/b.jpg", "b")
            try b.write(.local, "Docs/c.txt", "c")
            try b.sync()
            try b.harness.fileSystem.moveItem(
                at: b.root(.local).appending(path: "Photos"), to: b.root(.local).appending(path: "photos"),
                replacingExisting: false)
            try b.harness.fileSystem.moveItem(
                at: b.root(.container).appending(path: "Docs"), to: b.root(.container).appending(path: "DOCS"),
                replacingExisting: true)
        }.expecting(
            [
                "DOCS/": "", "DOCS/c.txt": "c", "photos/": "", "photos/a.jpg": "a", "photos/sub/": "",
                "photos/sub/b.jpg": "b",
            ],
            trash: ["Docs/c.txt": ["c"], "Photos/a.jpg": ["a"], "Photos/sub/b.jpg": ["b"]]),
        .init("edits and a new name of another case on a container that folds case", foldingContainer: true) { b in
            try b.write(.local, "a.txt", "a v1")
            try b.write(.local, "d/b.txt", "b v1")
            try b.sync()
            try b.write(.local, "a.txt", "a v2 local")
            try b.write(.container, "D/B.txt", "b v2 container, by another case")
            try b.write(.local, "A.TXT", "a different file locally")
        }.expecting(
            [
                "A.TXT": "a different file locally", "a.txt": "a v2 local", "d/": "",
                "d/B.txt": "b v2 container, by another case",
            ],
            trash: ["a.txt": ["a v1"], "d/b.txt": ["b v1"]]),
        .init("a trash folder past its retention is purged while other changes sync") { b in
            try b.write(.local, "a.txt", "a v1")
            try b.sync()
            try b.write(.container, ".seams-trash/20200101-000000-old/gone.txt", "old trash")
            try b.write(.local, ".seams-trash/20200101-000000-old/d/gone.txt", "old local trash")
            try b.write(.local, "a.txt", "a v2 local")
            try b.write(.local, "b.txt", "b new")
        }.expecting(
            ["a.txt": "a v2 local", "b.txt": "b new"],
            trash: ["a.txt": ["a v1"]]),
    ]
}
