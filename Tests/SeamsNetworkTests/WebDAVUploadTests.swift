import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import Seams
import SeamsAsyncHTTPClient
import SeamsTesting
import Testing

/// File uploads through each live transport to the real WebDAV servers, one after another through
/// one transport. rclone answers `201 Created`, with a body, as soon as the last byte is in;
/// through AsyncHTTPClient's delegate API (``AsyncHTTPClientTransport``'s `sendWaiting`) that
/// answer could be taken before the end of the request body was, and the connection was never
/// handed back to the pool. AsyncHTTPClient's own clients here keep one connection per host, so
/// one connection kept so fails a later upload with
/// `getConnectionFromPoolTimeout` (seen: upload 6 against rclone, without the fix); with the
/// defaults (8 connections, closed after 60 idle seconds) a run of uploads once took a minute.
@Suite(
    "file uploads to the real WebDAV servers", .timeLimit(Patience.suite), .serialized,
    .disabled(
        if: underThreadSanitizer,
        "under the sanitizer, beside the other suites, uploads through AsyncHTTPClient failed (Apache answered 408, others timed out) and slowed other suites past their limits; not yet explained"
    ))
struct WebDAVUploadTests {
    static let cases = LocalWebDAVServer.Kind.allCases.flatMap { kind in TransportUnderTest.live.map { (kind, $0) } }

    @Test("twenty-four file uploads in a row through one transport each land whole", arguments: cases)
    func uploadsInARow(server kind: LocalWebDAVServer.Kind, transport: TransportUnderTest) async throws {
        if let reason = LocalWebDAVServer.unavailableReason(kind) { try Test.cancel(Comment(rawValue: reason)) }
        let base = FileManager.default.temporaryDirectory.appending(
            path: "seams-uploads-\(UUID().uuidString)", directoryHint: .isDirectory)
        let served = base.appending(path: "served", directoryHint: .isDirectory)
        let local = base.appending(path: "local", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let server = try LocalWebDAVServer.start(kind, serving: served)
        defer { server.stop() }
        let live: any HTTPFileTransferProviding
        var client: HTTPClient?
        switch transport {
        case .asyncHTTPClient, .asyncHTTPClientWaiting:
            var configuration = HTTPClient.Configuration()
            // One connection, closed by the client after 4 idle seconds, before Apache closes it
            // (its KeepAliveTimeout is 5 s): a busy machine's pause between two uploads then
            // cannot meet the server's close as the next upload starts on that connection. With
            // an hour, a full parallel test run once lost upload 15's connection (`connectionLost`,
            // "I/O on closed channel"); that race as its cause is inferred, not seen. A connection
            // never handed back stays leased, whatever this is, and still fails the next upload
            // (the bug this suite is for).
            configuration.connectionPool = .init(
                idleTimeout: .seconds(4), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
            configuration.connectionPool.retryConnectionEstablishment = false
            // Also how long a request waits for a connection of the pool.
            configuration.timeout.connect = .seconds(60)
            let own = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let ahc = AsyncHTTPClientTransport(client: own)
            live = transport == .asyncHTTPClient ? ahc : WaitingOnAThread(ahc)
            client = own
        default:
            live = try #require(transport.makeLive()).0
        }
        let token = Data("\(server.user):\(server.password)".utf8).base64EncodedString()

        for index in 0..<24 {
            // Sizes across a piece boundary: empty, small, and one byte past a MiB.
            let size = [0, 1, 700, (1 << 20) + 1][index % 4]
            let content = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
            let file = local.appending(path: "f\(index).bin")
            try content.write(to: file)
            let url = server.baseURL.appending(path: "f\(index).bin")
            var request = HTTPRequest(
                method: .put, scheme: "http", authority: "127.0.0.1:\(url.port ?? 80)",
                path: url.path(percentEncoded: true))
            request.headerFields[.authorization] = "Basic \(token)"
            do {
                // Far longer than an upload of a MiB on loopback takes, busy machine included.
                let (response, _) = try await live.send(request, bodyFile: file, timeout: .seconds(120))
                #expect([200, 201, 204].contains(response.status.code), "upload \(index): \(response.status)")
                #expect(try Data(contentsOf: served.appending(path: "f\(index).bin")) == content, "upload \(index)")
            } catch {
                Issue.record("upload \(index) of \(size) bytes: \(error)")
                break
            }
        }
        try await client?.shutdown()
    }
}
