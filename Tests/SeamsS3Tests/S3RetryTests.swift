import Foundation
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

/// Transient failures are retried with back-off; a write whose answer was lost is not.
@Suite struct S3RetryTests {
    static let credentials = S3Credentials(accessKeyID: "id", secretAccessKey: "secret")

    /// The pauses a client asked for.
    final class Pauses: Sendable {
        private let values = LockedValue<[Duration]>([])
        func append(_ pause: Duration) { values.withLock { $0.append(pause) } }
        var all: [Duration] { values.withLock { $0 } }
    }

    /// A client on a new bucket of a new double, whose pauses are recorded, not waited.
    static func client(retryLimit: Int = 4) throws -> (S3Client, InMemoryS3Server, Pauses) {
        let server = InMemoryS3Server(credentials: credentials)
        let pauses = Pauses()
        let client = S3Client(
            endpoint: server.endpoint, bucket: "b", region: "us-east-1", credentials: credentials, transport: server,
            retryLimit: retryLimit, pause: { pauses.append($0) })
        try client.createBucket()
        return (client, server, pauses)
    }

    @Test("503 SlowDown and 500 are retried, 0.2 s then doubled, and the write then lands once")
    func slowDown() throws {
        let (s3, server, pauses) = try Self.client()
        server.inject(.respond(status: 503, code: "SlowDown"), times: 2)
        server.inject(.respond(status: 500, code: "InternalError"))
        try s3.putObject("a.txt", body: Data("a".utf8), condition: .ifAbsent)
        #expect(pauses.all == [.milliseconds(200), .milliseconds(400), .milliseconds(800)])
        #expect(try s3.getObject("a.txt").1 == Data("a".utf8))
        #expect(server.requests.filter { $0.hasPrefix("PUT /b/a.txt") }.count == 4)
    }

    @Test("past the limit the last refusal is the error")
    func pastTheLimit() throws {
        let (s3, server, pauses) = try Self.client(retryLimit: 2)
        server.inject(.respond(status: 503, code: "SlowDown"), times: 3)
        #expect(throws: S3Error.refused(status: 503, code: "SlowDown", message: "injected")) {
            try s3.putObject("a.txt", body: Data("a".utf8))
        }
        #expect(pauses.all.count == 2)
        #expect(try s3.headObject("a.txt") == nil)
    }

    @Test("a refused connection is retried for any request: the request never left")
    func refusedConnection() throws {
        let (s3, server, _) = try Self.client()
        server.inject(.refuseConnection, times: 2)
        try s3.putObject("a.txt", body: Data("a".utf8), condition: .ifAbsent)
        #expect(try s3.getObject("a.txt").1 == Data("a".utf8))
    }

    @Test("a read whose answer was lost is asked again; a write's is an error, though it was applied")
    func lostAnswers() throws {
        let (s3, server, _) = try Self.client()
        try s3.putObject("a.txt", body: Data("a".utf8))
        server.inject(.loseAnswer)
        #expect(try s3.getObject("a.txt").1 == Data("a".utf8))
        server.inject(.loseAnswer)
        #expect(
            performing: { try s3.putObject("b.txt", body: Data("b".utf8), condition: .ifAbsent) },
            throws: { error in
                guard case .transport(let failure) = error as? S3Error else { return false }
                return failure.kind == .connectionLost
            })
        // Applied all the same: the caller must look, not assume.
        #expect(try s3.getObject("b.txt").1 == Data("b".utf8))
    }

    @Test("4xx refusals are never retried")
    func noRetryOfRefusals() throws {
        let (s3, server, pauses) = try Self.client()
        server.inject(.respond(status: 403, code: "AccessDenied"))
        #expect(throws: S3Error.refused(status: 403, code: "AccessDenied", message: "injected")) {
            try s3.putObject("a.txt", body: Data("a".utf8))
        }
        #expect(pauses.all.isEmpty)
    }
}
