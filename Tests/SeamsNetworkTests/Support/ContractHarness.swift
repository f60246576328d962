import Foundation
import HTTPTypes
import Seams
import SeamsAsyncHTTPClient
import SeamsTesting
import Testing

/// The transports the contract suite runs on.
enum TransportUnderTest: String, CaseIterable, CustomStringConvertible, Sendable {
    case urlSession
    /// `URLSessionHTTPTransport.sendWaiting`, each request waited for on a thread of its own.
    case urlSessionWaiting
    case asyncHTTPClient
    /// `AsyncHTTPClientTransport.sendWaiting`, each request waited for on a thread of its own.
    case asyncHTTPClientWaiting
    case mock

    /// The transports that talk to a real socket.
    static let live: [TransportUnderTest] = [
        .urlSession, .urlSessionWaiting, .asyncHTTPClient, .asyncHTTPClientWaiting,
    ]
    /// The transports whose exchange ends when its task is cancelled (a waiting exchange ends by
    /// its timeout only).
    static let cancellable: [TransportUnderTest] = [.urlSession, .asyncHTTPClient, .mock]

    /// The live transport of this kind, or `nil` for the mock.
    func makeLive(followsRedirects: Bool = false) -> (any HTTPFileTransferProviding, AsyncHTTPClientTransport?)? {
        switch self {
        case .urlSession: (URLSessionHTTPTransport(followsRedirects: followsRedirects), nil)
        case .urlSessionWaiting: (WaitingOnAThread(URLSessionHTTPTransport(followsRedirects: followsRedirects)), nil)
        case .asyncHTTPClient:
            {
                let ahc = AsyncHTTPClientTransport(followsRedirects: followsRedirects)
                return (ahc, ahc)
            }()
        case .asyncHTTPClientWaiting:
            {
                let ahc = AsyncHTTPClientTransport(followsRedirects: followsRedirects)
                return (WaitingOnAThread(ahc), ahc)
            }()
        case .mock: nil
        }
    }

    var description: String { rawValue }
}

/// One transport facing the loopback routes: a live transport and a ``LoopbackServer``, or a
/// ``MockHTTPTransport`` whose rules serve the same ``LoopbackRoute``s.
struct ContractHarness: Sendable {
    let transport: any HTTPTransportProviding
    let authority: String
    /// The target of each request as it reaches the server (or the mock's handler).
    let arrivals: AsyncStream<String>

    /// A request to `target` (path and query) on the harness's server.
    func request(_ method: HTTPRequest.Method, _ target: String, headers: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "http", authority: authority, path: target, headerFields: headers)
    }

    /// Waits until a request for a target starting with `prefix` has arrived.
    func waitForArrival(of prefix: String) async {
        for await target in arrivals where target.hasPrefix(prefix) {
            return
        }
    }

    /// Runs `body` with a harness for `kind`, and tears it down afterwards.
    static func with(
        _ kind: TransportUnderTest,
        followsRedirects: Bool = false,
        _ body: (ContractHarness) async throws -> Void
    ) async throws {
        switch kind {
        case .mock:
            try await body(mock())
        case .urlSession, .urlSessionWaiting, .asyncHTTPClient, .asyncHTTPClientWaiting:
            let server = try await LoopbackServer.start()
            let (transport, ahc) = kind.makeLive(followsRedirects: followsRedirects)!
            let harness = ContractHarness(transport: transport, authority: server.authority, arrivals: server.arrivals)
            let outcome: Result<Void, any Error>
            do {
                try await body(harness)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            try await ahc?.shutdown()
            try await server.close()
            try outcome.get()
        }
    }

    /// A mock that serves the loopback routes: `/slow` waits an hour on the mock's clock (so a
    /// shorter timeout fires at once), `/stall` waits until its task is cancelled, and the rest
    /// answer by ``LoopbackRoute``.
    private static func mock() -> ContractHarness {
        let (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
        let mock = MockHTTPTransport()
        mock.on(nil, "/slow").delayed(by: .seconds(3600)).respond(status: .ok)
        mock.on().respond { (request, body) async throws(HTTPTransportError) -> (HTTPResponse, Data) in
            let target = request.path ?? "/"
            arrived.yield(target)
            let headers = request.headerFields.map { LoopbackRoute.Header(name: $0.name.rawName, value: $0.value) }
            switch LoopbackRoute.route(
                method: request.method.rawValue, uri: target, headers: headers, body: body ?? Data())
            {
            case .respond(let status, let fields, let data):
                var response = HTTPResponse(status: .init(code: status))
                for field in fields {
                    if let name = HTTPField.Name(field.name) {
                        response.headerFields.append(HTTPField(name: name, value: field.value))
                    }
                }
                return (response, request.method == .head ? Data() : data)
            case .truncate:
                throw HTTPTransportError.connectionLost
            case .stall:
                let (never, keep) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}  // ends when the task is cancelled
                keep.finish()
                return (HTTPResponse(status: .ok), Data())
            }
        }
        return ContractHarness(transport: mock, authority: "127.0.0.1:1", arrivals: arrivals)
    }
}

/// A waiting transport's blocking entry point seen as an async transport: each request is
/// waited for on a new thread of its own, never on a thread of Swift's cooperative pool.
struct WaitingOnAThread: HTTPFileTransferProviding {
    let base: any WaitingHTTPTransportProviding

    init(_ base: any WaitingHTTPTransportProviding) {
        self.base = base
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
        HTTPResponse, Data
    ) {
        try await wait(request, body.map { .data($0) } ?? .none, timeout)
    }

    func send(_ request: HTTPRequest, bodyFile: URL, timeout: Duration) async throws(HTTPTransportError) -> (
        HTTPResponse, Data
    ) {
        try await wait(request, .file(bodyFile), timeout)
    }

    private func wait(
        _ request: HTTPRequest, _ body: HTTPRequestBody, _ timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let base = self.base
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<(HTTPResponse, Data), HTTPTransportError>, Never>) in
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result { () throws(HTTPTransportError) in
                        try base.sendWaiting(request, body: body, timeout: timeout)
                    })
            }
        }
        return try result.get()
    }
}
