import Foundation
import Seams
import SeamsS3
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

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
    /// The file the user saves during the run under test, if any.
    let duringRun: CrashScenario.UserSave?
    /// Whether the container's names fold case.
    let foldsCase: Bool
    /// The WebDAV server the container is reached through, when it is (it serves `/container`
    /// of the same file system, so the checks read the container's files directly).
    let server: InMemoryWebDAVServer?
    /// The S3 server the container is reached through, when it is (its bucket is `/container`
    /// of the same file system, behind the crash suite's faults).
    let bucket: CrashingS3Server?
    /// The keys of ``bucket``.
    static let s3Keys = S3Credentials(accessKeyID: "AKIDCRASH", secretAccessKey: "crash-suite-secret")

    /// The seed of the interleaving the engine's concurrent work runs in (copies, placements and
    /// the background flush at once, one call at a time in the seed's order), or `nil` for that
    /// work one by one in plan order.
    let interleaving: UInt64?

    /// Folders the scenario's ignore rules leave out: the sides are compared without them.
    let ignoredFolders: [SyncPath]

    /// The paths a pass of a first sync takes at most, when the scenario sets it.
    let firstSyncPassItems: Int?

    /// The renames and moves of the scenario's setup (``ScenarioBuilder/move(_:_:to:)``).
    private(set) var moved: [(from: SyncPath, to: SyncPath)] = []

    /// Run once the run under test has returned (a power cut after its last call).
    var afterRun: (@Sendable () -> Void)?

    /// The container as the engine is given it: the folder, or the server's collection.
    var containerURL: URL { bucket != nil ? URL(string: "s3://bucket/")! : server?.baseURL ?? Self.container }

    /// A fresh file system holding the scenario's starting state, all of it durable.
    ///
    /// - Parameters:
    ///   - hardLinks: Whether the file system has hard links.
    ///   - overWebDAV: Whether the engine reaches the container through an in-memory WebDAV server
    ///     (one that answers `Depth: infinity` with the tree, refuses it, or answers it with one level,
    ///     in turn over the scenarios of `CrashScenario.all`).
    ///   - overS3: Whether the engine reaches the container through an in-memory S3 server.
    ///   - interleaving: The seed of the engine's concurrent work's order; `nil` for none.
    init(
        _ scenario: CrashScenario, hardLinks: Bool = true, overWebDAV: Bool = false, overS3: Bool = false,
        interleaving: UInt64? = nil
    ) throws {
        fileSystem = InMemoryFileSystem(enforcesPermissions: false)
        // A file system without hard links (FAT, exFAT) cannot swap two names either.
        fileSystem.exchangesItems = hardLinks
        self.interleaving = interleaving
        // The scenarios' servers take turns: one answers `PROPFIND` with `Depth: infinity` (as
        // rclone does), one refuses it (as Apache does), one answers it with one level and says
        // nothing of it (as SabreDAV does with it turned off). So a crash or a lost answer meets
        // every way of listing it: the tree at once, folder by folder, and the two mixed.
        let position = CrashScenario.all.firstIndex { $0.name == scenario.name } ?? 0
        server =
            overWebDAV
            ? InMemoryWebDAVServer(
                serving: Self.container, of: fileSystem, baseURL: URL(string: "http://dav.test/container/")!,
                answersInfiniteDepth: position % 3 == 0, answersInfiniteDepthWithOneLevel: position % 3 == 2) : nil
        bucket =
            overS3
            ? CrashingS3Server(
                server: InMemoryS3Server(
                    serving: Self.container, of: fileSystem, bucket: "bucket", credentials: Self.s3Keys)) : nil
        self.hardLinks = hardLinks
        options = scenario.options
        duringRun = scenario.duringRun
        foldsCase = scenario.foldingContainer
        ignoredFolders = scenario.ignoredFolders
        firstSyncPassItems = scenario.firstSyncPassItems
        for folder in [Self.local, Self.container, Self.state] {
            if folder == Self.container, scenario.foldingContainer {
                try fileSystem.createCaseFoldingDirectory(at: folder)
            } else {
                try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
            }
        }
        var builder = ScenarioBuilder(harness: self)
        try scenario.setup(&builder)
        moved = builder.moved
        fileSystem.synchronizeAll()
        fileSystem.advanceTime(by: 10)
    }

    func engine(
        directories: any DirectoryAccessorProviding, files: any FileAccessorProviding, runID: String
    ) -> SyncEngine {
        let clock = fileSystem
        // Scans one side after the other, so "crash at call N" names the same call every run.
        var engine = SyncEngine(
            directories: directories, files: files, clock: { clock.now }, owner: "test", runID: { runID },
            scansConcurrently: false,
            // No outage cooldown: a restarted server answers the recovery at once (a refused request
            // and one failed by the cooldown look alike to the engine).
            remote: server.map {
                WebDAVAccessor(baseURL: $0.baseURL, transport: $0, pause: { _ in }, outageCooldown: .zero)
            },
            objectStore: bucket.map {
                S3Accessor(
                    client: S3Client(
                        endpoint: $0.server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.s3Keys,
                        transport: $0, now: { clock.now }, pause: { _ in }),
                    outageCooldown: .zero)
            })
        if let firstSyncPassItems { engine.firstSyncPassItems = firstSyncPassItems }
        // The same order every run of a seed: each run starts the seed's sequence afresh.
        engine.interleaving = interleaving.map { SeededInterleaving(seed: $0) }
        return engine
    }

    /// The fake as the engine sees it: through a boundary that fails every `link` when the file
    /// system has no hard links, that forwards every call otherwise.
    func boundary() -> FaultInjectingFileSystem {
        let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
        if !hardLinks { boundary.addRule(.operation(.linkItem, fails: .hardLinksUnsupported)) }
        return boundary
    }

    /// Makes everything under the container durable, as a server that is not the machine
    /// losing power keeps what it answered (through the file system itself, not the boundary).
    func flushContainer() {
        var pending = [Self.container]
        while let folder = pending.popLast() {
            for entry in (try? fileSystem.contentsOfDirectory(at: folder)) ?? [] {
                let url = folder.appending(path: entry.name)
                if entry.metadata.kind == .directory {
                    pending.append(url)
                } else if entry.metadata.kind == .file {
                    try? fileSystem.synchronizeFile(at: url)
                }
            }
            try? fileSystem.synchronizeDirectory(at: folder)
        }
    }

    /// One run on the fake, with no faults but the missing hard links.
    ///
    /// - Parameter prepare: Readies the boundary before the run (a user's save during it, say).
    @discardableResult
    func sync(
        runID: String = "clean", options: SyncOptions? = nil, prepare: (FaultInjectingFileSystem) -> Void = { _ in }
    ) throws -> SyncReport {
        let options = options ?? self.options
        let boundary = boundary()
        prepare(boundary)
        return try engine(directories: boundary, files: boundary, runID: runID)
            .run(local: Self.local, container: containerURL, stateDirectory: Self.state, options: options)
    }

    /// Every file and link under `root` by path (compared by bytes, so NFC and NFD names stay
    /// apart), with its bytes (a link's: its target text); `.seams…` items left out unless asked, temp files always.
    func files(under root: URL, includingOwn: Bool = false) throws -> [SyncPath: Data] {
        var result: [SyncPath: Data] = [:]
        var pending: [(String, URL)] = [("", root)]
        while let (prefix, url) = pending.popLast() {
            for entry in try fileSystem.contentsOfDirectory(at: url) {
                if !includingOwn, entry.name.hasPrefix(".seams"), entry.name != ".seamsignore" { continue }
                if entry.name.hasPrefix(".seams-tmp") || entry.name == ".seams-lock" { continue }
                let path = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
                let child = url.appending(path: entry.name)
                if isUsersSaveTemporary(entry.name, at: child) { continue }
                if entry.metadata.kind == .directory {
                    result[SyncPath(path + "/")] = Data()
                    pending.append((path, child))
                } else if entry.metadata.kind == .symbolicLink {
                    // A link's version is its target text, marked so it never equals a file's bytes.
                    result[SyncPath(path)] = Data(
                        ("link → " + (try fileSystem.destinationOfSymbolicLink(at: child))).utf8)
                } else {
                    result[SyncPath(path)] = try fileSystem.read(from: child)
                }
            }
        }
        return result
    }

    /// Whether `name` is the temp file of the user's save (written as Foundation's atomic write
    /// does, through `.dat.nosync…`), which a power cut during the save may leave: the user's
    /// editor's file, holding the saved text or nothing, synced as any user's file and not the
    /// engine's doing. Any other `.dat.nosync…` file is the engine's, and a violation.
    func isUsersSaveTemporary(_ name: String, at url: URL) -> Bool {
        guard let save = duringRun, name.hasPrefix(".dat.nosync"), let data = try? fileSystem.read(from: url) else {
            return false
        }
        return Data(save.text.utf8).starts(with: data)
    }

    /// Every distinct file content in both folders; with `trash`, the trash included.
    func versions(includingTrash: Bool = true) throws -> Set<Data> {
        var all = Set<Data>()
        for root in [Self.local, Self.container] {
            for (path, data) in try files(under: root, includingOwn: includingTrash) where !path.rawValue.hasSuffix("/")
            {
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
        var local = try files(under: Self.local)
        var container = try files(under: Self.container)
        if foldsCase {
            // Local names that the container takes for one another cannot all be there: the
            // engine reports them every run and leaves them; the rest must be equal.
            let groups = Dictionary(grouping: local.keys) { $0.rawValue.uppercased() }
            let collided = groups.values.filter { $0.count > 1 }.joined()
            func left(_ path: SyncPath) -> Bool {
                collided.contains { $0 == path || ($0.rawValue.hasSuffix("/") && path.rawValue.hasPrefix($0.rawValue)) }
            }
            local = local.filter { !left($0.key) }
            container = container.filter { !left($0.key) }
        }
        // What the rules leave out may be on one side only; the engine must not have touched it
        // (the lineage and the expected end check that).
        func ignored(_ path: SyncPath) -> Bool {
            ignoredFolders.contains { path == $0 || path.rawValue.hasPrefix($0.rawValue) }
        }
        local = local.filter { !ignored($0.key) }
        container = container.filter { !ignored($0.key) }
        if local != container {
            let differing = Set(local.keys).symmetricDifference(container.keys).sorted()
            problems.append("sides differ: \(differing.prefix(5)) \(local.count) vs \(container.count)")
        }
        for root in [Self.local, Self.container, Self.state] {
            for entry in try fileSystem.contentsOfDirectory(at: root) where entry.name.hasPrefix(".seams-tmp") {
                problems.append("temp left: \(entry.name)")
            }
        }
        // Every file the engine makes in the folders has a `.seams` name: an atomic write's own
        // temp file, left by a power cut, would be synced as a user's file.
        for root in [Self.local, Self.container] {
            for path in try files(under: root, includingOwn: true).keys
            where path.rawValue.split(separator: "/").last?.hasPrefix(".dat.nosync") == true {
                problems.append("a file not under the tool's names: \(root.path)/\(path)")
            }
        }
        return problems
    }

    /// Whether the user's save of a scenario happened.
    final class SaveRecord: Sendable {
        let made = LockedValue(false)
        var wasMade: Bool { made.withLock { $0 } }
    }

    /// Makes the scenario's save just before the boundary's `call`-th call from now.
    ///
    /// - Returns: A record telling whether the save was made (a power cut may stop it).
    func scheduleUserSave(on boundary: FaultInjectingFileSystem, atCall call: Int) -> SaveRecord {
        let record = SaveRecord()
        guard duringRun != nil else { return record }
        let harness = self
        boundary.beforeCall(call) {
            if (try? harness.saveAsUser()) != nil { record.made.withLock { $0 = true } }
        }
        return record
    }

    /// Whether the engine's call right after the user's save (at `saveCall`) moved the saved path
    /// into the trash: the save came between the engine's check and its move.
    func saveMetTrashMove(_ boundary: FaultInjectingFileSystem, saveCall: Int) -> Bool {
        guard let save = duringRun else { return false }
        let calls = boundary.calls
        guard calls.count >= saveCall else { return false }
        let call = calls[saveCall - 1]
        guard call.operation == .moveItem, case .success = call.outcome else { return false }
        let root = save.side == .local ? Self.local : Self.container
        return call.url?.standardizedFileURL.path == root.appending(path: save.path).standardizedFileURL.path
            && call.destination?.path.contains("/.seams-trash/") == true
    }

    /// Whether the boundary's `call`-th call (the one right after the user's save) renamed, swapped
    /// or linked the saved path, from it or onto it.
    func callChangesSavedPath(_ boundary: FaultInjectingFileSystem, call: Int) -> Bool {
        guard let save = duringRun, boundary.calls.count >= call else { return false }
        let made = boundary.calls[call - 1]
        guard [.moveItem, .linkItem].contains(made.operation) else { return false }
        let path = (save.side == .local ? Self.local : Self.container).appending(path: save.path).standardizedFileURL
            .path
        return [made.url, made.destination].contains { $0?.standardizedFileURL.path == path }
    }

    /// Whether the user's save is at its own path on its side.
    func saveIsAtItsPath() throws -> Bool {
        guard let save = duringRun else { return true }
        let root = save.side == .local ? Self.local : Self.container
        // Or where a move the scenario made on the other side took its path: the save follows it.
        let paths = counterparts(of: SyncPath(save.path)).union([SyncPath(save.path)])
        return paths.contains {
            (try? fileSystem.read(from: root.appending(path: $0.rawValue))) == Data(save.text.utf8)
        }
    }

    /// Makes the save after the run if it did not happen during it (the user saves again).
    func finishUserSave(_ record: SaveRecord) throws {
        if duringRun != nil, !record.wasMade { try saveAsUser() }
    }

    /// The user's save: written, then file and folders flushed, as an editor that saves safely does.
    func saveAsUser() throws {
        guard let save = duringRun else { return }
        let root = save.side == .local ? Self.local : Self.container
        let url = root.appending(path: save.path)
        try fileSystem.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileSystem.write(Data(save.text.utf8), to: url)
        try fileSystem.synchronizeFile(at: url)
        var folder = url.deletingLastPathComponent()
        while folder.path.count >= root.path.count - 1 {
            try fileSystem.synchronizeDirectory(at: folder)
            if folder.standardizedFileURL.path == root.standardizedFileURL.path { break }
            folder = folder.deletingLastPathComponent()
        }
    }
}
