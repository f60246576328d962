import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

@Suite("HTTPRedaction")
struct HTTPRedactionTests {
    typealias Fixtures = ReplayFixtures

    static let secrets = [
        "SECRET-TOKEN", "SECRET-COOKIE", "SECRET-HEADER", "SECRET-QUERY", "SECRET-PASSWORD", "SECRET-REFRESH",
    ]
    static let apiKey = HTTPField.Name("x-test-api-key")!
    static let redaction = HTTPRedaction(
        headers: ["X-Test-Api-Key", "x-echo-uri"], queryItems: ["api_key"], jsonFields: ["password", "refresh_token"])

    /// A login that carries every kind of secret; the loopback `/echo` returns the body, the
    /// `x-test-*` fields and the target, so the response carries them too.
    static func login(authority: String) -> (HTTPRequest, Data) {
        let request = HTTPRequest(
            method: .post, scheme: "http", authority: authority, path: "/echo?api_key=SECRET-QUERY&page=1",
            headerFields: [
                .authorization: "Bearer SECRET-TOKEN",
                .cookie: "session=SECRET-COOKIE",
                apiKey: "SECRET-HEADER",
                .contentType: "application/json",
            ])
        let body =
            #"{"user": "ann", "password": "SECRET-PASSWORD", "device": {"refresh_token": "SECRET-REFRESH", "name": "phone"}}"#
        return (request, Data(body.utf8))
    }

    @Test("a file recorded against the loopback server contains no secret", arguments: TransportUnderTest.live)
    func recordedFileHasNoSecret(kind: TransportUnderTest) async throws {
        let file = try Fixtures.temporaryFolder().appending(path: "login.har")
        try await ContractHarness.with(kind) { harness in
            let recorder = RecordingHTTPTransport(wrapping: harness.transport, file: file, redaction: Self.redaction)
            let (request, body) = Self.login(authority: harness.authority)
            let (response, echoed) = try await recorder.send(request, body: body, timeout: Patience.exchange)
            // The code under test sees the real exchange; only the file is redacted.
            #expect(response.headerFields[Self.apiKey] == "SECRET-HEADER")
            #expect(echoed == body)
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        // Bodies kept as base64 (the echo's response has no content type) are read decoded.
        let archive = try HTTPArchive(contentsOf: file)
        let base64Bodies = archive.log.entries.flatMap { entry in
            [
                entry.request.postData.flatMap { $0.encoding == "base64" ? $0.text : nil },
                entry.response.content.encoding == "base64" ? entry.response.content.text : nil,
            ]
        }.compactMap { $0 }.map { String(decoding: Data(base64Encoded: $0) ?? Data(), as: UTF8.self) }
        #expect(base64Bodies.count == 1)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) was written")
            #expect(!base64Bodies.contains { $0.contains(secret) }, "\(secret) was written as base64")
        }
        #expect(base64Bodies.first?.contains(#""refresh_token": "REDACTED""#) == true)
        #expect(text.contains("api_key=REDACTED&page=1"))
        // The request body (JSON, kept as text) keeps every byte but the secrets.
        #expect(
            text.contains(
                #""text" : "{\"user\": \"ann\", \"password\": \"REDACTED\", \"device\": {\"refresh_token\": \"REDACTED\", \"name\": \"phone\"}}""#
            ))

        // The same request, secrets and all, replays from the redacted file.
        let replay = try ReplayHTTPTransport(contentsOf: file, redaction: Self.redaction)
        let (request, body) = Self.login(authority: "127.0.0.1:1")
        let (response, replayed) = try await replay.send(request, body: body)
        #expect(response.status == .ok)
        #expect(response.headerFields[.authorization] == nil)
        #expect(response.headerFields[Self.apiKey] == "REDACTED")
        #expect(!String(decoding: replayed, as: UTF8.self).contains("SECRET"))
    }

    @Test("JSON members are redacted at any depth, by name in any case, and the rest keeps its bytes")
    func jsonBytesKept() async throws {
        let mock = MockHTTPTransport()
        let answer =
            #"{"items" : [ {"Access_Token":"abc", "n": 1.50} ], "access_token": {"nested": "x"}, "keep" : "access_token"}"#
        mock.on().respond(.json(answer))
        let recorder = RecordingHTTPTransport(
            wrapping: mock, redaction: HTTPRedaction(jsonFields: ["access_token"], placeholder: "<secret>"))
        _ = try await recorder.send(Fixtures.request(.get, "/tokens"))
        let text = try #require(recorder.archive.log.entries.first?.response.content.text)
        #expect(
            text
                == #"{"items" : [ {"Access_Token":"<secret>", "n": 1.50} ], "access_token": "<secret>", "keep" : "access_token"}"#
        )
    }

    @Test("a form body and the Location's query are redacted like a query; Set-Cookie always")
    func formAndLocation() async throws {
        let mock = MockHTTPTransport()
        mock.on().respond(
            status: .found, headers: [.location: "/next?code=abc&state=1", .setCookie: "sid=abc; HttpOnly"])
        let recorder = RecordingHTTPTransport(
            wrapping: mock, redaction: HTTPRedaction(queryItems: ["code", "client_secret"]))
        let request = Fixtures.request(
            .post, "/oauth/token", headers: [.contentType: "application/x-www-form-urlencoded"])
        _ = try await recorder.send(request, body: Data("grant=x&client_secret=hunter2&code=abc".utf8))
        let entry = try #require(recorder.archive.log.entries.first)
        #expect(entry.request.postData?.text == "grant=x&client_secret=REDACTED&code=REDACTED")
        #expect(entry.response.redirectURL == "/next?code=REDACTED&state=1")
        #expect(entry.response.headers.first { $0.name == "Set-Cookie" }?.value == "REDACTED")
        #expect(entry.response.headers.first { $0.name == "Location" }?.value == "/next?code=REDACTED&state=1")
    }

    @Test("a body that is not JSON is kept as it is")
    func notJSON() async throws {
        let mock = MockHTTPTransport()
        mock.on().respond(
            status: .ok, headers: [.contentType: "text/plain"], body: Data(#"{"password": "x" trailing"#.utf8))
        let recorder = RecordingHTTPTransport(wrapping: mock, redaction: HTTPRedaction(jsonFields: ["password"]))
        _ = try await recorder.send(Fixtures.request(.get, "/x"))
        #expect(recorder.archive.log.entries.first?.response.content.text == #"{"password": "x" trailing"#)
    }
}
