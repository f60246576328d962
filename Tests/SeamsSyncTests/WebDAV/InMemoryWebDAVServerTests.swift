import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

/// The in-memory WebDAV server's own promises: its faults do what they say (applied or not,
/// answered or not, the process dead or not), its locks hold and expire, its preconditions and
/// limits answer as a real server's do. (What it shares with Apache and rclone is in the contract.)
@Suite struct InMemoryWebDAVServerTests {
    struct Fixture: Sendable {
        let fileSystem: InMemoryFileSystem
        let server: InMemoryWebDAVServer
        let dav: WebDAVAccessor
        let pauses: LockedPauses

        func url(_ path: String) -> URL { server.baseURL.appending(path: path) }
        func stored(_ path: String) -> Data? {
            try? fileSystem.read(from: URL(filePath: "/served").appending(path: path))
        }
    }

    final class LockedPauses: Sendable {
        let pauses = LockedValue<[Duration]>([])
        var all: [Duration] { pauses.withLock { $0 } }
    }

    static func fixture() throws -> Fixture {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false)
        try fileSystem.createDirectory(at: URL(filePath: "/served"), withIntermediateDirectories: false)
        let server = InMemoryWebDAVServer(serving: URL(filePath: "/served"), of: fileSystem)
        let pauses = LockedPauses()
        // No outage cooldown: these tests inject one fault after another and watch each request.
        let dav = WebDAVAccessor(
            baseURL: server.baseURL, transport: server,
            pause: { duration in pauses.pauses.withLock { $0.append(duration) } }, outageCooldown: .zero)
        return Fixture(fileSystem: fileSystem, server: server, dav: dav, pauses: pauses)
    }

    static func request(_ method: String, _ fixture: Fixture, _ path: String, _ headers: [String: String] = [:])
        -> HTTPRequest
    {
        var request = HTTPRequest(
            method: HTTPRequest.Method(method)!, scheme: "http", authority: "dav.test", path: "/dav/" + path)
        for (name, value) in headers { request.headerFields[HTTPField.Name(name)!] = value }
        return request
    }

    @Test("a status fault answers it and changes nothing: 507 on PUT is ENOSPC, no file")
    func statusFault() async throws {
        let f = try Self.fixture()
        f.server.inject(.respond(status: 507), on: .put)
        try await BlockingExecutor.shared.run {
            try expectFailure(nil, ENOSPC) { try f.dav.write(Data("big".utf8), to: f.url("a.bin")) }
        }
        #expect(f.stored("a.bin") == nil)
        #expect(f.server.requests.map(\.status) == [507])
    }

    @Test("503 is retried with back-off and the write lands once")
    func transientStatus() async throws {
        let f = try Self.fixture()
        f.server.inject(.respond(status: 503), on: .put, times: 2)
        try await BlockingExecutor.shared.run { try f.dav.write(Data("x".utf8), to: f.url("a")) }
        #expect(f.stored("a") == Data("x".utf8))
        #expect(f.server.requests.map(\.status) == [503, 503, 201])
        #expect(f.pauses.all == [.milliseconds(250), .milliseconds(500)])
    }

    @Test("an answer lost after a write was applied: the write throws ECONNRESET, is not retried, and is on the server")
    func lostWriteAnswer() async throws {
        let f = try Self.fixture()
        f.server.inject(.loseAnswer, atRequest: 1)
        try await BlockingExecutor.shared.run {
            try expectFailure(nil, ECONNRESET) { try f.dav.write(Data("sent".utf8), to: f.url("a")) }
        }
        #expect(f.stored("a") == Data("sent".utf8))
        #expect(f.server.requestCount == 1)
        #expect(f.server.hasCrashed == false)
    }

    @Test("an answer lost to a listing is asked again (it changes nothing)")
    func lostReadAnswer() async throws {
        let f = try Self.fixture()
        try f.fileSystem.write(Data("1".utf8), to: URL(filePath: "/served/one"))
        f.server.inject(.loseAnswer, on: HTTPRequest.Method("PROPFIND")!, times: 1)
        let names = try await BlockingExecutor.shared.run {
            try f.dav.contentsOfDirectory(at: f.server.baseURL).map(\.name)
        }
        #expect(names == ["one"])
        #expect(f.server.requestCount == 2)
    }

    @Test("a refused connection is retried, then ECONNREFUSED; a write that timed out is not retried")
    func connectionFaults() async throws {
        let f = try Self.fixture()
        f.server.inject(.refuseConnection, on: .put)
        try await BlockingExecutor.shared.run {
            try expectFailure(nil, ECONNREFUSED) { try f.dav.write(Data("x".utf8), to: f.url("a")) }
        }
        #expect(f.server.requestCount == 4)
        f.server.restart()
        f.server.inject(.timeOut, on: .put)
        try await BlockingExecutor.shared.run {
            try expectFailure(nil, ETIMEDOUT) { try f.dav.write(Data("x".utf8), to: f.url("a")) }
        }
        #expect(f.server.requestCount == 5)
        #expect(f.stored("a") == nil)
    }

    @Test(
        "a crash before sending applies nothing; after applying keeps the change; every later request fails until restart"
    )
    func crashes() async throws {
        let f = try Self.fixture()
        let told = LockedValue(0)
        f.server.whenCrashed { told.withLock { $0 += 1 } }
        f.server.inject(.crashBeforeSending, atRequest: 1)
        try await BlockingExecutor.shared.run {
            #expect(throws: CocoaError.self) { try f.dav.write(Data("x".utf8), to: f.url("a")) }
            #expect(throws: CocoaError.self) { try f.dav.write(Data("y".utf8), to: f.url("b")) }
        }
        #expect(f.server.hasCrashed)
        #expect(f.stored("a") == nil && f.stored("b") == nil)
        #expect(told.withLock { $0 } == 1)
        f.server.restart()
        f.server.inject(.crashAfterApplying, atRequest: 1)
        _ = try await BlockingExecutor.shared.run {
            #expect(throws: CocoaError.self) { try f.dav.write(Data("z".utf8), to: f.url("c")) }
        }
        #expect(f.stored("c") == Data("z".utf8))
        #expect(f.server.hasCrashed && told.withLock { $0 } == 2)
        f.server.restart()
        try await BlockingExecutor.shared.run { try f.dav.write(Data("after".utf8), to: f.url("d")) }
        #expect(f.stored("d") == Data("after".utf8))
    }

    @Test(
        "a run that meets the lock file another run is making right now (empty, locked on the server) is refused as locked"
    )
    func lockBeingMade() async throws {
        let f = try Self.fixture()
        // The other run's exclusive create, between its LOCK and its PUT: an empty, locked file.
        var lock = Self.request("LOCK", f, ".seams-lock", ["Timeout": "Second-60", "Depth": "0"])
        lock.headerFields[.contentType] = "application/xml"
        let (answer, _) = try await f.server.send(
            lock, body: Data("<D:lockinfo xmlns:D=\"DAV:\"/>".utf8), timeout: .seconds(5))
        #expect(answer.status.code == 201)
        let local = URL(filePath: "/local", directoryHint: .isDirectory)
        try f.fileSystem.createDirectory(at: local, withIntermediateDirectories: false)
        try f.fileSystem.write(Data("x".utf8), to: local.appending(path: "a.txt"))
        let engine = SyncEngine(
            directories: f.fileSystem, files: f.fileSystem, owner: "second", scansConcurrently: false, remote: f.dav)
        let outcome = try await BlockingExecutor.shared.run { () -> SyncError? in
            do {
                _ = try engine.run(local: local, container: f.server.baseURL, stateDirectory: URL(filePath: "/state"))
                return nil
            } catch let error as SyncError {
                return error
            }
        }
        guard case .lockHeld = outcome else {
            Issue.record("expected lockHeld (exit 4), got \(String(describing: outcome))")
            return
        }
        #expect(f.stored(".seams-lock") == Data(), "the other run's lock is where it was")
        #expect(f.server.lockedPaths == ["/.seams-lock"])
        #expect(f.stored("a.txt") == nil, "nothing synced")
    }

    @Test(
        "a run killed at any request leaves no lock the next run cannot read: a killed run's lock is taken over at once"
    )
    func killedRunsLockTakenAtOnce() async throws {
        // The killed run is process 1 of this host, the next one process 2; process 1 is gone.
        @Sendable func engine(_ f: Fixture, pid: Int32) -> SyncEngine {
            SyncEngine(
                directories: f.fileSystem, files: f.fileSystem, owner: "run \(pid)", scansConcurrently: false,
                process: SyncProcess(host: "laptop", bootID: "boot", pid: pid, isRunning: { $0 == 2 }),
                lockWait: { _ in Issue.record("the run watched the lock instead of taking it over") }, remote: f.dav)
        }
        let local = URL(filePath: "/local", directoryHint: .isDirectory)
        func fixture() throws -> Fixture {
            let f = try Self.fixture()
            try f.fileSystem.createDirectory(at: local, withIntermediateDirectories: false)
            try f.fileSystem.write(Data("x".utf8), to: local.appending(path: "a.txt"))
            return f
        }
        let probe = try fixture()
        _ = try await BlockingExecutor.shared.run {
            try engine(probe, pid: 1).run(
                local: local, container: probe.server.baseURL, stateDirectory: URL(filePath: "/state"))
        }
        let requests = probe.server.requestCount
        var problems: [String] = []
        for request in 1...requests {
            for fault in [WebDAVFault.crashBeforeSending, .crashAfterApplying] {
                let f = try fixture()
                f.server.inject(fault, atRequest: request)
                _ = try? await BlockingExecutor.shared.run {
                    try engine(f, pid: 1).run(
                        local: local, container: f.server.baseURL, stateDirectory: URL(filePath: "/state"))
                }
                f.server.restart()
                do {
                    _ = try await BlockingExecutor.shared.run {
                        try engine(f, pid: 2).run(
                            local: local, container: f.server.baseURL, stateDirectory: URL(filePath: "/state"))
                    }
                } catch {
                    problems.append("\(fault) at request \(request)/\(requests): the next run failed: \(error)")
                    continue
                }
                if f.stored("a.txt") != Data("x".utf8) {
                    problems.append("\(fault) at request \(request): a.txt not synced")
                }
                let left = try f.fileSystem.contentsOfDirectory(at: URL(filePath: "/served")).map(\.name).filter {
                    $0.hasPrefix(".seams-tmp") || $0 == ".seams-lock"
                }
                if !left.isEmpty { problems.append("\(fault) at request \(request): left \(left)") }
                if !f.server.lockedPaths.isEmpty {
                    problems.append("\(fault) at request \(request): locked \(f.server.lockedPaths)")
                }
            }
        }
        #expect(problems == [])
    }

    @Test(
        "a new file costs a PUT to the run's temp name, a PROPFIND of it and a MOVE: no look at its name first, no LOCK but the lock file's, no look at the folders above"
    )
    func newFileRequests() async throws {
        let f = try Self.fixture()
        let local = URL(filePath: "/local", directoryHint: .isDirectory)
        try f.fileSystem.createDirectory(at: local.appending(path: "notes"), withIntermediateDirectories: true)
        try f.fileSystem.createDirectory(at: URL(filePath: "/served/notes"), withIntermediateDirectories: false)
        try f.fileSystem.write(Data("new".utf8), to: local.appending(path: "notes/a.txt"))
        let engine = SyncEngine(directories: f.fileSystem, files: f.fileSystem, scansConcurrently: false, remote: f.dav)
        let report = try await BlockingExecutor.shared.run {
            try engine.run(local: local, container: f.server.baseURL, stateDirectory: URL(filePath: "/state"))
        }
        #expect(report.copiedToContainer == 1)
        #expect(f.stored("notes/a.txt") == Data("new".utf8))
        let requests = f.server.requests
        // The run's temp names for files are `.seams-tmp-<run>-<n>`; the lock's and the replica
        // marker's have their own words in them.
        let forFile = requests.filter {
            $0.path.hasSuffix("/a.txt")
                || $0.path.contains("/.seams-tmp-") && !$0.path.contains("lock") && !$0.path.contains("replica")
        }
        #expect(forFile.map(\.method.rawValue) == ["PUT", "PROPFIND", "MOVE"], "\(forFile)")
        #expect(forFile.map(\.status) == [201, 207, 201], "\(forFile)")
        // The run's own lock is a PUT to its temp name and a MOVE with Overwrite: F: no LOCK at all.
        let locked = requests.filter { $0.method.rawValue == "LOCK" || $0.method.rawValue == "UNLOCK" }
        #expect(locked.isEmpty, "\(locked)")
        let placed = requests.filter { $0.path.hasSuffix("/.seams-lock") && $0.method.rawValue == "MOVE" }
        #expect(placed.isEmpty, "the lock is the MOVE's destination, not its source")
        let lockMoves = requests.filter { $0.method.rawValue == "MOVE" && $0.path.contains("/.seams-tmp-lock-new-") }
        #expect(lockMoves.map(\.status) == [201], "\(lockMoves)")
        // A server serves no symbolic links: the folder above is not looked at again to copy into it.
        let firstPut = try #require(forFile.first).number
        let folderLooks = requests.filter {
            $0.number > firstPut && ($0.path.hasSuffix("/notes/") || $0.path.hasSuffix("/notes"))
        }
        #expect(folderLooks.isEmpty, "\(folderLooks)")
    }

    @Test("an upload to a new name is one PUT with If-None-Match: a taken name is EEXIST and keeps its content")
    func uploadToNewName() async throws {
        let f = try Self.fixture()
        try await BlockingExecutor.shared.run {
            try f.dav.upload(Data("first".utf8), toNewName: f.url("t"))
            try expectFailure(.fileWriteFileExists, EEXIST) {
                try f.dav.upload(Data("second".utf8), toNewName: f.url("t"))
            }
            try expectFailure(.fileNoSuchFile, ENOENT) {
                try f.dav.upload(Data("x".utf8), toNewName: f.url("missing/t"))
            }
        }
        #expect(f.stored("t") == Data("first".utf8))
        #expect(f.server.requests.map(\.method.rawValue) == ["PUT", "PUT", "PUT"])
        #expect(f.server.requests.map(\.status) == [201, 412, 409])
    }

    @Test("a lock a dead client left refuses writes (423, EBUSY) until its timeout passes")
    func staleLock() async throws {
        let f = try Self.fixture()
        var lock = Self.request("LOCK", f, "held", ["Timeout": "Second-60", "Depth": "0"])
        lock.headerFields[.contentType] = "application/xml"
        let (answer, _) = try await f.server.send(
            lock, body: Data("<D:lockinfo xmlns:D=\"DAV:\"/>".utf8), timeout: .seconds(5))
        #expect(answer.status.code == 201)
        #expect(f.stored("held") == Data())
        #expect(f.server.lockedPaths == ["/held"])
        try await BlockingExecutor.shared.run {
            try expectFailure(nil, EBUSY) { try f.dav.write(Data("mine".utf8), to: f.url("held")) }
            try expectFailure(nil, EEXIST) { try f.dav.createFile(Data("mine".utf8), at: f.url("held")) }
        }
        f.fileSystem.advanceTime(by: 61)
        #expect(f.server.lockedPaths == [])
        try await BlockingExecutor.shared.run { try f.dav.write(Data("mine".utf8), to: f.url("held")) }
        #expect(f.stored("held") == Data("mine".utf8))
    }

    @Test("If-Match and If-None-Match are honoured: a stale ETag is 412, a current one goes through")
    func preconditions() async throws {
        let f = try Self.fixture()
        let (created, _) = try await f.server.send(
            Self.request("PUT", f, "a", ["If-None-Match": "*"]), body: Data("1".utf8), timeout: .seconds(5))
        #expect(created.status.code == 201)
        let etag = try #require(created.headerFields[.eTag])
        let (again, _) = try await f.server.send(
            Self.request("PUT", f, "a", ["If-None-Match": "*"]), body: Data("2".utf8), timeout: .seconds(5))
        #expect(again.status.code == 412)
        let (matched, _) = try await f.server.send(
            Self.request("PUT", f, "a", ["If-Match": etag]), body: Data("3".utf8), timeout: .seconds(5))
        #expect(matched.status.code == 204)
        let (stale, _) = try await f.server.send(
            Self.request("PUT", f, "a", ["If-Match": etag]), body: Data("4".utf8), timeout: .seconds(5))
        #expect(stale.status.code == 412)
        #expect(f.stored("a") == Data("3".utf8))
        #expect(
            matched.headerFields[.eTag] != etag, "a new content has a new ETag, in the same second with the same size")
    }

    @Test(
        "limits: Depth infinity is refused, paths outside the collection are 404, dot segments 400, links are not served"
    )
    func limits() async throws {
        let f = try Self.fixture()
        try f.fileSystem.write(Data("t".utf8), to: URL(filePath: "/served/target"))
        try f.fileSystem.createSymbolicLink(at: URL(filePath: "/served/link"), withDestination: "target")
        let (infinite, _) = try await f.server.send(
            Self.request("PROPFIND", f, "", ["Depth": "infinity"]), body: nil, timeout: .seconds(5))
        #expect(infinite.status.code == 403)
        var outside = Self.request("GET", f, "target")
        outside.path = "/elsewhere/target"
        #expect(try await f.server.send(outside, body: nil, timeout: .seconds(5)).0.status.code == 404)
        #expect(
            try await f.server.send(Self.request("GET", f, "x/../target"), body: nil, timeout: .seconds(5)).0.status
                .code == 400)
        #expect(
            try await f.server.send(Self.request("GET", f, "link"), body: nil, timeout: .seconds(5)).0.status.code
                == 404)
        let names = try await BlockingExecutor.shared.run {
            try f.dav.contentsOfDirectory(at: f.server.baseURL).map(\.name)
        }
        #expect(names == ["target"])
    }

    @Test("credentials are checked on every request: without them 401 with a Basic challenge")
    func credentials() async throws {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false)
        try fileSystem.createDirectory(at: URL(filePath: "/served"), withIntermediateDirectories: false)
        let server = InMemoryWebDAVServer(
            serving: URL(filePath: "/served"), of: fileSystem, credentials: WebDAVCredentials(user: "u", password: "p"))
        var request = HTTPRequest(method: .get, scheme: "http", authority: "dav.test", path: "/dav/")
        let (refused, _) = try await server.send(request, body: nil, timeout: .seconds(5))
        #expect(refused.status.code == 401)
        #expect(refused.headerFields[.wwwAuthenticate]?.hasPrefix("Basic") == true)
        request.method = HTTPRequest.Method("PROPFIND")!
        request.headerFields[HTTPField.Name("Depth")!] = "0"
        request.headerFields[.authorization] = WebDAVCredentials(user: "u", password: "p").authorization
        #expect(try await server.send(request, body: nil, timeout: .seconds(5)).0.status.code == 207)
    }
}
