import Foundation
import Seams
import SeamsSync
import SeamsTesting
import Testing

/// Builds a scenario's starting state on a fresh `InMemoryFileSystem`, runs the engine on it, and
/// checks the crash-consistency invariant: every path holds a version from its own history, and no
/// version that existed at the start is lost.
struct CrashHarness {
    static let local = URL(filePath: "/local", directoryHint: .isDirectory)
    static let container = URL(filePath: "/container", directoryHint: .isDirectory)
    static let state = URL(filePath: "/state", directoryHint: .isDirectory)

    let fileSystem: InMemoryFileSystem
    /// The options of the runs under test.
    let options: SyncOptions
    /// Whether the file system has hard links; without, every `link` fails as on FAT and exFAT.
    let hardLinks: Bool

    /// A fresh file system holding the scenario's starting state, all of it durable.
    init(_ scenario: CrashScenario, hardLinks: Bool = true) throws {
        fileSystem = InMemoryFileSystem(enforcesPermissions: false)
        self.hardLinks = hardLinks
        options = scenario.options
        for folder in [Self.local, Self.container, Self.state] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        var builder = ScenarioBuilder(harness: self)
        try scenario.setup(&builder)
        fileSystem.synchronizeAll()
        fileSystem.advanceTime(by: 10)
    }

    func engine(
        directories: any DirectoryAccessorProviding, files: any FileAccessorProviding, runID: String
    ) -> SyncEngine {
        let clock = fileSystem
        // Scans one side after the other, so "crash at call N" names the same call every run.
        return SyncEngine(
            directories: directories, files: files, clock: { clock.now }, owner: "test", runID: { runID },
            scansConcurrently: false)
    }

    /// The fake as the engine sees it: through a boundary that fails every `link` when the file
    /// system has no hard links, that forwards every call otherwise.
    func boundary() -> FaultInjectingFileSystem {
        let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
        if !hardLinks { boundary.addRule(.operation(.linkItem, fails: .hardLinksUnsupported)) }
        return boundary
    }

    /// One run on the fake, with no faults but the missing hard links.
    @discardableResult
    func sync(runID: String = "clean", options: SyncOptions? = nil) throws -> SyncReport {
        let options = options ?? self.options
        let boundary = boundary()
        return try engine(directories: boundary, files: boundary, runID: runID)
            .run(local: Self.local, container: Self.container, stateDirectory: Self.state, options: options)
    }

    /// Every file and link under `root` by path (compared by bytes, so NFC and NFD names stay
    /// apart), with its bytes (a link's: its target text); `.seams…` items left out unless asked, temp files always.
    func files(under root: URL, includingOwn: Bool = false) throws -> [SyncPath: Data] {
        var result: [SyncPath: Data] = [:]
        var pending: [(String, URL)] = [("", root)]
        while let (prefix, url) = pending.popLast() {
            for entry in try fileSystem.contentsOfDirectory(at: url) {
                if !includingOwn, entry.name.hasPrefix(".seams") { continue }
                if entry.name.hasPrefix(".seams-tmp") || entry.name == ".seams-lock" { continue }
                let path = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
                let child = url.appending(path: entry.name)
                if entry.metadata.kind == .directory {
                    result[SyncPath(path + "/")] = Data()
                    pending.append((path, child))
                } else if entry.metadata.kind == .symbolicLink {
                    // A link's version is its target text, marked so it never equals a file's bytes.
                    result[SyncPath(path)] = Data(("link → " + (try fileSystem.destinationOfSymbolicLink(at: child))).utf8)
                } else {
                    result[SyncPath(path)] = try fileSystem.read(from: child)
                }
            }
        }
        return result
    }

    /// Every distinct file content in both folders; with `trash`, the trash included.
    func versions(includingTrash: Bool = true) throws -> Set<Data> {
        var all = Set<Data>()
        for root in [Self.local, Self.container] {
            for (path, data) in try files(under: root, includingOwn: includingTrash) where !path.rawValue.hasSuffix("/") {
                all.insert(data)
            }
        }
        return all
    }

    /// The invariant after a crash: every user path holds a whole version that existed at the
    /// start (old or new content, never torn), and every starting version is still somewhere.
    func violations(start: Set<Data>) throws -> [String] {
        var problems: [String] = []
        for root in [Self.local, Self.container] {
            for (path, data) in try files(under: root) where !path.rawValue.hasSuffix("/") && !start.contains(data) {
                problems.append("\(root.path)/\(path) holds content that is no starting version (\(data.count) bytes)")
            }
        }
        let now = try versions()
        for version in start where !now.contains(version) {
            problems.append("lost version: \(String(decoding: version, as: UTF8.self).prefix(40))")
        }
        return problems
    }

    /// After a successful run: both sides equal, no temp file left in either folder or in the
    /// state folder (a crashed commit's temp archive is removed by the next run).
    func convergenceProblems() throws -> [String] {
        var problems: [String] = []
        let local = try files(under: Self.local)
        let container = try files(under: Self.container)
        if local != container {
            let differing = Set(local.keys).symmetricDifference(container.keys).sorted()
            problems.append("sides differ: \(differing.prefix(5)) \(local.count) vs \(container.count)")
        }
        for root in [Self.local, Self.container, Self.state] {
            for entry in try fileSystem.contentsOfDirectory(at: root) where entry.name.hasPrefix(".seams-tmp") {
                problems.append("temp left: \(entry.name)")
            }
        }
        return problems
    }
}
