import Foundation
import Seams
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

@testable import SeamsSync

/// An S3 server the contract runs against: moto or `rclone serve s3`, started on loopback for the
/// test, or the in-memory double of `SeamsTesting`, which must answer as AWS does where the
/// contract says so. What a server does differently is a property here, each a platform note.
enum S3ServerUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case moto
    case rclone
    case inMemory

    var testDescription: String { rawValue }

    static let credentials = S3Credentials(
        accessKeyID: LocalS3Server.credentials.accessKeyID, secretAccessKey: LocalS3Server.credentials.secretAccessKey)

    /// The servers that can run here; the others are named with their reason.
    static var available: [S3ServerUnderTest] {
        allCases.filter { $0.local.map { LocalS3Server.unavailableReason($0) == nil } ?? true }
    }

    /// The real server program, or `nil` for the double.
    var local: LocalS3Server.Kind? {
        switch self {
        case .moto: .moto
        case .rclone: .rclone
        case .inMemory: nil
        }
    }

    /// Whether `If-None-Match: *` and `If-Match` on a `PUT`, and `If-None-Match: *` on completing
    /// a multipart upload, are honoured. AWS, moto and the double honour them; rclone 1.75
    /// accepts them and writes anyway, so nothing is safe from another device's write in between
    /// (seams-sync refuses such a server at its lock).
    var honoursWriteConditions: Bool { self != .rclone }

    /// Whether `If-Match` on completing a multipart upload is honoured (412 for another version,
    /// 404 for none), as AWS does since 2024. moto 5.2 and rclone 1.75 complete anyway: there a
    /// file over 1 MiB moved over another is not safe from a write in the moment between the
    /// look and the completion.
    var honoursCompletionIfMatch: Bool { self == .inMemory }

    /// Whether a part of a multipart upload can be copied from an object (`UploadPartCopy`).
    /// rclone 1.75 takes such a request for a part with an empty body, and answers no
    /// `CopyPartResult`: the client says so (``S3Error/unsupported(_:)``), and copies whole.
    var copiesParts: Bool { self != .rclone }

    /// Whether `HEAD ?partNumber=1` of an object written in parts answers its first part's
    /// length and `x-amz-mp-parts-count`, as AWS does (``S3Client/partLayout(of:)``). Where it does
    /// not, a move copies such a file with one `CopyObject`, and a move cut between its copy and
    /// its delete keeps both names.
    var tellsPartLayout: Bool { self != .rclone }

    /// Whether `If-Match` on a `GET` is honoured (412 for another version). rclone 1.75 ignores
    /// it: the client then tells a piece of another version by its ETag.
    var honoursReadConditions: Bool { self != .rclone }

    /// Whether a multipart object is listed (and `HEAD`ed) with the ETag its completion answered
    /// (`"…-N"`). rclone 1.75 answers that tag, then lists the MD5 of the whole content.
    var listsTheCompletedETag: Bool { self != .rclone }

    /// Whether a zero-byte `name/` object (how seams-sync and the AWS console keep an empty folder)
    /// is kept as that key. rclone 1.75 stores it as a file `name`, listed without the slash,
    /// and then fails every write under `name/` (500).
    var keepsFolderMarkers: Bool { self != .rclone }

    /// Whether a multipart upload whose parts but the last are under 5 MiB is refused when it
    /// completes (`EntityTooSmall`), as AWS does. rclone 1.75 accepts it.
    var refusesSmallParts: Bool { self != .rclone }

    /// Whether a copy is refused when its source is no longer the version named
    /// (`x-amz-copy-source-if-match`). AWS refuses it; moto 5.2 copies anyway.
    var honoursCopySourceCondition: Bool { self == .inMemory }

    /// Whether a request signed with the wrong secret is refused. AWS, rclone (with `--auth-key`)
    /// and the double refuse it; moto checks no signature unless set up with IAM users.
    var checksSignatures: Bool { self != .moto }

    /// Runs `body` with a client on a new bucket of a new server, with `credentials` (the
    /// server's own by default), on the engine's executor (the client blocks its thread, which
    /// must not be one of Swift's cooperative pool).
    func withBucket(
        credentials: S3Credentials = S3ServerUnderTest.credentials,
        _ body: @escaping @Sendable (S3Client) throws -> Void
    ) async throws {
        let endpoint: URL
        let transport: any WaitingHTTPTransportProviding
        var stop: @Sendable () -> Void = {}
        switch self {
        case .moto, .rclone:
            let server = try LocalS3Server.start(local ?? .moto)
            endpoint = server.endpoint
            transport = URLSessionHTTPTransport()
            stop = { server.stop() }
        case .inMemory:
            let server = InMemoryS3Server(credentials: Self.credentials)
            endpoint = server.endpoint
            transport = server
        }
        defer { stop() }
        let bucket = "seams-\(UInt32.random(in: 0...UInt32.max))"
        let owner = S3Client(
            endpoint: endpoint, bucket: bucket, region: "us-east-1", credentials: Self.credentials,
            transport: transport, timeout: .seconds(20))
        let client = S3Client(
            endpoint: endpoint, bucket: bucket, region: "us-east-1", credentials: credentials, transport: transport,
            timeout: .seconds(20))
        try await BlockingExecutor.shared.run {
            try owner.createBucket()
            try body(client)
        }
    }
}

/// The client against each server: conditional writes, listings page by page with odd names,
/// ranges, server-side copies, deletes, signatures, and errors as values.
@Suite struct S3ContractTests {
    @Test("each real server runs here, or the reason it does not is said", arguments: LocalS3Server.Kind.allCases)
    func availability(_ kind: LocalS3Server.Kind) {
        if let reason = LocalS3Server.unavailableReason(kind) {
            withKnownIssue("the contract runs without \(kind.rawValue): \(reason)") { Issue.record("\(reason)") }
        }
    }

    @Test("a create only creates, a replace only replaces the version it saw", arguments: S3ServerUnderTest.available)
    func conditionalWrites(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let first = try s3.putObject(
                "notes/a.txt", body: Data("one".utf8), condition: .ifAbsent, metadata: ["mtime": "1700000000.25"])
            #expect(first.hasPrefix("\"") && first.count > 2)
            let head = try #require(try s3.headObject("notes/a.txt"))
            #expect(head.size == 3 && head.etag == first && head.metadata["mtime"] == "1700000000.25")
            guard server.honoursWriteConditions else {
                // The platform note: both conditions are accepted and ignored, so each write lands.
                let replaced = try s3.putObject("notes/a.txt", body: Data("two".utf8), condition: .ifAbsent)
                #expect(replaced != first)
                try s3.putObject("notes/a.txt", body: Data("three".utf8), condition: .ifMatch(first))
                #expect(try s3.getObject("notes/a.txt").1 == Data("three".utf8))
                try s3.putObject("notes/gone.txt", body: Data(), condition: .ifMatch(first))
                #expect(try s3.headObject("notes/gone.txt")?.size == 0)
                return
            }
            do throws(S3Error) {
                try s3.putObject("notes/a.txt", body: Data("two".utf8), condition: .ifAbsent)
                Issue.record("a create over an existing object was accepted")
            } catch {
                #expect(error.isPreconditionFailed)
                #expect(error == .refused(status: 412, code: "PreconditionFailed", message: error.message))
            }
            #expect(try s3.headObject("notes/a.txt")?.etag == first)
            let second = try s3.putObject("notes/a.txt", body: Data("three".utf8), condition: .ifMatch(first))
            #expect(second != first)
            // Another device's write since: the stale tag is refused, nothing is overwritten.
            #expect(
                performing: { try s3.putObject("notes/a.txt", body: Data("four".utf8), condition: .ifMatch(first)) },
                throws: { ($0 as? S3Error)?.isPreconditionFailed == true })
            #expect(try s3.getObject("notes/a.txt").1 == Data("three".utf8))
            // A replace of an object that is gone is refused too (404 here, as AWS documents).
            #expect(
                performing: { try s3.putObject("notes/gone.txt", body: Data(), condition: .ifMatch(first)) },
                throws: { ($0 as? S3Error)?.isNotFound == true })
        }
    }

    @Test(
        "a listing comes page by page, every odd name back exactly as written", arguments: S3ServerUnderTest.available)
    func listing(_ server: S3ServerUnderTest) async throws {
        let names = [
            "a b.txt", "c+d.txt", "e%f.txt", "q?.txt", "\u{E9}.txt", "e\u{301}.txt", "deep/er/x.txt", "z&=.txt",
        ]
        try await server.withBucket { s3 in
            for name in names { try s3.putObject("root/" + name, body: Data(name.utf8)) }
            try s3.putObject("other/outside.txt", body: Data())
            var pages = 0
            var keys: [String] = []
            var token: String?
            repeat {
                let page = try s3.listObjects(prefix: "root/", continuationToken: token, maxKeys: 3)
                #expect(page.objects.count <= 3)
                keys += page.objects.map(\.key)
                token = page.nextContinuationToken
                pages += 1
            } while token != nil
            #expect(pages == 3)
            #expect(Set(keys) == Set(names.map { "root/" + $0 }))
            #expect(keys.count == names.count)
            #expect(try s3.listAllObjects(prefix: "root/", pageSize: 2).map(\.key).sorted() == keys.sorted())
            let folders = try s3.listObjects(prefix: "root/", delimiter: "/")
            #expect(folders.commonPrefixes == ["root/deep/"])
            #expect(folders.objects.count == names.count - 1)
            #expect(try s3.getObject("root/e\u{301}.txt").1 == Data("e\u{301}.txt".utf8))
        }
    }

    @Test(
        "an empty folder's marker (`name/`, no bytes) is listed as written, and files go under it",
        arguments: S3ServerUnderTest.available)
    func folderMarkers(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            try s3.putObject("top/empty/", body: Data())
            try s3.putObject("top/full/", body: Data())
            let listed = try s3.listAllObjects(prefix: "top/").map { "\($0.key) \($0.size)" }
            guard server.keepsFolderMarkers else {
                // The platform note: the marker is made a file without the slash.
                #expect(listed.sorted() == ["top/empty 0", "top/full 0"])
                return
            }
            #expect(listed.sorted() == ["top/empty/ 0", "top/full/ 0"])
            try s3.putObject("top/full/x.txt", body: Data("x".utf8))
            let folders = try s3.listObjects(prefix: "top/", delimiter: "/")
            #expect(folders.commonPrefixes.sorted() == ["top/empty/", "top/full/"] && folders.objects.isEmpty)
            #expect(try s3.headObject("top/empty/")?.size == 0)
        }
    }

    @Test("a range reads part of an object and knows the whole size", arguments: S3ServerUnderTest.available)
    func range(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            try s3.putObject("r.bin", body: Data("0123456789abcdef".utf8))
            let (object, bytes) = try s3.getObject("r.bin", range: 4...9)
            #expect(bytes == Data("456789".utf8))
            #expect(object.size == 16)
        }
    }

    @Test(
        "a copy is made on the server; a delete of a missing object is no error", arguments: S3ServerUnderTest.available
    )
    func copyAndDelete(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let tag = try s3.putObject("from name.txt", body: Data("moved".utf8))
            let copied = try s3.copyObject("from name.txt", to: "to/é name.txt", sourceETag: tag)
            #expect(copied == tag)
            #expect(try s3.getObject("to/é name.txt").1 == Data("moved".utf8))
            try s3.deleteObject("from name.txt")
            #expect(try s3.headObject("from name.txt") == nil)
            try s3.deleteObject("from name.txt")
            #expect(
                performing: { try s3.getObject("from name.txt") },
                throws: {
                    ($0 as? S3Error)
                        == .refused(status: 404, code: "NoSuchKey", message: ($0 as? S3Error)?.message ?? "")
                })
        }
    }

    @Test(
        "a copy whose source changed since is refused where the server honours the condition",
        arguments: S3ServerUnderTest.available)
    func copySourceCondition(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let stale = try s3.putObject("a.txt", body: Data("one".utf8))
            try s3.putObject("a.txt", body: Data("two".utf8))
            do throws(S3Error) {
                try s3.copyObject("a.txt", to: "b.txt", sourceETag: stale)
                #expect(!server.honoursCopySourceCondition, "copied a source that changed")
                #expect(try s3.getObject("b.txt").1 == Data("two".utf8))
            } catch {
                #expect(server.honoursCopySourceCondition && error.isPreconditionFailed, "\(error)")
                #expect(try s3.headObject("b.txt") == nil)
            }
        }
    }

    @Test(
        "a copy in parts is the source's bytes, and replaces only the version named where the server honours it",
        arguments: S3ServerUnderTest.available)
    func copyInParts(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let source = Data((0..<(5 << 20) + 7).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            let sourceETag = try s3.putObject("src.bin", body: source)
            let seen = try s3.putObject("dst.bin", body: Data("seen".utf8))
            func copy(over version: String) throws(S3Error) -> String {
                try s3.copyInParts(
                    "src.bin", to: "dst.bin", size: Int64(source.count), sourceETag: sourceETag,
                    condition: .ifMatch(version), partSize: 5 << 20)
            }
            guard server.copiesParts else {
                #expect(throws: S3Error.unsupported("UploadPartCopy")) { _ = try copy(over: seen) }
                #expect(try s3.getObject("dst.bin").1 == Data("seen".utf8), "the destination is unchanged")
                #expect(try s3.listMultipartUploads().isEmpty)
                return
            }
            // Two parts, the second the 7 bytes left.
            let copied = try copy(over: seen)
            #expect(copied.hasSuffix("-2\""), "\(copied)")
            #expect(try s3.getObject("dst.bin").1 == source)
            // Over a version it did not name: refused where the server honours If-Match then.
            let saved = try s3.putObject("dst.bin", body: Data("saved meanwhile".utf8))
            do throws(S3Error) {
                _ = try copy(over: seen)
                #expect(!server.honoursCompletionIfMatch, "replaced a version the copy did not name")
                #expect(try s3.getObject("dst.bin").1 == source)
            } catch {
                #expect(server.honoursCompletionIfMatch && error.isPreconditionFailed, "\(error)")
                #expect(try s3.headObject("dst.bin")?.etag == saved)
            }
            // A source that changed since is refused where the server honours the source's condition.
            try s3.putObject("src.bin", body: Data("changed".utf8) + source)
            let current = try #require(try s3.headObject("dst.bin")).etag
            do throws(S3Error) {
                _ = try copy(over: current)
                #expect(!server.honoursCopySourceCondition, "copied a source that changed")
            } catch {
                #expect(server.honoursCopySourceCondition && error.isPreconditionFailed, "\(error)")
            }
            #expect(try s3.listMultipartUploads().isEmpty)
        }
    }

    @Test(
        "an object written in parts tells its parts; copied in parts of that size it keeps its ETag, which a CopyObject copy does not",
        arguments: S3ServerUnderTest.available)
    func copyKeepingParts(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let part = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 29) })
            var parts = [part, Data(part.reversed()), Data("tail".utf8)]
            let tag = try s3.putObjectInParts("big.bin") { parts.isEmpty ? nil : parts.removeFirst() }
            let size = Int64(2 * part.count + 4)
            try s3.putObject("whole.txt", body: Data("whole".utf8))
            #expect(try s3.partLayout(of: "missing.bin") == nil)
            guard server.tellsPartLayout else {
                #expect(try s3.partLayout(of: "big.bin") == nil)
                return
            }
            #expect(try s3.partLayout(of: "big.bin") == S3PartLayout(firstPartSize: Int64(part.count), count: 3))
            #expect(try s3.partLayout(of: "whole.txt") == nil, "an object written whole has no parts to tell")
            guard server.copiesParts else { return }
            let copied = try s3.copyInParts(
                "big.bin", to: "copy.bin", size: size, sourceETag: tag, condition: .ifAbsent,
                partSize: Int64(part.count))
            #expect(copied == tag)
            let head = try #require(try s3.headObject("copy.bin"))
            #expect(head.etag == tag && head.size == size)
            #expect(try s3.getObject("copy.bin").1 == part + Data(part.reversed()) + Data("tail".utf8))
            // CopyObject writes the copy whole: the MD5 of its bytes, not the parts' ETag (AWS documents it).
            let plain = try s3.copyObject("big.bin", to: "plain.bin")
            #expect(plain != tag && !plain.hasSuffix("-3\""), "\(plain)")
            #expect(try s3.listMultipartUploads().isEmpty)
        }
    }

    @Test(
        "a request signed with the wrong secret is refused where the server checks",
        arguments: S3ServerUnderTest.available)
    func wrongSecret(_ server: S3ServerUnderTest) async throws {
        let wrong = S3Credentials(
            accessKeyID: S3ServerUnderTest.credentials.accessKeyID, secretAccessKey: "not-the-secret")
        try await server.withBucket(credentials: wrong) { s3 in
            do throws(S3Error) {
                try s3.putObject("a.txt", body: Data("x".utf8))
                #expect(!server.checksSignatures, "a wrong signature was accepted")
            } catch {
                #expect(server.checksSignatures)
                #expect(error == .refused(status: 403, code: "SignatureDoesNotMatch", message: error.message))
            }
        }
    }

    @Test("a multipart upload appears whole or not at all, under its condition", arguments: S3ServerUnderTest.available)
    func multipart(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let big = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            var parts = [big, Data("tail".utf8)]
            let tag = try s3.putObjectInParts("big.bin", condition: .ifAbsent, metadata: ["mtime": "7"]) {
                parts.isEmpty ? nil : parts.removeFirst()
            }
            #expect(tag.hasSuffix("-2\""))
            let head = try #require(try s3.headObject("big.bin"))
            #expect(head.size == Int64(big.count + 4) && head.metadata["mtime"] == "7")
            #expect((head.etag == tag) == server.listsTheCompletedETag, "listed \(head.etag), completed \(tag)")
            // The same again under If-None-Match: * is refused when it completes, and aborted
            // (where the server ignores the condition, it replaces the object).
            parts = [big, Data("other".utf8)]
            if server.honoursWriteConditions {
                #expect(
                    performing: {
                        try s3.putObjectInParts("big.bin", condition: .ifAbsent) {
                            parts.isEmpty ? nil : parts.removeFirst()
                        }
                    }, throws: { ($0 as? S3Error)?.isPreconditionFailed == true })
                #expect(try s3.headObject("big.bin")?.etag == head.etag)
            } else {
                try s3.putObjectInParts("big.bin", condition: .ifAbsent) { parts.isEmpty ? nil : parts.removeFirst() }
                #expect(try s3.headObject("big.bin")?.size == Int64(big.count + 5))
            }
            #expect(try s3.listMultipartUploads().isEmpty)
            // A part under 5 MiB but the last is refused when the upload completes; nothing is left.
            parts = [Data("small".utf8), Data("tail".utf8)]
            if server.refusesSmallParts {
                #expect(
                    performing: {
                        try s3.putObjectInParts("small.bin") { parts.isEmpty ? nil : parts.removeFirst() }
                    },
                    throws: { error in
                        guard case .refused(400, "EntityTooSmall", _) = error as? S3Error else { return false }
                        return true
                    })
                #expect(try s3.headObject("small.bin") == nil)
            } else {
                try s3.putObjectInParts("small.bin") { parts.isEmpty ? nil : parts.removeFirst() }
                #expect(try s3.getObject("small.bin").1 == Data("smalltail".utf8))
            }
            #expect(try s3.listMultipartUploads().isEmpty)
            // A part that cannot be read aborts the upload too.
            struct Unreadable: Error {}
            var sent = 0
            #expect(throws: Unreadable.self) {
                try s3.putObjectInParts("broken.bin") { () throws -> Data? in
                    sent += 1
                    if sent > 1 { throw Unreadable() }
                    return big
                }
            }
            #expect(try s3.listMultipartUploads().isEmpty)
        }
    }

    @Test(
        "a download comes in ranged pieces into a new file, an empty object included",
        arguments: S3ServerUnderTest.available)
    func download(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let content = Data((0..<(2_500_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let tag = try s3.putObject("d/file.bin", body: content)
            try s3.putObject("d/empty", body: Data())
            let files = InMemoryFileSystem()
            try files.createDirectory(at: URL(filePath: "/local"), withIntermediateDirectories: false)
            let object = try s3.download(
                "d/file.bin", toNewFile: URL(filePath: "/local/file.bin"), in: files, pieceSize: 1 << 20)
            #expect(object.etag == tag && object.size == Int64(content.count))
            #expect(try files.read(from: URL(filePath: "/local/file.bin")) == content)
            let empty = try s3.download("d/empty", toNewFile: URL(filePath: "/local/empty"), in: files)
            #expect(empty.size == 0)
            #expect(try files.read(from: URL(filePath: "/local/empty")).isEmpty)
            #expect(
                performing: { try s3.download("d/none", toNewFile: URL(filePath: "/local/none"), in: files) },
                throws: { ($0 as? S3Error)?.isNotFound == true })
            #expect(!files.fileExists(at: URL(filePath: "/local/none")))
        }
    }

    @Test(
        "an object rewritten during its download fails it, never mixing two versions",
        arguments: S3ServerUnderTest.available)
    func downloadOfAChangingObject(_ server: S3ServerUnderTest) async throws {
        try await server.withBucket { s3 in
            let first = Data(repeating: 1, count: 3 << 20)
            try s3.putObject("f.bin", body: first)
            let files = InMemoryFileSystem()
            try files.createDirectory(at: URL(filePath: "/local"), withIntermediateDirectories: false)
            let local = URL(filePath: "/local/f.bin")
            let writer = PiecesThen(files: files) {
                try s3.putObject("f.bin", body: Data(repeating: 2, count: 3 << 20))
            }
            // A server that honours If-Match on a GET refuses the next piece (412); for one that
            // does not, the piece's ETag tells.
            #expect(
                performing: { try s3.download("f.bin", toNewFile: local, in: writer, pieceSize: 1 << 20) },
                throws: {
                    server.honoursReadConditions
                        ? ($0 as? S3Error)?.isPreconditionFailed == true
                        : ($0 as? S3Error) == .changedDuringDownload("f.bin")
                })
            #expect(!files.fileExists(at: local))
        }
    }

    @Test(
        "a server that is gone is a transport error, not an answer",
        .enabled(if: LocalS3Server.unavailableReason == nil, "moto is not installed (PyPI moto[server])"))
    func serverGone() async throws {
        let server = try LocalS3Server.start()
        let endpoint = server.endpoint
        server.stop()
        let client = S3Client(
            endpoint: endpoint, bucket: "b", region: "us-east-1",
            credentials: S3Credentials(accessKeyID: "a", secretAccessKey: "b"), transport: URLSessionHTTPTransport(),
            timeout: .seconds(5))
        let error = try await BlockingExecutor.shared.run { () -> S3Error? in
            do throws(S3Error) {
                _ = try client.headObject("x")
                return nil
            } catch {
                return error
            }
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .cannotConnect)
    }
}

extension S3Error {
    /// The message of a refusal, for comparing the rest of it.
    var message: String {
        if case .refused(_, _, let message) = self { return message }
        return ""
    }
}

/// A file boundary whose piecewise create runs `between` after the first piece: another device's
/// write in the middle of a download.
final class PiecesThen: FileAccessorProviding {
    let files: InMemoryFileSystem
    let between: @Sendable () throws -> Void

    init(files: InMemoryFileSystem, between: @escaping @Sendable () throws -> Void) {
        self.files = files
        self.between = between
    }

    func read(from url: URL) throws -> Data { try files.read(from: url) }
    func write(_ data: Data, to url: URL) throws { try files.write(data, to: url) }
    func fileExists(at url: URL) -> Bool { files.fileExists(at: url) }
    func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        var count = 0
        try files.createFile(at: url) { () throws -> Data? in
            count += 1
            if count == 2 { try between() }
            return try nextPiece()
        }
    }
}
