import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

@Suite struct SyncEngineTests {
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

    func engine(_ fileSystem: InMemoryFileSystem, directories: (any DirectoryAccessorProviding)? = nil) -> SyncEngine {
        SyncEngine(directories: directories ?? fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test")
    }

    @discardableResult
    func run(_ fileSystem: InMemoryFileSystem, _ options: SyncOptions = SyncOptions()) throws -> SyncReport {
        try engine(fileSystem).run(local: local, container: container, stateDirectory: state, options: options)
    }

    func write(_ fileSystem: InMemoryFileSystem, _ text: String, _ path: String, in root: URL) throws {
        try fileSystem.write(Data(text.utf8), to: root.appending(path: path))
    }

    func text(_ fileSystem: InMemoryFileSystem, _ path: String, in root: URL) -> String? {
        (try? fileSystem.read(from: root.appending(path: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("an emptied side is refused before any change, unless forced")
    func emptySideGuard() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        try run(fileSystem)
        try fileSystem.removeItem(at: container.appending(path: "a.txt"), recursively: false)
        fileSystem.resetCalls()
        #expect(throws: SyncError.emptySide(.container, known: 1)) { try run(fileSystem) }
        let userChanges = fileSystem.calls.filter { call in
            call.operation.isWriting && !(call.url?.path ?? "").contains("/.seams")
                && !(call.url?.path ?? "").hasPrefix("/state")
        }
        #expect(userChanges.isEmpty, "only the lock and the state folder are touched")
        #expect(text(fileSystem, "a.txt", in: local) == "1")
        var forced = SyncOptions()
        forced.force = true
        try run(fileSystem, forced)
        #expect(text(fileSystem, "a.txt", in: local) == nil)
    }

    @Test("a dry run changes nothing at all")
    func dryRun() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        fileSystem.resetCalls()
        var options = SyncOptions()
        options.dryRun = true
        let report = try run(fileSystem, options)
        #expect(report.planned.map(\.path) == ["a.txt"])
        #expect(fileSystem.calls.filter(\.operation.isWriting).isEmpty)
    }

    @Test("a file changed between scan and replace becomes a conflict copy, never an overwrite")
    func changedDuringRun() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "v1", "a.txt", in: local)
        try run(fileSystem)
        fileSystem.advanceTime(by: 10)
        try write(fileSystem, "v2 local", "a.txt", in: local)
        let target = container.appending(path: "a.txt").path
        let editor = FaultInjectingFileSystem(wrapping: fileSystem)
        // Just before the engine re-checks the target, a user edits it in the container. The
        // engine's first look at it completes the scan (the scan found it unchanged, and kept
        // its path alone); the second is the re-check before the replace.
        let looks = Tally()
        editor.addRule(
            .calls(
                where: { operation, url in
                    guard operation == .metadata, url?.path == target else { return false }
                    if looks.next() == 2, text(fileSystem, "a.txt", in: container) == "v1" {
                        try? write(fileSystem, "edited during the run", "a.txt", in: container)
                    }
                    return false
                }, fail: .ioError))
        let report = try engine(fileSystem, directories: editor).run(
            local: local, container: container, stateDirectory: state)
        #expect(text(fileSystem, "a.txt", in: container) == "edited during the run")
        #expect(report.conflicts.count == 1)
        let copy = try #require(report.conflicts.first?.copy)
        #expect(text(fileSystem, copy, in: container) == "v2 local")
        fileSystem.advanceTime(by: 10)
        try run(fileSystem)
        #expect(text(fileSystem, "a.txt", in: local) == "edited during the run")
        #expect(text(fileSystem, copy, in: local) == "v2 local")
    }

    @Test("a file that vanishes between scan and copy (a transient temp file) is skipped, not failed")
    func vanished() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "keep", "keep.txt", in: local)
        try write(fileSystem, "brief", "transient.tmp", in: local)
        let source = local.appending(path: "transient.tmp")
        let remover = FaultInjectingFileSystem(wrapping: fileSystem)
        remover.addRule(
            .calls(
                where: { operation, url in
                    if operation == .copyItem, url?.path == source.path {
                        try? fileSystem.removeItem(at: source, recursively: false)
                    }
                    return false
                }, fail: .ioError))
        let report = try engine(fileSystem, directories: remover).run(
            local: local, container: container, stateDirectory: state)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.map(\.path) == ["transient.tmp"])
        #expect(text(fileSystem, "keep.txt", in: container) == "keep")
        #expect(try run(fileSystem).skipped.isEmpty)
    }

    @Test("a damaged state file is rebuilt: differences are kept both, nothing is deleted")
    func corruptState() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        try write(fileSystem, "2", "b.txt", in: local)
        try run(fileSystem)
        for entry in try fileSystem.contentsOfDirectory(at: state) where entry.name.hasPrefix("pair-") {
            try fileSystem.write(Data("garbage".utf8), to: state.appending(path: entry.name))
        }
        try fileSystem.removeItem(at: local.appending(path: "a.txt"), recursively: false)
        let report = try run(fileSystem)
        #expect(report.rebuiltState)
        #expect(text(fileSystem, "a.txt", in: container) == "1")
        #expect(text(fileSystem, "a.txt", in: local) == "1", "restored, not deleted")
    }

    @Test(
        "state from a version 1 build (JSON) carries over: a deletion propagates, then the file is replaced by version 2"
    )
    func legacyState() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        try write(fileSystem, "2", "b.txt", in: local)
        try run(fileSystem)
        let entry = try #require(try fileSystem.contentsOfDirectory(at: state).first { $0.name.hasPrefix("pair-") })
        #expect(entry.name.hasSuffix(".archive"))
        let current = state.appending(path: entry.name)
        let archive = try ArchiveCodec.decode(try fileSystem.read(from: current))
        let rows = archive.entries.sorted { $0.key < $1.key }.map { path, entry in
            #"{"p":"\#(path.rawValue)","k":"\#(entry.kind.rawValue)","ls":\#(entry.local.size),"lm":\#(entry.local.modified),"cs":\#(entry.container.size),"cm":\#(entry.container.modified)}"#
        }
        let json =
            #"{"format":"seams-sync.archive","version":1,"local":"\#(archive.localRoot)","container":"\#(archive.containerRoot)","entries":[\#(rows.joined(separator: ","))]}"#
        let legacy = state.appending(path: entry.name.replacingOccurrences(of: ".archive", with: ".json"))
        try fileSystem.write(Data(json.utf8), to: legacy)
        try fileSystem.removeItem(at: current, recursively: false)
        try fileSystem.removeItem(at: local.appending(path: "a.txt"), recursively: false)

        let report = try run(fileSystem)
        #expect(!report.rebuiltState)
        #expect(report.deletedContainer == 1, "the old archive knew a.txt, so its deletion propagates")
        #expect(text(fileSystem, "a.txt", in: container) == nil)
        #expect(!fileSystem.fileExists(at: legacy))
        #expect(
            try ArchiveCodec.decode(try fileSystem.read(from: current)).entries.keys.map(\.rawValue).sorted() == [
                "b.txt"
            ])
    }

    @Test(
        "a state of version 5 is read and rewritten as version 8 by a run with no change, its identities learned again")
    func version5State() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        try write(fileSystem, "2", "b.txt", in: local)
        try fileSystem.createDirectory(at: local.appending(path: "d"), withIntermediateDirectories: false)
        try run(fileSystem)
        let entry = try #require(try fileSystem.contentsOfDirectory(at: state).first { $0.name.hasPrefix("pair-") })
        let url = state.appending(path: entry.name)
        let archive = try ArchiveCodec.decode(try fileSystem.read(from: url))
        #expect(archive.entries.count == 3 && archive.replica != nil)
        // The same state in version 5's fixed-size entries.
        var bytes = Array("SEAMSARC".utf8)
        func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8)
        }
        append(UInt32(5))
        append(UInt32(0))
        append(archive.localRoot)
        append(archive.containerRoot)
        append(archive.replica!.id)
        append(archive.replica!.generation)
        append(UInt64(archive.entries.count))
        for (path, recorded) in archive.entries {
            append(path.rawValue)
            bytes.append(recorded.kind == .directory ? 1 : 0)
            append(recorded.containerTag)
            for value in [
                recorded.local.size, recorded.local.modified, recorded.container.size, recorded.container.modified,
            ] {
                append(UInt64(bitPattern: value))
            }
        }
        append(bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0100_0000_01b3 })  // FNV-1a 64
        try fileSystem.write(Data(bytes), to: url)
        #expect(ArchiveCodec.version(of: try fileSystem.read(from: url)) == 5)

        let report = try run(fileSystem)
        #expect(
            report.inSync == 3 && report.copiedToLocal == 0 && report.copiedToContainer == 0 && !report.rebuiltState)
        #expect(ArchiveCodec.version(of: try fileSystem.read(from: url)) == ArchiveCodec.currentVersion)
        #expect(try ArchiveCodec.decode(try fileSystem.read(from: url)).entries == archive.entries)
    }

    @Test("a state file of a newer version is refused and left untouched")
    func newerState() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        try run(fileSystem)
        let entry = try #require(try fileSystem.contentsOfDirectory(at: state).first { $0.name.hasPrefix("pair-") })
        let url = state.appending(path: entry.name)
        try fileSystem.write(Data("{\"format\":\"seams-sync.archive\",\"version\":9}".utf8), to: url)
        #expect(throws: SyncError.unsupportedState(url, version: 9)) { try run(fileSystem) }
        #expect(try fileSystem.read(from: url) == Data("{\"format\":\"seams-sync.archive\",\"version\":9}".utf8))
    }

    @Test("a live lock refuses; an expired one is taken over")
    func lock() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "1", "a.txt", in: local)
        let lock = Fixtures.lockRecord(owner: "other", heartbeat: fileSystem.now)
        try fileSystem.write(Data(lock.utf8), to: container.appending(path: ".seams-lock"))
        #expect(throws: SyncError.lockHeld(owner: "other")) { try run(fileSystem) }
        fileSystem.advanceTime(by: 120)
        try run(fileSystem)
        #expect(text(fileSystem, "a.txt", in: container) == "1")
        #expect(!fileSystem.fileExists(at: container.appending(path: ".seams-lock")))
    }

    @Test("a folder that cannot be listed is unknown, not empty: nothing in it is deleted elsewhere")
    func unreadableFolder() throws {
        let fileSystem = try setUp()
        try fileSystem.createDirectory(at: local.appending(path: "d"), withIntermediateDirectories: false)
        try write(fileSystem, "inside", "d/x.txt", in: local)
        try write(fileSystem, "top", "top.txt", in: local)
        try run(fileSystem)
        try fileSystem.setPermissions(0o000, at: local.appending(path: "d"))
        let report = try run(fileSystem)
        #expect(report.skipped.map(\.path) == ["d/x.txt"])
        #expect(text(fileSystem, "d/x.txt", in: container) == "inside")
    }

    @Test("an unreadable file fails alone; the others sync")
    func unreadableFile() throws {
        let fileSystem = try setUp()
        try write(fileSystem, "ok", "ok.txt", in: local)
        try write(fileSystem, "secret", "locked.txt", in: local)
        try fileSystem.setPermissions(0o000, at: local.appending(path: "locked.txt"))
        let report = try run(fileSystem)
        #expect(report.failures.map(\.path) == ["locked.txt"])
        #expect(text(fileSystem, "ok.txt", in: container) == "ok")
    }

    @Test("trash older than the retention is purged; newer trash and everything outside the trash stay")
    func trashRetention() throws {
        let fileSystem = try setUp()
        for name in ["a", "b", "c", "d"] { try write(fileSystem, name, "\(name).txt", in: local) }
        // A user's folder whose name looks like an old trash run folder, outside the trash.
        let lookalike = "20200101-000000-user"
        try fileSystem.createDirectory(
            at: local.appending(path: "\(lookalike)/inner"), withIntermediateDirectories: true)
        try write(fileSystem, "mine", "\(lookalike)/inner/keep.txt", in: local)
        try run(fileSystem)
        try fileSystem.removeItem(at: local.appending(path: "a.txt"), recursively: false)
        try fileSystem.removeItem(at: container.appending(path: "d.txt"), recursively: false)
        try run(fileSystem)
        let trashes = [local, container].map { $0.appending(path: ".seams-trash") }
        #expect(try trashes.map { try fileSystem.contentsOfDirectory(at: $0).count } == [1, 1])
        fileSystem.advanceTime(by: 20 * 24 * 3600)
        try fileSystem.removeItem(at: local.appending(path: "b.txt"), recursively: false)
        try run(fileSystem)  // b.txt goes to a new trash folder in the container, 20 days younger
        let before = try outsideTrash(fileSystem)
        let expected = ["c.txt", lookalike, "\(lookalike)/inner", "\(lookalike)/inner/keep.txt"]
        #expect(
            Set(before.keys)
                == Set(["/local", "/container"].flatMap { root in expected.map { "\(root)/\($0)" } })
                .union(["/container/.seams-replica"]))
        #expect(try trashes.map { try fileSystem.contentsOfDirectory(at: $0).count } == [1, 2])
        fileSystem.advanceTime(by: 11 * 24 * 3600)  // the first trash folders are 31 days old
        fileSystem.resetCalls()
        try run(fileSystem)

        #expect(try fileSystem.contentsOfDirectory(at: trashes[0]).isEmpty)
        #expect(try fileSystem.contentsOfDirectory(at: trashes[1]).count == 1, "the young trash folder stays")
        #expect(try outsideTrash(fileSystem) == before, "the purge changed something outside the trash")
        // Besides the lock (its temporary name and itself), the run removed the two old trash folders only.
        let removals = fileSystem.calls.filter { call in
            call.operation == .removeItem && !(call.url?.lastPathComponent.hasPrefix(".seams-tmp-lock") ?? false)
                && call.url?.path != container.appending(path: ".seams-lock").path
        }
        #expect(removals.count == 2, "\(removals)")
        for call in removals {
            #expect(trashes.contains { call.url?.deletingLastPathComponent().path == $0.path }, "removed \(call)")
        }
    }

    /// Every item of both folders outside `.seams-trash` and the lock: kind, inode, date and content.
    func outsideTrash(_ fileSystem: InMemoryFileSystem) throws -> [String: String] {
        var items: [String: String] = [:]
        func walk(_ folder: URL, _ relative: String) throws {
            let isRoot = folder == local || folder == container
            for entry in try fileSystem.contentsOfDirectory(at: folder) {
                if isRoot && (entry.name == ".seams-trash" || entry.name == ".seams-lock") { continue }
                let url = folder.appending(path: entry.name)
                let path = relative + "/" + entry.name
                let info = entry.metadata
                if info.kind == .directory {
                    items[path] = "folder \(info.fileIdentifier)"
                    try walk(url, path)
                } else {
                    let content = String(decoding: try fileSystem.read(from: url), as: UTF8.self)
                    items[path] = "file \(info.fileIdentifier) \(info.modificationDate) \(content)"
                }
            }
        }
        try walk(local, "/local")
        try walk(container, "/container")
        return items
    }
}

/// `SyncOptions.copyBatchCount`: copies are flushed and placed in batches of that size.
@Suite struct CopyBatchTests {
    /// For each temp copy, the position of its flush and of its rename into place.
    ///
    /// - Parameter inOrder: Whether the engine keeps its calls in order (one copy at a time, each
    ///   batch flushed and placed before the next is copied); else a full batch is flushed on
    ///   another thread while the next is copied, and placed when that one fills.
    func order(batch: Int, inOrder: Bool = true) throws -> (flushes: [Int], renames: [Int]) {
        let fileSystem = InMemoryFileSystem()
        let (local, container) = (URL(filePath: "/local"), URL(filePath: "/container"))
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        for n in 1...5 { try fileSystem.write(Data("file \(n)".utf8), to: local.appending(path: "f\(n).txt")) }
        var options = SyncOptions()
        options.copyBatchCount = batch
        fileSystem.resetCalls()
        let report = try SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test",
            scansConcurrently: !inOrder
        ).run(local: local, container: container, stateDirectory: URL(filePath: "/state"), options: options)
        #expect(report.copiedToContainer == 5)
        let calls = fileSystem.calls
        // A copy's temp file, not the marker's or the lock's.
        let isTemp = { (url: URL?) in
            guard let name = url?.lastPathComponent, url?.path.hasPrefix("/container") == true else { return false }
            return name.hasPrefix(".seams-tmp-") && !name.contains("replica") && !name.contains("lock")
        }
        return (
            calls.indices.filter { calls[$0].operation == .synchronizeFile && isTemp(calls[$0].url) },
            calls.indices.filter { calls[$0].operation == .moveItem && isTemp(calls[$0].url) }
        )
    }

    @Test("one batch by default: every copy is flushed before the first is placed")
    func oneBatch() throws {
        let (flushes, renames) = try order(batch: 2048)
        #expect(flushes.count == 5 && renames.count == 5)
        #expect(flushes.max()! < renames.min()!)
    }

    @Test("batches of two, in order: each batch is placed before the next is flushed, each copy after its own flush")
    func batchesOfTwo() throws {
        let (flushes, renames) = try order(batch: 2)
        #expect(flushes.count == 5 && renames.count == 5)
        #expect(renames[1] < flushes[2] && renames[3] < flushes[4], "flushes \(flushes), renames \(renames)")
        #expect(zip(flushes, renames).allSatisfy { $0 < $1 })
    }

    @Test(
        "batches of two, copied at once: a batch waits at most for the next one's flush, each copy after its own flush")
    func batchesOfTwoAtOnce() throws {
        for _ in 0..<20 {  // the second batch's flush and the first one's renames interleave differently each time
            let (flushes, renames) = try order(batch: 2, inOrder: false)
            #expect(flushes.count == 5 && renames.count == 5)
            // The first batch is placed once the second is full, before the third is flushed.
            #expect(renames[1] < flushes[4] && renames[3] < flushes[4], "flushes \(flushes), renames \(renames)")
            #expect(zip(flushes, renames).allSatisfy { $0 < $1 }, "flushes \(flushes), renames \(renames)")
        }
    }
}

/// A count that closures on any thread add to.
private final class Tally: Sendable {
    private let value = LockedValue(0)

    /// Adds one and returns the new count.
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
