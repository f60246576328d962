import Foundation
import HTTPTypes
import Seams
import SeamsAsyncHTTPClient
import Testing

/// The longest response body `AsyncHTTPClientTransport` accepts (`maximumResponseBodySize`), on
/// its async and its waiting entry points, against the loopback server.
@Suite("AsyncHTTPClient transport: the response body limit", .timeLimit(Patience.suite))
struct ResponseLimitTests {
    static let limit = 1 << 20

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
        let (response, data) = try await Self.fetch(5 << 20, method: .head, waiting: waiting)
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentLength] == String(5 << 20))
        #expect(data.isEmpty)
    }
}
