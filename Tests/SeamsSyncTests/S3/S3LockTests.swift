import Foundation
import HTTPTypes
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

@testable import SeamsSync

/// Replaces in a bucket that never overwrite another device's version: the lock's heartbeat and
/// the placement of a small file over a changed one write with `If-Match` on the version seen, so
/// a write by another device in the moment between the look and the write is kept.
@Suite struct S3LockTests {
    static let keys = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
    let fileSystem = InMemoryFileSystem()
    let server: InMemoryS3Server
    /// This run's transport: another device can write in a chosen moment.
    let hooked: InterceptingTransport
    /// Another device's client, straight to the server.
    let other: S3Client
    let lock: SyncLock
    /// The accessor the lock's replica uses (through the hook).
    let hookedStore: S3Accessor

    init() async throws {
        let clock = fileSystem
        server = InMemoryS3Server(credentials: Self.keys, now: { clock.now })
        hooked = InterceptingTransport(server)
        let client = S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: hooked, now: { clock.now }, pause: { _ in })
        other = S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: server, now: { clock.now }, pause: { _ in })
        try await BlockingExecutor.shared.run { [other] in try other.createBucket() }
        hookedStore = S3Accessor(client: client, prefix: "notes/")
        let replica = S3Replica(root: try #require(URL(string: "s3://bucket/notes/")), store: hookedStore)
        lock = SyncLock(
            in: replica, owner: "this run", runID: "r1", clock: { clock.now }, expiry: 60,
            process: SyncProcess(host: "here", bootID: "boot", pid: 1, isRunning: { _ in true }))
    }

    func lockOwner() async throws -> String {
        try await BlockingExecutor.shared.run { [other] in
            let data = try other.getObject("notes/.seams-lock").1
            let record = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return record?["owner"] as? String ?? "unreadable"
        }
    }

    @Test(
        "a heartbeat renews the lock while it is this run's: one conditional PUT each, from the first on"
    )
    func renews() async throws {
        try await BlockingExecutor.shared.run { [lock] in try lock.acquire() }
        for _ in 1...3 {
            let before = hooked.requestCount
            fileSystem.advanceTime(by: 30)
            try await BlockingExecutor.shared.run { [lock] in try lock.heartbeat() }
            let sent = hooked.requests.dropFirst(before).map {
                "\($0.method.rawValue) \($0.headerFields[.ifMatch] != nil)"
            }
            #expect(sent == ["PUT true"], "one PUT with If-Match on the ETag the last write answered")
        }
        #expect(try await lockOwner() == "this run")
        let heartbeat = try await BlockingExecutor.shared.run { [other] in
            let record = try JSONSerialization.jsonObject(with: try other.getObject("notes/.seams-lock").1)
            return (record as? [String: Any])?["heartbeat"] as? Double
        }
        #expect(heartbeat == fileSystem.now.timeIntervalSince1970, "the last heartbeat's time is in the lock")
        #expect(!server.keys(in: "bucket").contains { $0.contains(".seams-tmp-") }, "no temp object")
    }

    @Test("a lock another run took over since this run's last heartbeat is kept, and the one-PUT heartbeat fails")
    func takeoverSinceTheLastBeatIsKept() async throws {
        try await BlockingExecutor.shared.run { [lock] in try lock.acquire() }
        fileSystem.advanceTime(by: 30)
        try await BlockingExecutor.shared.run { [lock] in try lock.heartbeat() }
        let record = Data(#"{"owner":"another run","heartbeat":1}"#.utf8)
        try await BlockingExecutor.shared.run { [other] in _ = try other.putObject("notes/.seams-lock", body: record) }
        fileSystem.advanceTime(by: 30)
        await #expect(throws: SyncError.lockHeld(owner: "another run")) {
            try await BlockingExecutor.shared.run { [lock] in try lock.heartbeat() }
        }
        #expect(try await lockOwner() == "another run")
    }

    @Test("a lock that is still this run's record in other bytes (another ETag) is renewed after a look, not given up")
    func ownRecordInOtherBytesIsRenewed() async throws {
        try await BlockingExecutor.shared.run { [lock] in try lock.acquire() }
        fileSystem.advanceTime(by: 30)
        try await BlockingExecutor.shared.run { [lock] in try lock.heartbeat() }
        // The same record, written again with a space: the ETag the last PUT answered is stale.
        try await BlockingExecutor.shared.run { [other] in
            let bytes = try other.getObject("notes/.seams-lock").1
            _ = try other.putObject("notes/.seams-lock", body: Data(" ".utf8) + bytes)
        }
        let before = hooked.requestCount
        fileSystem.advanceTime(by: 30)
        try await BlockingExecutor.shared.run { [lock] in try lock.heartbeat() }
        #expect(try await lockOwner() == "this run")
        #expect(
            hooked.requests.dropFirst(before).map(\.method.rawValue) == ["PUT", "HEAD", "GET", "PUT"],
            "the refused PUT, then the look, the read and the PUT")
    }

    @Test("a lock another run took over between the heartbeat's read and its write is kept, and the heartbeat fails")
    func takeoverInTheMomentIsKept() async throws {
        try await BlockingExecutor.shared.run { [lock] in try lock.acquire() }
        // This run's record in other bytes: the one-PUT heartbeat is refused, and the lock looked at and read.
        try await BlockingExecutor.shared.run { [other] in
            let bytes = try other.getObject("notes/.seams-lock").1
            _ = try other.putObject("notes/.seams-lock", body: Data(" ".utf8) + bytes)
        }
        let record = Data(#"{"owner":"another run","heartbeat":1}"#.utf8)
        hooked.on(.after, once: true, of: { $0.method == .get && $0.path?.hasSuffix("/.seams-lock") == true }) {
            [other] _ in _ = try? other.putObject("notes/.seams-lock", body: record)
        }
        fileSystem.advanceTime(by: 30)
        await #expect(throws: SyncError.lockHeld(owner: "another run")) {
            try await BlockingExecutor.shared.run { [lock] in try lock.heartbeat() }
        }
        #expect(try await lockOwner() == "another run")
        lock.release()
        #expect(try await lockOwner() == "another run", "release leaves another run's lock")
    }

    @Test("a small file moved over one saved again on the server after the look is refused with nothing changed")
    func placementOverAChangedFile() async throws {
        let store = S3Accessor(client: other, prefix: "notes/")
        let (temp, target) = (
            try #require(URL(string: "s3://bucket/notes/.seams-tmp-1")),
            try #require(URL(string: "s3://bucket/notes/a.txt"))
        )
        try await BlockingExecutor.shared.run { [other] in
            _ = try other.putObject("notes/a.txt", body: Data("seen".utf8))
            _ = try other.putObject("notes/.seams-tmp-1", body: Data("new".utf8))
        }
        let seen = try await BlockingExecutor.shared.run { try store.metadata(at: target) }
        hooked.on(.after, once: true, of: { $0.method == .head && $0.path?.hasSuffix("/a.txt") == true }) {
            [other] _ in _ = try? other.putObject("notes/a.txt", body: Data("saved meanwhile".utf8))
        }
        let moved = try await BlockingExecutor.shared.run { [hookedStore] in
            try hookedStore.moveItem(at: temp, to: target, ifStill: seen)
        }
        #expect(!moved)
        #expect(try await object("notes/a.txt") == "saved meanwhile")
        #expect(try await object("notes/.seams-tmp-1") == "new", "the temp file stays for the caller")

        // Unchanged since the look: moved, in place.
        let now = try await BlockingExecutor.shared.run { try store.metadata(at: target) }
        let movedNow = try await BlockingExecutor.shared.run { [hookedStore] in
            try hookedStore.moveItem(at: temp, to: target, ifStill: now)
        }
        #expect(movedNow)
        #expect(try await object("notes/a.txt") == "new")
        #expect(!server.keys(in: "bucket").contains("notes/.seams-tmp-1"))
    }

    @Test(
        "a large file moved over one saved again before the copy completes is refused too: a copy in parts under If-Match, no byte through this machine"
    )
    func largePlacementOverAChangedFile() async throws {
        let store = S3Accessor(client: other, prefix: "notes/")
        let (temp, target) = (
            try #require(URL(string: "s3://bucket/notes/.seams-tmp-2")),
            try #require(URL(string: "s3://bucket/notes/big.bin"))
        )
        let big = Data((0..<(hookedStore.conditionalReplaceLimit + 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try await BlockingExecutor.shared.run { [other] in
            _ = try other.putObject("notes/big.bin", body: Data("seen".utf8))
            _ = try other.putObject("notes/.seams-tmp-2", body: big)
        }
        let seen = try await BlockingExecutor.shared.run { try store.metadata(at: target) }
        // Another device saves between the part copy and the completion.
        hooked.on(.after, once: true, of: { $0.method == .put && $0.path?.contains("uploadId=") == true }) {
            [other] _ in _ = try? other.putObject("notes/big.bin", body: Data("saved meanwhile".utf8))
        }
        let moved = try await BlockingExecutor.shared.run { [hookedStore] in
            try hookedStore.moveItem(at: temp, to: target, ifStill: seen)
        }
        #expect(!moved)
        #expect(try await object("notes/big.bin") == "saved meanwhile")
        #expect(try await uploadsLeft() == 0)
        #expect(try await bytes("notes/.seams-tmp-2") == big)

        // Unchanged since the look: moved, and the temp file's bytes never came down.
        let now = try await BlockingExecutor.shared.run { try store.metadata(at: target) }
        let before = hooked.requestCount
        let movedNow = try await BlockingExecutor.shared.run { [hookedStore] in
            try hookedStore.moveItem(at: temp, to: target, ifStill: now)
        }
        #expect(movedNow)
        #expect(try await bytes("notes/big.bin") == big)
        #expect(!server.keys(in: "bucket").contains("notes/.seams-tmp-2"))
        let sent = hooked.requests.dropFirst(before).map { "\($0.method.rawValue) \($0.path ?? "")" }
        #expect(!sent.contains { $0.hasPrefix("GET") }, "\(sent)")
        #expect(sent.contains { $0.hasPrefix("PUT") && $0.contains("partNumber=1") }, "\(sent)")
    }

    @Test("a large file moved on a server that takes a part copy for an empty part is copied whole, never emptied")
    func largePlacementWithoutPartCopies() async throws {
        let plain = PlainPartCopies(server)
        let client = S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: plain, pause: { _ in })
        let store = S3Accessor(client: client, prefix: "notes/")
        let (temp, target) = (
            try #require(URL(string: "s3://bucket/notes/.seams-tmp-3")),
            try #require(URL(string: "s3://bucket/notes/big.bin"))
        )
        let big = Data((0..<(store.conditionalReplaceLimit + 3)).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        try await BlockingExecutor.shared.run { [other] in
            _ = try other.putObject("notes/big.bin", body: Data("seen".utf8))
            _ = try other.putObject("notes/.seams-tmp-3", body: big)
        }
        let seen = try await BlockingExecutor.shared.run { try store.metadata(at: target) }
        let moved = try await BlockingExecutor.shared.run { try store.moveItem(at: temp, to: target, ifStill: seen) }
        #expect(moved)
        #expect(try await bytes("notes/big.bin") == big)
        #expect(!server.keys(in: "bucket").contains("notes/.seams-tmp-3"))
        #expect(try await uploadsLeft() == 0)
        #expect(plain.partCopies == 1)
        // The server's lack is remembered: the next large move tries no part copy.
        try await BlockingExecutor.shared.run { [other] in
            _ = try other.putObject("notes/.seams-tmp-3", body: big + Data("!".utf8))
        }
        let next = try await BlockingExecutor.shared.run { try store.metadata(at: target) }
        let movedAgain = try await BlockingExecutor.shared.run {
            try store.moveItem(at: temp, to: target, ifStill: next)
        }
        #expect(movedAgain)
        #expect(try await bytes("notes/big.bin").count == big.count + 1)
        #expect(plain.partCopies == 1)
    }

    func bytes(_ key: String) async throws -> Data {
        try await BlockingExecutor.shared.run { [other] in try other.getObject(key).1 }
    }

    func uploadsLeft() async throws -> Int {
        try await BlockingExecutor.shared.run { [other] in try other.listMultipartUploads().count }
    }

    func object(_ key: String) async throws -> String {
        try await BlockingExecutor.shared.run { [other] in String(decoding: try other.getObject(key).1, as: UTF8.self) }
    }
}

/// A server as `rclone serve s3` 1.75 is: an `UploadPartCopy` is taken for a part upload with
/// an empty body, answered with that body's ETag and no `CopyPartResult` (answered here, the
/// rest forwarded to the server).
private final class PlainPartCopies: WaitingHTTPTransportProviding {
    private let server: InMemoryS3Server
    private let copies = LockedValue(0)

    init(_ server: InMemoryS3Server) { self.server = server }

    /// How many part copies were sent.
    var partCopies: Int { copies.withLock { $0 } }

    /// The answer to a part copy, or `nil` for any other request.
    private func answer(_ request: HTTPRequest) -> (HTTPResponse, Data)? {
        guard request.method == .put, request.path?.contains("uploadId=") == true,
            let name = HTTPField.Name("x-amz-copy-source"), request.headerFields[name] != nil
        else { return nil }
        copies.withLock { $0 += 1 }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.eTag] = "\"d41d8cd98f00b204e9800998ecf8427e\""
        return (response, Data())
    }

    func sendWaiting(_ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration) throws(HTTPTransportError)
        -> (HTTPResponse, Data)
    {
        if let answer = answer(request) { return answer }
        return try server.sendWaiting(request, body: body, timeout: timeout)
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError)
        -> (HTTPResponse, Data)
    {
        if let answer = answer(request) { return answer }
        return try await server.send(request, body: body, timeout: timeout)
    }
}
