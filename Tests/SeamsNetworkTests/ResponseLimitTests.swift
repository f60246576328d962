import Foundation
import HTTPTypes
import Seams
import SeamsAsyncHTTPClient
import Testing

/// The longest response body `AsyncHTTPClientTransport` accepts (`maximumResponseBodySize`), on
/// its async and its waiting entry points, against the loopback server.
///
/// Not run under the thread sanitizer: it tests a size, not threads (the waiting transport's
/// collector runs there in `TransportContractTests`), and its bodies made there, beside the other
/// suites, took the network suites past their 10-minute limits (2026-12-07: those suites took 48 s
/// under the sanitizer without it, 174 s with it, when its limit was 1 MiB).
@Suite(
    "AsyncHTTPClient transport: the response body limit", .timeLimit(Patience.suite),
    .disabled(if: underThreadSanitizer, "a test of a size, whose bodies starved the other network suites there"))
struct ResponseLimitTests {
    static let limit = 64 << 10

    /// Sends `method` for `/bytes/<count>` through a transport limited to ``limit`` bytes.
    static func fetch(_ count: Int, method: HTTPRequest.Method = .get, waiting: Bool) async throws -> (
        HTTPResponse, Data
    ) {
        let server = try await LoopbackServer.start()
        let ahc = AsyncHTTPClientTransport(maximumResponseBodySize: limit)
        let transport: any HTTPTransportProviding = waiting ? WaitingOnAThread(ahc) : ahc
        let request = HTTPRequest(method: method, scheme: "http", authority: server.authority, path: "/bytes/\(count)")
        let outcome: Result<(HTTPResponse, Data), any Error>
        do {
            outcome = .success(try await transport.send(request, body: nil, timeout: Patience.exchange))
        } catch {
            outcome = .failure(error)
        }
        try await ahc.shutdown()
        try await server.close()
        return try outcome.get()
    }

    @Test("a body of the limit arrives whole; a byte more fails the request", arguments: [false, true])
    func limit(waiting: Bool) async throws {
        let (response, data) = try await Self.fetch(Self.limit, waiting: waiting)
        #expect(response.status == .ok)
        #expect(data == LoopbackRoute.pattern(count: Self.limit))
        await #expect(throws: HTTPTransportError.self) { _ = try await Self.fetch(Self.limit + 1, waiting: waiting) }
    }

    @Test("a HEAD of a resource over the limit is answered: it has no body", arguments: [false, true])
    func headOverLimit(waiting: Bool) async throws {
        let (response, data) = try await Self.fetch(4 * Self.limit, method: .head, waiting: waiting)
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentLength] == String(4 * Self.limit))
        #expect(data.isEmpty)
    }
}
