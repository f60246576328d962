import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

/// Recording through a live transport against the loopback server, then replaying with no server:
/// the replay must hand back exactly what the live transport handed back.
@Suite("Record and replay against the loopback server", .timeLimit(Patience.suite))
struct RecordReplayLoopbackTests {
    typealias Fixtures = ReplayFixtures
    static let alpha = HTTPField.Name("x-test-alpha")!

    /// Requests that cover JSON and binary bodies in both directions, statuses with and without
    /// a body, a redirect, HEAD, a query, and one request made twice.
    static func exchanges(authority: String) -> [(HTTPRequest, Data?)] {
        func request(_ method: HTTPRequest.Method, _ target: String, _ headers: HTTPFields = [:]) -> HTTPRequest {
            HTTPRequest(method: method, scheme: "http", authority: authority, path: target, headerFields: headers)
        }
        return [
            (request(.get, "/echo?b=2&a=1&a=0", [alpha: "one"]), nil),
            (
                request(.post, "/echo", [.contentType: "application/json"]),
                Data(#"{"title": "Hi", "n": [1, 2.5]}"#.utf8)
            ),
            (request(.put, "/echo", [.contentType: "application/octet-stream"]), LoopbackRoute.pattern(count: 4096)),
            (request(.get, "/bytes/70000"), nil),
            (request(.get, "/status/404"), nil),
            (request(.get, "/status/204"), nil),
            (request(.get, "/redirect"), nil),
            (request(.head, "/echo"), nil),
            (request(.get, "/echo?b=2&a=1&a=0", [alpha: "one"]), nil),
        ]
    }

    /// The response as the caller sees it, field names spelled as sent and in order.
    static func shape(_ response: HTTPResponse, _ body: Data) -> String {
        let fields = response.headerFields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "\n")
        return "\(response.status.code) \(response.status.reasonPhrase)\n\(fields)\n\(body.base64EncodedString())"
    }

    @Test("replaying a recording gives byte-identical responses", arguments: TransportUnderTest.live)
    func byteIdentical(kind: TransportUnderTest) async throws {
        let file = try Fixtures.temporaryFolder().appending(path: "\(kind).har")
        var live: [String] = []
        try await ContractHarness.with(kind) { harness in
            let recorder = RecordingHTTPTransport(wrapping: harness.transport, file: file)
            for (request, body) in Self.exchanges(authority: harness.authority) {
                let (response, data) = try await recorder.send(request, body: body, timeout: Patience.exchange)
                live.append(Self.shape(response, data))
            }
        }
        #expect(live.count == 9)
        #expect(live[3].contains(LoopbackRoute.pattern(count: 70000).base64EncodedString()))

        // The server is closed: port 1 would be refused, so an answer can only come from the file.
        let replay = try ReplayHTTPTransport(contentsOf: file)
        var replayed: [String] = []
        for (request, body) in Self.exchanges(authority: "127.0.0.1:1") {
            let (response, data) = try await replay.send(request, body: body)
            replayed.append(Self.shape(response, data))
        }
        #expect(replayed == live)
        replay.verifyAllEntriesUsed()

        let bytes = try Data(contentsOf: file)
        #expect(try HTTPArchive(data: bytes).encoded() == bytes)  // stable: reading and writing changes nothing
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""text" : "{\"title\": \"Hi\", \"n\": [1, 2.5]}""#))
        #expect(text.contains(#""encoding" : "base64""#))
    }
}
