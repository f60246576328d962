import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

/// A replace on a WebDAV server is conditional on the target's ETag (`MOVE` with
/// `If: <target> (["etag"])`): a version saved on the server after the engine's last look is
/// refused by the server itself and becomes a conflict, never an overwrite. On a server that
/// refuses every ETag condition (rclone), the accessor learns it and moves after a last look.
@Suite struct ConditionalReplaceTests {
    struct Fixture: Sendable {
        let fileSystem: InMemoryFileSystem
        let server: InMemoryWebDAVServer
        let dav: WebDAVAccessor

        func url(_ path: String) -> URL { server.baseURL.appending(path: path) }
        func stored(_ path: String) -> Data? {
            try? fileSystem.read(from: URL(filePath: "/served").appending(path: path))
        }
        func served(_ path: String) -> URL { URL(filePath: "/served").appending(path: path) }
    }

    /// A transport in front of the in-memory server: once armed, it runs an action just before
    /// the first `MOVE` whose `Destination` ends with a suffix reaches the server; with
    /// `refusesETagConditions`, it answers 412 to every request whose `If` header holds an ETag,
    /// as `rclone serve webdav` does. It records the `If` header of every `MOVE`.
    final class Front: HTTPTransportProviding {
        let server: InMemoryWebDAVServer
        let refusesETagConditions: Bool
        private let armed = LockedValue<(suffix: String, action: @Sendable () -> Void)?>(nil)
        let conditions = LockedValue<[String]>([])

        init(_ server: InMemoryWebDAVServer, refusesETagConditions: Bool = false) {
            self.server = server
            self.refusesETagConditions = refusesETagConditions
        }

        func arm(beforeMoveTo suffix: String, _ action: @escaping @Sendable () -> Void) {
            armed.withLock { $0 = (suffix, action) }
        }

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
            HTTPResponse, Data
        ) {
            let condition = request.headerFields[HTTPField.Name("If")!]
            if request.method.rawValue == "MOVE" {
                conditions.withLock { $0.append(condition ?? "") }
                let destination = request.headerFields[HTTPField.Name("Destination")!] ?? ""
                let action = armed.withLock { armed -> (@Sendable () -> Void)? in
                    guard let (suffix, action) = armed, destination.hasSuffix(suffix) else { return nil }
                    armed = nil
                    return action
                }
                action?()
            }
            if refusesETagConditions, condition?.contains("[") == true {
                return (HTTPResponse(status: .preconditionFailed), Data())
            }
            return try await server.send(request, body: body, timeout: timeout)
        }
    }

    static func fixture(refusesETagConditions: Bool = false) throws -> (Fixture, Front) {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false)
        try fileSystem.createDirectory(at: URL(filePath: "/served"), withIntermediateDirectories: false)
        let server = InMemoryWebDAVServer(serving: URL(filePath: "/served"), of: fileSystem)
        let front = Front(server, refusesETagConditions: refusesETagConditions)
        let dav = WebDAVAccessor(baseURL: server.baseURL, transport: front, pause: { _ in }, outageCooldown: .zero)
        return (Fixture(fileSystem: fileSystem, server: server, dav: dav), front)
    }

    /// A local folder synced with the fixture's server, one request at a time.
    struct Pair: Sendable {
        let local = URL(filePath: "/local", directoryHint: .isDirectory)
        let state = URL(filePath: "/state")
        let container: URL
        let engine: SyncEngine

        init(_ f: Fixture) throws {
            try f.fileSystem.createDirectory(at: local, withIntermediateDirectories: false)
            container = f.server.baseURL
            engine = SyncEngine(directories: f.fileSystem, files: f.fileSystem, scansConcurrently: false, remote: f.dav)
        }

        /// One run, on a thread of its own (the accessor blocks its thread).
        func run() async throws -> SyncReport {
            try await BlockingExecutor.shared.run { [self] in
                try engine.run(local: local, container: container, stateDirectory: state)
            }
        }
    }

    @Test("MOVE over a target as it was read: moved, with the ETag that metadata(at:) read, and no second look")
    func unchangedTarget() async throws {
        let (f, front) = try Self.fixture()
        try f.fileSystem.write(Data("old".utf8), to: f.served("a.txt"))
        try f.fileSystem.write(Data("new".utf8), to: f.served("t"))
        let moved = try await BlockingExecutor.shared.run { () -> Bool in
            let seen = try f.dav.metadata(at: f.url("a.txt"))
            return try f.dav.moveItem(at: f.url("t"), to: f.url("a.txt"), ifStill: seen)
        }
        #expect(moved)
        #expect(f.stored("a.txt") == Data("new".utf8) && f.stored("t") == nil)
        #expect(f.server.requests.map(\.method.rawValue) == ["PROPFIND", "MOVE"])
        let condition = try #require(front.conditions.withLock { $0 }.first)
        #expect(condition.hasPrefix("<http://dav.test/dav/a.txt> ([\"") && condition.hasSuffix("\"])"), "\(condition)")
    }

    @Test("a version saved on the server after the last look is refused by the server: nothing moved, the save kept")
    func changedJustBefore() async throws {
        let (f, front) = try Self.fixture()
        front.arm(beforeMoveTo: "/a.txt") { [fileSystem = f.fileSystem] in
            try? fileSystem.write(Data("saved on the server".utf8), to: URL(filePath: "/served/a.txt"))
        }
        try f.fileSystem.write(Data("old".utf8), to: f.served("a.txt"))
        try f.fileSystem.write(Data("new".utf8), to: f.served("t"))
        let moved = try await BlockingExecutor.shared.run { () -> Bool in
            let seen = try f.dav.metadata(at: f.url("a.txt"))
            return try f.dav.moveItem(at: f.url("t"), to: f.url("a.txt"), ifStill: seen)
        }
        #expect(!moved)
        #expect(f.stored("a.txt") == Data("saved on the server".utf8))
        #expect(f.stored("t") == Data("new".utf8), "the source stays where it was")
        #expect(f.server.requests.map(\.status) == [207, 412, 207])
    }

    @Test("a target changed or gone since it was read is not moved over; read again, it is")
    func changedBefore() async throws {
        let (f, _) = try Self.fixture()
        try f.fileSystem.write(Data("old".utf8), to: f.served("a.txt"))
        try f.fileSystem.write(Data("new".utf8), to: f.served("t"))
        let seen = try await BlockingExecutor.shared.run { try f.dav.metadata(at: f.url("a.txt")) }
        try f.fileSystem.write(Data("changed".utf8), to: f.served("a.txt"))
        #expect(
            try await BlockingExecutor.shared.run {
                try f.dav.moveItem(at: f.url("t"), to: f.url("a.txt"), ifStill: seen)
            } == false)
        #expect(f.stored("a.txt") == Data("changed".utf8) && f.stored("t") == Data("new".utf8))
        try f.fileSystem.removeItem(at: f.served("a.txt"), recursively: false)
        #expect(
            try await BlockingExecutor.shared.run {
                try f.dav.moveItem(at: f.url("t"), to: f.url("a.txt"), ifStill: seen)
            } == false)
        #expect(f.stored("a.txt") == nil && f.stored("t") == Data("new".utf8))
        try f.fileSystem.write(Data("again".utf8), to: f.served("a.txt"))
        let moved = try await BlockingExecutor.shared.run { () -> Bool in
            try f.dav.moveItem(at: f.url("t"), to: f.url("a.txt"), ifStill: try f.dav.metadata(at: f.url("a.txt")))
        }
        #expect(moved)
        #expect(f.stored("a.txt") == Data("new".utf8) && f.stored("t") == nil)
    }

    @Test(
        "a server that refuses every ETag condition (rclone): learnt from a refusal over an unchanged target, then a last look and a plain MOVE"
    )
    func serverWithoutConditions() async throws {
        let (f, front) = try Self.fixture(refusesETagConditions: true)
        for name in ["a.txt", "b.txt"] { try f.fileSystem.write(Data("old".utf8), to: f.served(name)) }
        for name in ["t1", "t2", "t3"] { try f.fileSystem.write(Data(name.utf8), to: f.served(name)) }
        let (first, second, changed) = try await BlockingExecutor.shared.run { () -> (Bool, Bool, Bool) in
            let a = try f.dav.metadata(at: f.url("a.txt"))
            let b = try f.dav.metadata(at: f.url("b.txt"))
            let first = try f.dav.moveItem(at: f.url("t1"), to: f.url("a.txt"), ifStill: a)
            let second = try f.dav.moveItem(at: f.url("t2"), to: f.url("b.txt"), ifStill: b)
            // a.txt now holds t1: the version read before is gone, and a last look sees it.
            let changed = try f.dav.moveItem(at: f.url("t3"), to: f.url("a.txt"), ifStill: a)
            return (first, second, changed)
        }
        #expect(first && second && !changed)
        #expect(
            f.stored("a.txt") == Data("t1".utf8) && f.stored("b.txt") == Data("t2".utf8)
                && f.stored("t3") == Data("t3".utf8))
        let conditions = front.conditions.withLock { $0 }
        #expect(
            conditions.count == 3 && conditions[0].contains("[") && conditions[1].isEmpty && conditions[2].isEmpty,
            "\(conditions)")
    }

    @Test(
        "the engine: a save on the server between its last look and its MOVE is kept; the incoming edit becomes a conflict copy; the next run settles with nothing lost"
    )
    func engineDivertsToConflict() async throws {
        let (f, front) = try Self.fixture()
        let pair = try Pair(f)
        let (local, run) = (pair.local, pair.run)
        try f.fileSystem.write(Data("v1".utf8), to: local.appending(path: "notes.txt"))
        _ = try await run()
        #expect(f.stored("notes.txt") == Data("v1".utf8))

        f.fileSystem.advanceTime(by: 5)
        try f.fileSystem.write(Data("v2, edited here".utf8), to: local.appending(path: "notes.txt"))
        front.arm(beforeMoveTo: "/notes.txt") { [fileSystem = f.fileSystem] in
            try? fileSystem.write(
                Data("v2, saved on the server at the last moment".utf8), to: URL(filePath: "/served/notes.txt"))
        }
        let second = try await run()
        #expect(
            f.stored("notes.txt") == Data("v2, saved on the server at the last moment".utf8),
            "the server's save is not replaced")
        #expect(second.conflicts.count == 1, "\(second.conflicts)")
        let copy = try #require(second.conflicts.first?.copy)
        #expect(f.stored(copy) == Data("v2, edited here".utf8), "the incoming edit is kept beside it")

        f.fileSystem.advanceTime(by: 5)
        let third = try await run()
        #expect(third.succeeded)
        #expect(
            try f.fileSystem.read(from: local.appending(path: "notes.txt"))
                == Data("v2, saved on the server at the last moment".utf8))
        #expect(try f.fileSystem.read(from: local.appending(path: copy)) == Data("v2, edited here".utf8))
        #expect(f.stored("notes.txt") == Data("v2, saved on the server at the last moment".utf8))
    }

    @Test(
        "the engine: a file made on the server under a new file's name after the scan refuses the MOVE (Overwrite: F); it is kept and the new file becomes a conflict copy"
    )
    func newNameTakenMeanwhile() async throws {
        let (f, front) = try Self.fixture()
        let pair = try Pair(f)
        try f.fileSystem.write(Data("made here".utf8), to: pair.local.appending(path: "new.txt"))
        front.arm(beforeMoveTo: "/new.txt") { [fileSystem = f.fileSystem] in
            try? fileSystem.write(Data("made on the server meanwhile".utf8), to: URL(filePath: "/served/new.txt"))
        }
        let report = try await pair.run()
        #expect(f.stored("new.txt") == Data("made on the server meanwhile".utf8), "the server's file is not replaced")
        let copy = try #require(report.conflicts.first?.copy)
        #expect(report.conflicts.map(\.path) == ["new.txt"])
        #expect(f.stored(copy) == Data("made here".utf8), "the new file is kept beside it")
        let moves = f.server.requests.filter {
            $0.method.rawValue == "MOVE" && !$0.path.contains("replica") && !$0.path.contains("-lock-")
        }
        // Into place, refused; then to the conflict name (the replica marker's and the lock's own moves left out).
        #expect(moves.map(\.status) == [412, 201], "\(moves)")
    }

    @Test(
        "between runs, a file rewritten on the server in the same second at the same size is seen by its ETag and carried over"
    )
    func sameSecondSameSize() async throws {
        let (f, _) = try Self.fixture()
        let pair = try Pair(f)
        let (local, run) = (pair.local, pair.run)
        try f.fileSystem.write(Data("one".utf8), to: local.appending(path: "a.txt"))
        _ = try await run()
        let synced = try f.fileSystem.metadata(at: f.served("a.txt"))
        // The clock has not moved: the same second, and the same size.
        try f.fileSystem.write(Data("two".utf8), to: f.served("a.txt"))
        let rewritten = try f.fileSystem.metadata(at: f.served("a.txt"))
        #expect(rewritten.size == synced.size && rewritten.modificationDate == synced.modificationDate)
        let second = try await run()
        #expect(second.copiedToLocal == 1, "\(second)")
        #expect(try f.fileSystem.read(from: local.appending(path: "a.txt")) == Data("two".utf8))
        let third = try await run()
        #expect(third.copiedToLocal == 0 && third.copiedToContainer == 0 && third.conflicts.isEmpty)
    }

    @Test(
        "a state recorded without ETags (archive version 4) learns them in the next run, changes nothing, and then sees a same-second rewrite"
    )
    func tagsLearnedFromAnOlderState() async throws {
        let (f, _) = try Self.fixture()
        let pair = try Pair(f)
        let (local, state, run) = (pair.local, pair.state, pair.run)
        try f.fileSystem.write(Data("one".utf8), to: local.appending(path: "a.txt"))
        try f.fileSystem.write(Data("bee".utf8), to: local.appending(path: "b.txt"))
        func stateFile() throws -> URL {
            let entry = try #require(
                try f.fileSystem.contentsOfDirectory(at: state).first { $0.name.hasSuffix(".archive") })
            return state.appending(path: entry.name)
        }
        _ = try await run()
        // What a version 4 state reads as: every container tag unknown.
        var archive = try ArchiveCodec.decode(try f.fileSystem.read(from: try stateFile()))
        #expect(archive.entries.values.allSatisfy { $0.containerTag != 0 })
        for path in archive.entries.keys { archive.entries[path]!.containerTag = 0 }
        try f.fileSystem.write(ArchiveCodec.encode(archive), to: try stateFile())

        let upgrade = try await run()
        #expect(upgrade.copiedToLocal == 0 && upgrade.copiedToContainer == 0 && upgrade.failures.isEmpty)
        let learned = try ArchiveCodec.decode(try f.fileSystem.read(from: try stateFile()))
        #expect(learned.entries.keys.map(\.rawValue).sorted() == ["a.txt", "b.txt"])
        #expect(learned.entries.values.allSatisfy { $0.containerTag != 0 }, "the tags are recorded")

        try f.fileSystem.write(Data("two".utf8), to: f.served("a.txt"))  // the same second, the same size
        let next = try await run()
        #expect(next.copiedToLocal == 1)
        #expect(try f.fileSystem.read(from: local.appending(path: "a.txt")) == Data("two".utf8))
    }
}
