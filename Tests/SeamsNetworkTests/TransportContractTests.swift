import Foundation
import HTTPTypes
import Seams
import Testing

/// The contract of ``HTTPTransportProviding``, run on every transport: the live ones against a
/// loopback server the test starts, the mock against rules that serve the same routes. Cases
/// that need a socket (a connection cut mid-response, a port nobody listens on, redirects being
/// followed) run on the live transports only.
@Suite("HTTP transport contract", .timeLimit(Patience.suite))
struct TransportContractTests {
    static let allMethods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options]
    static let echoMethod = HTTPField.Name("x-echo-method")!
    static let echoURI = HTTPField.Name("x-echo-uri")!
    static let echoLength = HTTPField.Name("x-echo-body-length")!

    @Test("sends each method and gets the response", arguments: TransportUnderTest.allCases, allMethods)
    func methods(kind: TransportUnderTest, method: HTTPRequest.Method) async throws {
        try await ContractHarness.with(kind) { harness in
            let body: Data? = [.post, .put, .patch].contains(method) ? Data("payload of \(method)".utf8) : nil
            let (response, data) = try await harness.transport.send(
                harness.request(method, "/echo"), body: body, timeout: Patience.exchange)
            #expect(response.status == .ok)
            #expect(response.headerFields[Self.echoMethod] == method.rawValue)
            #expect(data == (method == .head ? Data() : body ?? Data()))
        }
    }

    @Test("sends request header fields and returns response header fields", arguments: TransportUnderTest.allCases)
    func headers(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            let alpha = HTTPField.Name("x-test-alpha")!
            let beta = HTTPField.Name("x-test-beta")!
            let request = harness.request(.get, "/echo", headers: [alpha: "one", beta: "two words; and=more"])
            let (response, _) = try await harness.transport.send(request, body: nil, timeout: Patience.exchange)
            #expect(response.headerFields[alpha] == "one")
            #expect(response.headerFields[beta] == "two words; and=more")
        }
    }

    @Test("sends the query as written", arguments: TransportUnderTest.allCases)
    func query(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            let target = "/echo?q=swift%20testing&page=2&tag=a&tag=b&empty="
            let (response, _) = try await harness.transport.send(
                harness.request(.get, target), body: nil, timeout: Patience.exchange)
            #expect(response.headerFields[Self.echoURI] == target)
        }
    }

    /// Sizes around the pieces a waiting transport sends a body in (256 KiB): none, one byte, a
    /// whole number of pieces, and a short last piece.
    @Test(
        "uploads a body whole, whatever its size", arguments: TransportUnderTest.allCases,
        [0, 1, 3 << 20, (3 << 20) + 17])
    func largeUpload(kind: TransportUnderTest, count: Int) async throws {
        try await ContractHarness.with(kind) { harness in
            let body = LoopbackRoute.pattern(count: count)
            let (response, data) = try await harness.transport.send(
                harness.request(.post, "/echo"), body: body, timeout: Patience.exchange)
            #expect(response.headerFields[Self.echoLength] == String(body.count))
            #expect(data == body)
        }
    }

    @Test("downloads a large body whole", arguments: TransportUnderTest.allCases)
    func largeDownload(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            let count = 5 << 20
            let (response, data) = try await harness.transport.send(
                harness.request(.get, "/bytes/\(count)"), body: nil, timeout: Patience.exchange)
            #expect(response.status == .ok)
            #expect(data == LoopbackRoute.pattern(count: count))
        }
    }

    @Test(
        "returns every status as a response", arguments: TransportUnderTest.allCases,
        [200, 201, 204, 400, 404, 418, 500, 503])
    func statusPassesThrough(kind: TransportUnderTest, code: Int) async throws {
        try await ContractHarness.with(kind) { harness in
            let (response, data) = try await harness.transport.send(
                harness.request(.get, "/status/\(code)"), body: nil, timeout: Patience.exchange)
            #expect(response.status.code == code)
            #expect(data == (code == 204 ? Data() : Data("status \(code)".utf8)))
        }
    }

    @Test(
        "returns a refused sign-in (401 with a Basic challenge) as it came, at once",
        arguments: TransportUnderTest.allCases)
    func challengeReturned(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            var request = harness.request(.get, "/challenge")
            request.headerFields[.authorization] = "Basic " + Data("me:wrong".utf8).base64EncodedString()
            let (response, data) = try await harness.transport.send(request, body: nil, timeout: Patience.exchange)
            #expect(response.status.code == 401)
            #expect(response.headerFields[.wwwAuthenticate] == #"Basic realm="seams""#)
            #expect(data == Data("sign in".utf8))
        }
    }

    @Test("returns a redirect as it came", arguments: TransportUnderTest.allCases)
    func redirectNotFollowed(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            let (response, data) = try await harness.transport.send(
                harness.request(.get, "/redirect"), body: nil, timeout: Patience.exchange)
            #expect(response.status.code == 302)
            #expect(response.headerFields[.location] == "/echo?redirected=1")
            #expect(data == Data("moved".utf8))
        }
    }

    @Test("follows a redirect when made to", arguments: TransportUnderTest.live)
    func redirectFollowed(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind, followsRedirects: true) { harness in
            let (response, _) = try await harness.transport.send(
                harness.request(.get, "/redirect"), body: nil, timeout: Patience.exchange)
            #expect(response.status == .ok)
            #expect(response.headerFields[Self.echoURI] == "/echo?redirected=1")
        }
    }

    @Test("a connection closed mid-response is connectionLost", arguments: TransportUnderTest.live)
    func closedMidResponse(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            await #expect(throws: HTTPTransportError.connectionLost) {
                try await harness.transport.send(
                    harness.request(.get, "/truncate"), body: nil, timeout: Patience.exchange)
            }
        }
    }

    @Test("a port nobody listens on is cannotConnect", arguments: TransportUnderTest.live)
    func cannotConnect(kind: TransportUnderTest) async throws {
        try await LoopbackServer.withRefusingPort { port in
            try await ContractHarness.with(kind) { harness in
                let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/echo")
                await #expect(throws: HTTPTransportError.cannotConnect) {
                    try await harness.transport.send(request, body: nil, timeout: Patience.exchange)
                }
            }
        }
    }

    /// A refused connect is reported as refused: a transport that retried it (AsyncHTTPClient's
    /// connect retries) would go on until the request's deadline and end as `timedOut` instead.
    /// The deadline is ``Patience/exchange``: long enough that a machine busy with the parallel
    /// crash suites (or the thread sanitizer) sees the refusal first, which a 2-second deadline was not.
    @Test("a refused connection is cannotConnect, not retried until the deadline", arguments: TransportUnderTest.live)
    func cannotConnectBeforeShortTimeout(kind: TransportUnderTest) async throws {
        let timeout = Patience.exchange
        try await LoopbackServer.withRefusingPort { port in
            try await ContractHarness.with(kind) { harness in
                let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/echo")
                await #expect(throws: HTTPTransportError.cannotConnect) {
                    try await harness.transport.send(request, body: nil, timeout: timeout)
                }
                // The transport still works afterwards: the failed connect left nothing behind.
                let (response, _) = try await harness.transport.send(
                    harness.request(.get, "/status/204"), body: nil, timeout: Patience.exchange)
                #expect(response.status.code == 204)
            }
        }
    }

    @Test("a server slower than the timeout is timedOut", arguments: TransportUnderTest.allCases)
    func timeout(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            await #expect(throws: HTTPTransportError.timedOut) {
                try await harness.transport.send(harness.request(.get, "/slow"), body: nil, timeout: .milliseconds(300))
            }
        }
    }

    @Test("cancelling the task in flight is cancelled", arguments: TransportUnderTest.cancellable)
    func cancelInFlight(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            let transport = harness.transport
            let request = harness.request(.get, "/stall")
            let task = Task { try await transport.send(request, body: nil, timeout: Patience.exchange) }
            await harness.waitForArrival(of: "/stall")
            task.cancel()
            await #expect(throws: HTTPTransportError.cancelled) { try await task.value }
        }
    }

    @Test("a task cancelled before sending is cancelled", arguments: TransportUnderTest.cancellable)
    func cancelBeforeSending(kind: TransportUnderTest) async throws {
        try await ContractHarness.with(kind) { harness in
            let transport = harness.transport
            let request = harness.request(.get, "/echo")
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(request, body: nil, timeout: Patience.exchange)
            }
            await #expect(throws: HTTPTransportError.cancelled) { try await task.value }
        }
    }
}
