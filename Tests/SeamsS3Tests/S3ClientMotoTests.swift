import Foundation
import Seams
import SeamsS3
@testable import SeamsSync
import SeamsTesting
import Testing

/// The client against a real S3 server (moto) on loopback: conditional writes, listings page by
/// page with odd names, ranges, server-side copies, deletes, and errors as values.
@Suite(.enabled(if: LocalS3Server.unavailableReason == nil, "moto is not installed (PyPI moto[server])"))
struct S3ClientMotoTests {
    /// Runs `body` against a new bucket of a new server, on the engine's executor (the client
    /// blocks its thread, which must not be one of Swift's cooperative pool).
    func withBucket(_ body: @escaping @Sendable (S3Client) throws -> Void) async throws {
        let server = try LocalS3Server.start()
        defer { server.stop() }
        let client = S3Client(
            endpoint: server.endpoint, bucket: "seams-\(UInt32.random(in: 0...UInt32.max))", region: "us-east-1",
            credentials: S3Credentials(
                accessKeyID: LocalS3Server.credentials.accessKeyID,
                secretAccessKey: LocalS3Server.credentials.secretAccessKey),
            transport: URLSessionHTTPTransport(), timeout: .seconds(20))
        try await BlockingExecutor.shared.run {
            try client.createBucket()
            try body(client)
        }
    }

    @Test("a create only creates, a replace only replaces the version it saw")
    func conditionalWrites() async throws {
        try await withBucket { s3 in
            let first = try s3.putObject("notes/a.txt", body: Data("one".utf8), condition: .ifAbsent, metadata: ["mtime": "1700000000.25"])
            #expect(first.hasPrefix("\"") && first.count > 2)
            #expect(throws: S3Error.self) { try s3.putObject("notes/a.txt", body: Data("two".utf8), condition: .ifAbsent) }
            do throws(S3Error) {
                try s3.putObject("notes/a.txt", body: Data("two".utf8), condition: .ifAbsent)
            } catch {
                #expect(error.isPreconditionFailed)
                #expect(error == .refused(status: 412, code: "PreconditionFailed", message: error.message))
            }
            let head = try #require(try s3.headObject("notes/a.txt"))
            #expect(head.size == 3 && head.etag == first && head.metadata["mtime"] == "1700000000.25")
            let second = try s3.putObject("notes/a.txt", body: Data("three".utf8), condition: .ifMatch(first))
            #expect(second != first)
            // Another device's write since: the stale tag is refused, nothing is overwritten.
            #expect(performing: { try s3.putObject("notes/a.txt", body: Data("four".utf8), condition: .ifMatch(first)) },
                throws: { ($0 as? S3Error)?.isPreconditionFailed == true })
            #expect(try s3.getObject("notes/a.txt").1 == Data("three".utf8))
            // A replace of an object that is gone is refused too (404 here, as AWS documents).
            #expect(performing: { try s3.putObject("notes/gone.txt", body: Data(), condition: .ifMatch(first)) },
                throws: { ($0 as? S3Error)?.isNotFound == true })
        }
    }

    @Test("a listing comes page by page, every odd name back exactly as written")
    func listing() async throws {
        let names = [
            "a b.txt", "c+d.txt", "e%f.txt", "q?.txt", "\u{E9}.txt", "e\u{301}.txt", "deep/er/x.txt", "z&=.txt",
        ]
        try await withBucket { s3 in
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

    @Test("a range reads part of an object and knows the whole size")
    func range() async throws {
        try await withBucket { s3 in
            try s3.putObject("r.bin", body: Data("0123456789abcdef".utf8))
            let (object, bytes) = try s3.getObject("r.bin", range: 4...9)
            #expect(bytes == Data("456789".utf8))
            #expect(object.size == 16)
        }
    }

    @Test("a copy is made on the server; a delete of a missing object is no error")
    func copyAndDelete() async throws {
        try await withBucket { s3 in
            let tag = try s3.putObject("from name.txt", body: Data("moved".utf8))
            let copied = try s3.copyObject("from name.txt", to: "to/é name.txt", sourceETag: tag)
            #expect(copied == tag)
            #expect(try s3.getObject("to/é name.txt").1 == Data("moved".utf8))
            try s3.deleteObject("from name.txt")
            #expect(try s3.headObject("from name.txt") == nil)
            try s3.deleteObject("from name.txt")
            #expect(performing: { try s3.getObject("from name.txt") },
                throws: { ($0 as? S3Error) == .refused(status: 404, code: "NoSuchKey", message: ($0 as? S3Error)?.message ?? "") })
        }
    }

    @Test("a server that is gone is a transport error, not an answer")
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
