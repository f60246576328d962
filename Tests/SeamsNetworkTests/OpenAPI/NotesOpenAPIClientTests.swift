import Foundation
import HTTPTypes
import OpenAPIRuntime
import Seams
import SeamsOpenAPI
import SeamsTesting
import Testing

/// The client generated from `openapi.yaml` (committed in `Generated/`), sending through
/// ``HTTPTransportClientTransport``: by mock, by replay, and live against the loopback server.
///
/// `Generated/` is the output of swift-openapi-generator 1.14.3, run once by hand (not a build
/// plugin, so CI never builds the generator):
/// `swift-openapi-generator generate --config openapi-generator-config.yaml --output-directory Generated openapi.yaml`
@Suite("OpenAPI client over HTTPTransportProviding", .timeLimit(Patience.suite))
struct NotesOpenAPIClientTests {
    static let serverURL = URL(string: "https://notes.example.com/v1")!

    static func client(_ transport: any HTTPTransportProviding, serverURL: URL = serverURL) -> Client {
        Client(serverURL: serverURL, transport: HTTPTransportClientTransport(transport, timeout: Patience.exchange))
    }

    @Test("the generated client works over MockHTTPTransport")
    func overMock() async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/v1/notes", query: ["limit": "1"]).respond(.json(#"[{"id": 1, "title": "Milk"}]"#))
        mock.on(.post, "/v1/notes", body: .json(#"{"title": "Cheese"}"#)).respond(
            .json(#"{"id": 3, "title": "Cheese"}"#, status: .created))
        mock.on(.get, "/v1/notes/9").respond(.json(#"{"error": "no note 9"}"#, status: .notFound))
        let client = Self.client(mock)

        let listed = try await client.listNotes(query: .init(limit: 1)).ok.body.json
        #expect(listed.map(\.title) == ["Milk"])
        let created = try await client.createNote(body: .json(.init(title: "Cheese"))).created.body.json
        #expect(created.id == 3)
        guard case .notFound(let missing) = try await client.getNote(path: .init(id: 9)) else {
            Issue.record("expected 404")
            return
        }
        #expect(try missing.body.json.error == "no note 9")
        #expect(mock.requests.map(\.request.authority) == Array(repeating: "notes.example.com", count: 3))
        mock.verifyAllRulesUsed()
    }

    @Test(
        "the server URL's path prefixes each operation's path, with or without a trailing slash",
        arguments: ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/"])
    func serverPath(server: String) async throws {
        let mock = MockHTTPTransport()
        mock.on().respond(.json("[]"))
        _ = try await Self.client(mock, serverURL: URL(string: server)!).listNotes(query: .init(limit: 2))
        let request = try #require(mock.requests.first?.request)
        #expect(request.scheme == "http")
        #expect(request.authority == "127.0.0.1:8080")
        #expect(request.path == "/v1/notes?limit=2")
    }

    @Test("a transport error reaches the caller inside ClientError, comparable")
    func transportError() async throws {
        let mock = MockHTTPTransport()
        mock.on().fail(with: .timedOut)
        let error = await #expect(throws: ClientError.self) {
            try await Self.client(mock).listNotes(query: .init())
        }
        #expect(error?.underlyingError as? HTTPTransportError == .timedOut)
    }

    @Test("a request body over the limit fails before anything is sent")
    func bodyTooLarge() async throws {
        let mock = MockHTTPTransport()
        let client = Client(
            serverURL: Self.serverURL, transport: HTTPTransportClientTransport(mock, maximumRequestBodySize: 8))
        let error = await #expect(throws: ClientError.self) {
            try await client.createNote(body: .json(.init(title: "a title longer than eight bytes")))
        }
        #expect(error?.underlyingError as? HTTPTransportClientTransport.RequestBodyTooLarge == .init(limit: 8))
        #expect(mock.requests.isEmpty)
    }

    @Test("a server URL without a host is badURL")
    func badServerURL() async throws {
        let error = await #expect(throws: ClientError.self) {
            try await Self.client(UnimplementedHTTPTransport(), serverURL: URL(string: "/relative")!).listNotes(
                query: .init())
        }
        #expect((error?.underlyingError as? URLError)?.code == .badURL)
    }

    @Test(
        "recording against the loopback server and replaying gives byte-identical responses",
        arguments: TransportUnderTest.live)
    func recordAndReplay(kind: TransportUnderTest) async throws {
        let file = try ReplayFixtures.temporaryFolder().appending(path: "notes-\(kind).har")
        let live = CapturingTransport()
        var liveResults: [String] = []
        try await ContractHarness.with(kind) { harness in
            live.inner = RecordingHTTPTransport(wrapping: harness.transport, file: file)
            let client = Self.client(live, serverURL: URL(string: "http://\(harness.authority)/v1")!)
            liveResults = try await Self.useTheAPI(client)
        }
        #expect(liveResults == ["Milk", "Milk,Bread", "3:Cheese", "1:Milk", "404:no note 7"])

        let replay = try ReplayHTTPTransport(contentsOf: file)
        let replayed = CapturingTransport()
        replayed.inner = replay
        let replayResults = try await Self.useTheAPI(
            Self.client(replayed, serverURL: URL(string: "http://127.0.0.1:1/v1")!))
        #expect(replayResults == liveResults)
        #expect(replayed.responses == live.responses)
        #expect(live.responses.count == 5)
        replay.verifyAllEntriesUsed()
    }

    /// Every operation of the API once, and the list twice; the results as text.
    static func useTheAPI(_ client: Client) async throws -> [String] {
        var results: [String] = []
        results.append(
            try await client.listNotes(query: .init(limit: 1)).ok.body.json.map(\.title).joined(separator: ","))
        results.append(try await client.listNotes(query: .init()).ok.body.json.map(\.title).joined(separator: ","))
        let created = try await client.createNote(body: .json(.init(title: "Cheese"))).created.body.json
        results.append("\(created.id):\(created.title)")
        let note = try await client.getNote(path: .init(id: 1)).ok.body.json
        results.append("\(note.id):\(note.title)")
        if case .notFound(let missing) = try await client.getNote(path: .init(id: 7)) {
            results.append("404:\(try missing.body.json.error)")
        }
        return results
    }
}

/// Passes requests to ``inner`` and keeps each response as the caller received it: status,
/// reason, header fields as spelled and in order, and the body's bytes.
final class CapturingTransport: HTTPTransportProviding {
    private let state = LockedValue<(inner: (any HTTPTransportProviding)?, responses: [String])>((nil, []))

    var inner: (any HTTPTransportProviding)? {
        get { state.withLock { $0.inner } }
        set { state.withLock { $0.inner = newValue } }
    }

    var responses: [String] {
        state.withLock { $0.responses }
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
        HTTPResponse, Data
    ) {
        guard let inner else { throw HTTPTransportError(.other) }
        let (response, data) = try await inner.send(request, body: body, timeout: timeout)
        let fields = response.headerFields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "\n")
        let shape = "\(response.status.code) \(response.status.reasonPhrase)\n\(fields)\n\(data.base64EncodedString())"
        state.withLock { $0.responses.append(shape) }
        return (response, data)
    }
}
