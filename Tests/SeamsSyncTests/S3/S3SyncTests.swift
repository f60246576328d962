import Foundation
import HTTPTypes
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

@testable import SeamsSync

/// The whole engine against a prefix of a bucket of the in-memory S3 server: no sockets.
@Suite struct S3SyncTests {
    static let keys = S3Credentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    let local = URL(filePath: "/home/me/Notes", directoryHint: .isDirectory)
    let container = URL(string: "s3://bucket/notes/")!
    let state = URL(filePath: "/state", directoryHint: .isDirectory)
    let fileSystem = InMemoryFileSystem()
    let server: InMemoryS3Server
    let client: S3Client

    init() async throws {
        let clock = fileSystem
        server = InMemoryS3Server(credentials: Self.keys, now: { clock.now })
        client = S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: server, now: { clock.now }, pause: { _ in })
        try await BlockingExecutor.shared.run { [client] in try client.createBucket() }
        try fileSystem.createDirectory(at: local, withIntermediateDirectories: true)
        try fileSystem.createDirectory(at: state, withIntermediateDirectories: true)
    }

    /// An engine of process `pid` of this host (a run whose lock was left behind is taken over
    /// by the next process's, as after a restart).
    func engine(partSize: Int = 8 << 20, client: S3Client? = nil, pid: Int32 = 1) -> SyncEngine {
        let clock = fileSystem
        return SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { clock.now }, owner: "test",
            scansConcurrently: false,
            process: SyncProcess(host: "here", bootID: "boot", pid: pid, isRunning: { $0 == pid }),
            objectStore: S3Accessor(client: client ?? self.client, prefix: "notes/", partSize: partSize))
    }

    func sync(_ engine: SyncEngine? = nil, options: SyncOptions = SyncOptions()) async throws -> SyncReport {
        fileSystem.advanceTime(by: 2)
        return try await (engine ?? self.engine()).run(
            local: local, container: container, stateDirectory: state, options: options)
    }

    /// The bucket's keys under the prefix, the engine's own (`.seams…`) left out.
    func userKeys() -> [String] {
        server.keys(in: "bucket").filter { $0.hasPrefix("notes/") && !$0.hasPrefix("notes/.seams") }
            .map { String($0.dropFirst("notes/".count)) }
    }

    func put(_ key: String, _ text: String) async throws {
        try await BlockingExecutor.shared.run { [client] in
            _ = try client.putObject("notes/" + key, body: Data(text.utf8))
        }
    }

    func object(_ key: String) async throws -> String {
        try await BlockingExecutor.shared.run { [client] in
            String(decoding: try client.getObject("notes/" + key).1, as: UTF8.self)
        }
    }

    func write(_ path: String, _ text: String) throws {
        let url = local.appending(path: path)
        try fileSystem.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileSystem.write(Data(text.utf8), to: url)
    }

    /// The names in the local folder, the engine's own (`.seams…`) left out.
    func localNames() throws -> [String] {
        try fileSystem.contentsOfDirectory(at: local).map(\.name).filter { !$0.hasPrefix(".seams") }.sorted()
    }

    func read(_ path: String) throws -> String {
        String(decoding: try fileSystem.read(from: local.appending(path: path)), as: UTF8.self)
    }

    @Test("a first sync copies both ways, keeps an empty folder as a marker, and a second run changes nothing")
    func firstSyncAndQuiet() async throws {
        try write("a.txt", "local a")
        try write("sub/b é.txt", "local b")
        try fileSystem.createDirectory(at: local.appending(path: "empty"), withIntermediateDirectories: false)
        try await put("c.txt", "bucket c")
        try await put("d/e.txt", "bucket e")
        var report = try await sync()
        #expect(report.failures.isEmpty)
        #expect(report.copiedToContainer == 2 && report.copiedToLocal == 2)
        #expect(userKeys() == ["a.txt", "c.txt", "d/e.txt", "empty/", "sub/", "sub/b é.txt"])
        let uploaded = try await object("sub/b é.txt")
        #expect(uploaded == "local b")
        #expect(try read("c.txt") == "bucket c" && read("d/e.txt") == "bucket e")
        #expect(!server.keys(in: "bucket").contains("notes/.seams-lock"), "the lock is released")
        #expect(!server.keys(in: "bucket").contains { $0.contains(".seams-tmp") }, "no temp object left")

        // The files this run put straight to their names were recorded with the dates of the
        // answers, the server's: the next run finds nothing changed and writes nothing.
        let before = server.requests.count
        report = try await sync()
        #expect(report.copiedToContainer == 0 && report.copiedToLocal == 0 && report.failures.isEmpty)
        let writes = server.requests.dropFirst(before).filter {
            ($0.hasPrefix("PUT") || $0.hasPrefix("DELETE")) && !$0.contains(".seams-lock")
                && !$0.contains(".seams-tmp-lock")
        }
        #expect(writes.isEmpty, "a quiet run writes nothing but its lock: \(writes)")
    }

    /// A client of this run whose requests go through `transport` (to the same server).
    func client(through transport: InterceptingTransport) -> S3Client {
        let clock = fileSystem
        return S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: transport, now: { clock.now }, pause: { _ in })
    }

    @Test("a new file goes straight to its name: one PUT with If-None-Match: *, no temp object, no copy")
    func newFilesPutInPlace() async throws {
        for index in 0..<5 { try write("dir/file \(index).txt", "text \(index)") }
        let transport = InterceptingTransport(server)
        let report = try await sync(engine(client: client(through: transport)))
        #expect(report.failures.isEmpty && report.copiedToContainer == 5)
        // The folder's marker and the replica's own marker aside.
        let writes = transport.requests.filter { $0.method != .get && $0.method != .head }
            .filter { $0.path != "/bucket/notes/dir/" && $0.path?.contains("/bucket/notes/.seams") == false }
        #expect(writes.count == 5, "\(writes.map { "\($0.method) \($0.path ?? "")" })")
        for put in writes {
            #expect(put.method == .put && put.path?.hasPrefix("/bucket/notes/dir/file%20") == true)
            #expect(put.headerFields[HTTPField.Name("If-None-Match")!] == "*")
            #expect(put.headerFields[HTTPField.Name("x-amz-copy-source")!] == nil)
        }
        #expect(try await object("dir/file 3.txt") == "text 3")
        let quiet = try await sync()
        #expect(quiet.copiedToContainer == 0 && quiet.copiedToLocal == 0, "the next run sees them as synced")
    }

    @Test(
        "a new file's name taken on the server just before its PUT: both versions kept, the local one as a conflict copy"
    )
    func newFileNameTakenInTheMoment() async throws {
        try write("a.txt", "mine")
        let transport = InterceptingTransport(server)
        transport.on(.before, once: true, of: { $0.method == .put && $0.path == "/bucket/notes/a.txt" }) {
            [client] _ in _ = try? client.putObject("notes/a.txt", body: Data("theirs".utf8))
        }
        let report = try await sync(engine(client: client(through: transport)))
        #expect(report.conflicts.count == 1, "\(report)")
        #expect(try await object("a.txt") == "theirs", "the other device's version is not overwritten")
        let copy = try #require(report.conflicts.first?.copy)
        #expect(try await object(copy) == "mine")
        let next = try await sync()
        #expect(next.failures.isEmpty)
        #expect(try read("a.txt") == "theirs" && read(copy) == "mine", "both versions on both sides")
    }

    @Test(
        "a file the server dated anew, ETag and size unchanged, is unchanged: its date is learned, and a later edit goes across"
    )
    func redatedByTheServer() async throws {
        try write("a.txt", "a1")
        _ = try await sync()
        fileSystem.advanceTime(by: 60)
        // Copied onto itself (as a tool that rewrites metadata does): a new date, the same ETag.
        try await BlockingExecutor.shared.run { [client] in _ = try client.copyObject("notes/a.txt", to: "notes/a.txt")
        }
        var report = try await sync()
        #expect(report.copiedToLocal == 0 && report.copiedToContainer == 0 && report.conflicts.isEmpty)
        let before = server.requests.count
        report = try await sync()
        let writes = server.requests.dropFirst(before).filter {
            ($0.hasPrefix("PUT") || $0.hasPrefix("DELETE")) && !$0.contains(".seams-lock")
                && !$0.contains(".seams-tmp-lock")
        }
        #expect(writes.isEmpty, "the learned date was kept: \(writes)")
        try write("a.txt", "a2 longer")
        report = try await sync()
        #expect(report.conflicts.isEmpty && report.copiedToContainer == 1, "\(report.conflicts)")
        #expect(try await object("a.txt") == "a2 longer")
    }

    @Test("edits go both ways, and each replaced version is kept in the trash of its side")
    func editsBothWays() async throws {
        try write("a.txt", "a1")
        try await put("c.txt", "c1")
        _ = try await sync()
        try write("a.txt", "a2 longer")
        try await put("c.txt", "c2 longer")
        let report = try await sync()
        #expect(report.failures.isEmpty && report.conflicts.isEmpty, "\(report.failures) \(report.conflicts)")
        let edited = try await object("a.txt")
        #expect(try edited == "a2 longer" && read("c.txt") == "c2 longer")
        let trash = server.keys(in: "bucket").filter { $0.hasPrefix("notes/.seams-trash/") && $0.hasSuffix("a.txt") }
        #expect(trash.count == 1)
        #expect(try await object(String(try #require(trash.first).dropFirst("notes/".count))) == "a1")
    }

    @Test("a file changed on both sides becomes a conflict: both versions kept on both sides")
    func conflict() async throws {
        try write("a.txt", "base")
        _ = try await sync()
        try write("a.txt", "local edit")
        try await put("a.txt", "bucket edit")
        let report = try await sync()
        #expect(report.conflicts.count == 1)
        let copy = try #require(report.conflicts.first?.copy)
        #expect(Set([try read("a.txt"), try read(copy)]) == ["local edit", "bucket edit"])
        let stored = [try await object("a.txt"), try await object(copy)]
        #expect(Set(stored) == ["local edit", "bucket edit"])
    }

    @Test("a deletion goes across, the deleted version kept in the trash")
    func deletion() async throws {
        try write("a.txt", "a")
        try await put("c.txt", "c")
        _ = try await sync()
        try fileSystem.removeItem(at: local.appending(path: "c.txt"), recursively: false)
        try await BlockingExecutor.shared.run { [client] in try client.deleteObject("notes/a.txt") }
        let report = try await sync()
        #expect(report.failures.isEmpty)
        #expect(userKeys().isEmpty)
        #expect(!fileSystem.fileExists(at: local.appending(path: "a.txt")))
        #expect(server.keys(in: "bucket").contains { $0.hasPrefix("notes/.seams-trash/") && $0.hasSuffix("c.txt") })
    }

    @Test(
        "a file and a folder renamed in the bucket by another tool (copied and deleted, dated anew) are renamed here, not deleted and copied"
    )
    func renamedByAnotherTool() async throws {
        try write("a.txt", "alpha")
        try write("docs/one.txt", "one")
        try write("docs/two.txt", "two")
        _ = try await sync()
        fileSystem.advanceTime(by: 600)
        try await BlockingExecutor.shared.run { [client] in
            for (from, to) in [
                ("a.txt", "b.txt"), ("docs/one.txt", "papers/one.txt"), ("docs/two.txt", "papers/two.txt"),
            ] {
                _ = try client.copyObject("notes/" + from, to: "notes/" + to)
                try client.deleteObject("notes/" + from)
            }
            try client.deleteObject("notes/docs/")
        }
        #expect(userKeys().sorted() == ["b.txt", "papers/one.txt", "papers/two.txt"])
        let report = try await sync()
        #expect(report.failures.isEmpty)
        #expect(
            Set(report.moves.map { "\($0.from)>\($0.to)" }) == ["a.txt>b.txt", "docs>papers"],
            "\(report.moves)")
        #expect(try read("b.txt") == "alpha")
        #expect(try read("papers/two.txt") == "two")
        #expect(!fileSystem.fileExists(at: local.appending(path: "a.txt")))
        #expect(!fileSystem.fileExists(at: local.appending(path: "docs")))
        let quiet = try await sync()
        #expect(quiet.moves.isEmpty && quiet.failures.isEmpty)
        #expect(userKeys().filter { !$0.hasSuffix("/") }.sorted() == ["b.txt", "papers/one.txt", "papers/two.txt"])
    }

    /// Syncs `a.txt` ("alpha") and `others` (each holding its name), then, ten minutes later,
    /// moves `a.txt` to `b.txt` locally.
    func syncThenMoveLocally(keeping others: [String]) async throws {
        try write("a.txt", "alpha")
        for path in others { try write(path, path) }
        _ = try await sync()
        fileSystem.advanceTime(by: 600)
        try fileSystem.moveItem(
            at: local.appending(path: "a.txt"), to: local.appending(path: "b.txt"), replacingExisting: false)
    }

    @Test(
        "a move a run cut between its copy and its delete (the file under both names in the bucket) is finished by the next run: the old name to the trash, no copy kept beside it"
    )
    func moveCutBetweenCopyAndDelete() async throws {
        try await syncThenMoveLocally(keeping: ["keep.txt"])
        // What a run stopped after the move's CopyObject leaves: the copy, dated anew, and the original.
        try await BlockingExecutor.shared.run { [client] in _ = try client.copyObject("notes/a.txt", to: "notes/b.txt")
        }
        #expect(userKeys().sorted() == ["a.txt", "b.txt", "keep.txt"])
        let report = try await sync()
        #expect(report.failures.isEmpty && report.conflicts.isEmpty, "\(report.failures) \(report.conflicts)")
        #expect(report.moves.map { "\($0.from)>\($0.to)" } == ["a.txt>b.txt"], "\(report.moves)")
        #expect(userKeys().sorted() == ["b.txt", "keep.txt"])
        #expect(try await object("b.txt") == "alpha")
        #expect(server.keys(in: "bucket").contains { $0.hasPrefix("notes/.seams-trash/") && $0.hasSuffix("a.txt") })
        #expect(try localNames() == ["b.txt", "keep.txt"])
        let quiet = try await sync()
        #expect(
            quiet.moves.isEmpty && quiet.failures.isEmpty && quiet.copiedToContainer == 0 && quiet.copiedToLocal == 0)
        #expect(userKeys().sorted() == ["b.txt", "keep.txt"])
    }

    @Test(
        "a file written in parts (by another tool, or by a run) is moved by part copies of its own parts' size, keeping its ETag; a move of it cut between its copy and its delete is finished by the next run"
    )
    func moveOfAFileWrittenInParts() async throws {
        let part = 5 << 20  // S3's least part
        let big = Data((0..<(2 * part + 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        // Put by another tool in three parts (as `aws s3 cp` does above 8 MiB), then synced here.
        try await BlockingExecutor.shared.run { [client] in
            var pieces = [big.prefix(part), big.dropFirst(part).prefix(part), big.dropFirst(2 * part)].map { Data($0) }
            try client.putObjectInParts("notes/big.bin") { pieces.isEmpty ? nil : pieces.removeFirst() }
        }
        // Written here, and uploaded by the run in two parts.
        let other = Data((0..<(part + 10)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try fileSystem.write(other, to: local.appending(path: "other.bin"))
        _ = try await sync(engine(partSize: part))
        let (written, otherWritten) = try await BlockingExecutor.shared.run { [client] in
            (
                try #require(try client.headObject("notes/big.bin")).etag,
                try #require(try client.headObject("notes/other.bin")).etag
            )
        }
        #expect(written.hasSuffix("-3\"") && otherWritten.hasSuffix("-2\""), "\(written) \(otherWritten)")
        fileSystem.advanceTime(by: 600)
        for (from, to) in [("big.bin", "moved.bin"), ("other.bin", "renamed.bin")] {
            try fileSystem.moveItem(
                at: local.appending(path: from), to: local.appending(path: to), replacingExisting: false)
        }
        // What a run stopped after the move's copy leaves: the accessor's own copy, and the original.
        let accessor = S3Accessor(client: client, prefix: "notes/", partSize: part)
        try await BlockingExecutor.shared.run {
            try accessor.copyItem(at: container.appending(path: "big.bin"), to: container.appending(path: "moved.bin"))
        }
        let copied = try await BlockingExecutor.shared.run { [client] in
            try #require(try client.headObject("notes/moved.bin")).etag
        }
        #expect(copied == written, "the copy keeps the parts' ETag")
        let before = server.requests.count
        let report = try await sync(engine(partSize: part))
        #expect(report.failures.isEmpty && report.conflicts.isEmpty, "\(report.failures) \(report.conflicts)")
        #expect(
            report.moves.map { "\($0.from)>\($0.to)" }.sorted() == ["big.bin>moved.bin", "other.bin>renamed.bin"],
            "\(report.moves)")
        #expect(userKeys().sorted() == ["moved.bin", "renamed.bin"])
        #expect(server.keys(in: "bucket").contains { $0.hasPrefix("notes/.seams-trash/") && $0.hasSuffix("big.bin") })
        // The move made whole this run: three part copies, no byte through this machine, the ETag kept.
        let requests = server.requests.dropFirst(before)
        #expect(
            requests.filter { $0.hasPrefix("PUT /bucket/notes/renamed.bin?") && $0.contains("partNumber=") }.count == 2)
        #expect(!requests.contains { $0.hasPrefix("GET /bucket/notes/other.bin") })
        let renamed = try await BlockingExecutor.shared.run { [client] in
            try #require(try client.headObject("notes/renamed.bin")).etag
        }
        #expect(renamed == otherWritten)
        #expect(try fileSystem.read(from: local.appending(path: "moved.bin")) == big)
        let quiet = try await sync(engine(partSize: part))
        #expect(
            quiet.moves.isEmpty && quiet.failures.isEmpty && quiet.copiedToContainer == 0 && quiet.copiedToLocal == 0)
        #expect(userKeys().sorted() == ["moved.bin", "renamed.bin"])
    }

    @Test(
        "the copy at a move's new path in the bucket holding other bytes is no half-made move: both kept, nothing lost")
    func otherBytesAtTheNewPath() async throws {
        try await syncThenMoveLocally(keeping: ["keep/one.txt", "keep/two.txt"])
        try await put("b.txt", "beta")
        let report = try await sync()
        #expect(report.failures.isEmpty)
        #expect(!report.moves.contains { $0.from == "a.txt" && $0.to == "b.txt" && $0.madeOn == .container })
        let versions = try localNames().filter { $0 != "keep" }.map { try read($0) }
        #expect(versions.sorted() == ["alpha", "beta"], "both versions kept: \(versions)")
    }

    @Test("a file larger than a part goes up in parts and comes down in pieces, whole")
    func largeFile() async throws {
        let part = 5 << 20  // S3's least part
        let big = Data((0..<(2 * part + 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try fileSystem.write(big, to: local.appending(path: "big.bin"))
        _ = try await sync(engine(partSize: part))
        // Three parts sent to a temp name, then placed by three part copies of that size (which
        // keep its ETag), no byte sent twice.
        let parts = server.requests.filter { $0.hasPrefix("PUT") && $0.contains("partNumber=") }
        #expect(parts.count == 6, "\(parts)")
        #expect(parts.filter { $0.hasPrefix("PUT /bucket/notes/big.bin?") }.count == 3, "\(parts)")
        let stored = try await BlockingExecutor.shared.run { [client] in try client.getObject("notes/big.bin").1 }
        #expect(stored == big)
        try await BlockingExecutor.shared.run { [client] in
            _ = try client.putObject("notes/back.bin", body: big + big)
        }
        let before = server.requests.count
        _ = try await sync(engine(partSize: part))
        #expect(try fileSystem.read(from: local.appending(path: "back.bin")) == big + big)
        let gets = server.requests.dropFirst(before).filter { $0.hasPrefix("GET") && $0.contains("back.bin") }
        #expect(gets.count == 5, "downloaded in pieces of a part: \(gets)")
    }

    @Test("refused keys: the run stops before it changes anything, saying the server refused them")
    func refusedKeys() async throws {
        try write("a.txt", "a")
        let wrong = S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1",
            credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "not the secret"),
            transport: server, pause: { _ in })
        do {
            _ = try await sync(engine(client: wrong))
            Issue.record("the run went on with refused keys")
        } catch SyncError.serverNotAvailable(let url, let reason) {
            #expect(url == container)
            #expect(reason.contains("403"), "\(reason)")
        }
        #expect(server.keys(in: "bucket").isEmpty)
    }

    @Test("a server that ignores If-None-Match is refused at the lock: nothing is synced and no lock is left")
    func serverIgnoringConditions() async throws {
        try write("a.txt", "a")
        try await put("b.txt", "b")
        server.ignoreConditions()
        do {
            _ = try await sync()
            Issue.record("the run went on with a server that ignores conditions")
        } catch SyncError.serverNotAvailable(let url, let reason) {
            #expect(url == container)
            #expect(reason.contains("If-None-Match"), "\(reason)")
        }
        #expect(server.keys(in: "bucket") == ["notes/b.txt"], "no lock, no upload")
        #expect(!fileSystem.fileExists(at: local.appending(path: "b.txt")))
        // The same pair with the server honouring conditions syncs.
        server.ignoreConditions(false)
        _ = try await sync()
        #expect(try read("b.txt") == "b")
    }

    @Test("a missing bucket: the server is not available, nothing changes locally")
    func missingBucket() async throws {
        try write("a.txt", "a")
        let other = S3Client(
            endpoint: server.endpoint, bucket: "nobucket", region: "us-east-1", credentials: Self.keys,
            transport: server, pause: { _ in })
        await #expect(throws: SyncError.self) {
            _ = try await self.engine(client: other).run(
                local: self.local, container: URL(string: "s3://nobucket/notes/")!, stateDirectory: self.state)
        }
        #expect(try read("a.txt") == "a")
    }

    @Test("a server that stops answering mid-run: the run ends as the server lost, and the next converges")
    func serverLost() async throws {
        try write("a.txt", "a1")
        _ = try await sync()
        for index in 0..<20 { try write("new\(index).txt", "n\(index)") }
        // The scan and the lock go through; then every connection is refused.
        server.inject(.refuseConnection, times: 10_000, after: 12)
        do {
            let cut = try await sync()
            #expect(!cut.failures.isEmpty, "a run cut off reports what it left undone")
        } catch SyncError.serverLost, SyncError.serverNotAvailable {
        }
        server.clearFaults()
        #expect(try fileSystem.contentsOfDirectory(at: local).count == 21, "the local side is untouched")
        // The next run is another process: it takes over the lock the cut-off run could not release.
        let report = try await sync(engine(pid: 2))
        #expect(report.failures.isEmpty)
        #expect(Set(userKeys()) == Set(["a.txt"] + (0..<20).map { "new\($0).txt" }))
        for index in 0..<20 {
            let text = try await object("new\(index).txt")
            #expect(text == "n\(index)")
        }
    }

    @Test("an upload in parts a killed run left incomplete is aborted by the next run; another tool's is not")
    func abandonedUploads() async throws {
        try write("a.txt", "a")
        struct Killed: Error {}
        // The abort after the failed part is refused (each retry too): the upload stays, as a kill leaves it.
        server.inject(.refuseConnection, times: client.retryLimit + 1, after: 1)
        for key in ["notes/sub/.seams-tmp-k1ll3d-1", "notes/someone-elses.bin"] {
            await #expect(throws: (any Error).self) {
                try await BlockingExecutor.shared.run { [client] in
                    try client.putObjectInParts(key) { throw Killed() }
                }
            }
            server.inject(.refuseConnection, times: client.retryLimit + 1, after: 1)
        }
        server.clearFaults()
        let left = try await BlockingExecutor.shared.run { [client] in try client.listMultipartUploads() }
        #expect(left.count == 2)
        let report = try await sync()
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        let after = try await BlockingExecutor.shared.run { [client] in try client.listMultipartUploads() }
        #expect(after.map(\.key) == ["notes/someone-elses.bin"])
    }
}
