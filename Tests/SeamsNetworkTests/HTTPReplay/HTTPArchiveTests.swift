import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

@Suite("HTTPArchive: the HAR file")
struct HTTPArchiveTests {
    typealias Fixtures = ReplayFixtures

    /// Records one exchange through a mock and returns the written file's text.
    private func recordedText(
        request: HTTPRequest,
        body: Data?,
        answer: MockHTTPAnswer,
        redaction: HTTPRedaction = .standard
    ) async throws -> (text: String, archive: HTTPArchive) {
        let mock = MockHTTPTransport()
        mock.on().respond(answer)
        let file = try Fixtures.temporaryFolder().appending(path: "x.har")
        let recorder = RecordingHTTPTransport(wrapping: mock, file: file, redaction: redaction)
        _ = try? await recorder.send(request, body: body)
        let data = try Data(contentsOf: file)
        return (String(decoding: data, as: UTF8.self), try HTTPArchive(data: data))
    }

    @Test("is pretty-printed with sorted keys and a final newline, and re-encodes to the same bytes")
    func stableFormat() async throws {
        let (text, archive) = try await recordedText(
            request: Fixtures.request(.post, "/v1/notes?b=2&a=1", headers: [.contentType: "application/json"]),
            body: Data(#"{"title":"Hi"}"#.utf8),
            answer: .json(#"{"id": 7}"#, status: .created))
        #expect(text.hasPrefix("{\n  \"log\" : {\n    \"creator\" : {\n      \"name\" : \"Seams\""))
        #expect(text.hasSuffix("}\n"))
        #expect(archive.encoded() == Data(text.utf8))
        let entry = try #require(archive.log.entries.first)
        #expect(entry.request.url == "https://api.example.test/v1/notes?b=2&a=1")
        #expect(entry.request.queryString == [.init(name: "b", value: "2"), .init(name: "a", value: "1")])
        #expect(entry.response.status == 201)
        #expect(entry.time >= 0 && entry.timings.wait == entry.time)
        #expect(entry.startedDateTime.hasSuffix("Z") && entry.startedDateTime.count == 24)
        #expect(
            text.contains(#""cache" : {"#) && text.contains(#""cookies" : ["#) && text.contains(#""headersSize" : -1"#))
        #expect(!text.contains("\\/"))
    }

    @Test(
        "keeps a textual body as text and any other as base64",
        arguments: [
            ("application/json", Data(#"{"a":1}"#.utf8), false),
            ("text/plain; charset=utf-8", Data("héllo\n".utf8), false),
            ("application/problem+json", Data(#"{"title":"x"}"#.utf8), false),
            ("application/octet-stream", Data("plain bytes".utf8), true),
            ("image/png", Data([0x89, 0x50, 0x4E, 0x47]), true),
            ("text/plain", Data([0xFF, 0xFE, 0x41]), true),  // says text, is not UTF-8
            ("", Data("no type".utf8), true),
        ])
    func bodyEncoding(contentType: String, body: Data, base64: Bool) async throws {
        var headers = HTTPFields()
        if !contentType.isEmpty { headers[.contentType] = contentType }
        let (_, archive) = try await recordedText(
            request: Fixtures.request(.put, "/blob", headers: headers), body: body,
            answer: .status(.ok, headers: headers, body: body))
        let entry = try #require(archive.log.entries.first)
        let postData = try #require(entry.request.postData)
        #expect((postData.encoding == "base64") == base64)
        #expect((entry.response.content.encoding == "base64") == base64)
        #expect(entry.response.content.size == body.count)
        if !base64 { #expect(postData.text == String(decoding: body, as: UTF8.self)) }

        // And the bytes come back exactly.
        let replay = try ReplayHTTPTransport(archive: archive)
        let (_, replayed) = try await replay.send(Fixtures.request(.put, "/blob", headers: headers), body: body)
        #expect(replayed == body)
    }

    @Test("a transport error is kept as status 0 with _error")
    func errorKept() async throws {
        let (text, archive) = try await recordedText(
            request: Fixtures.request(.get, "/down"), body: nil, answer: .failure(.cannotConnect))
        #expect(archive.log.entries.first?.response.status == 0)
        #expect(text.contains(#""_error" : "cannotConnect""#))
    }

    @Test("a cancelled request is thrown on and not kept")
    func cancelledNotKept() async throws {
        let mock = MockHTTPTransport()
        mock.on().fail(with: .cancelled)
        let file = try Fixtures.temporaryFolder().appending(path: "x.har")
        let recorder = RecordingHTTPTransport(wrapping: mock, file: file)
        await #expect(throws: HTTPTransportError.cancelled) { try await recorder.send(Fixtures.request(.get, "/x")) }
        #expect(recorder.archive.log.entries.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a missing file is fixtureMissing")
    func missingFile() throws {
        let file = try Fixtures.temporaryFolder().appending(path: "none.har")
        #expect(throws: HTTPReplayError(.fixtureMissing, path: file.path)) { try ReplayHTTPTransport(contentsOf: file) }
    }

    @Test(
        "a damaged file is corruptFixture, and the detail says where",
        arguments: [
            ("not json {", "not JSON"),
            (#"{"log": {"version": "1.2"}}"#, "log.entries is missing"),
            (
                #"{"log": {"entries": [{"request": {"url": "https://h/x"}, "response": {"status": 200}}]}}"#,
                "log.entries[0].request.method is missing"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/relative"}, "response": {"status": 200}}]}}"#,
                "log.entries[0]: request.url /relative is not an absolute URL"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://h/x"}, "response": {"status": 200, "content": {"text": "@@@", "encoding": "base64"}}}]}}"#,
                "log.entries[0]: response.content.text is not base64"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://h/x"}, "response": {"status": 42}}]}}"#,
                "log.entries[0]: response.status 42 is not an HTTP status"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "G T", "url": "https://h/x"}, "response": {"status": 200}}]}}"#,
                "log.entries[0]: request.method G T is not a method"
            ),
        ])
    func corruptFile(content: String, detail: String) throws {
        let file = try Fixtures.temporaryFolder().appending(path: "bad.har")
        try Data(content.utf8).write(to: file)
        let error = #expect(throws: HTTPReplayError(.corruptFixture, path: file.path)) {
            try ReplayHTTPTransport(contentsOf: file)
        }
        #expect(error?.detail.contains(detail) == true, "\(error?.detail ?? "")")
    }

    @Test("a file that cannot be written fails the test and the request with cannotWrite")
    func writeFailure() async throws {
        let folder = try Fixtures.temporaryFolder()
        let blocker = folder.appending(path: "a-file")
        try Data("x".utf8).write(to: blocker)
        let file = blocker.appending(path: "fixture.har")  // its parent is a file
        let mock = MockHTTPTransport()
        mock.on().respond(status: .ok)
        let recorder = RecordingHTTPTransport(wrapping: mock, file: file)

        await withKnownIssue {
            let error = await #expect(throws: HTTPTransportError.other) {
                try await recorder.send(Fixtures.request(.get, "/x"))
            }
            #expect(error?.underlying?.error as? HTTPReplayError == HTTPReplayError(.cannotWrite, path: file.path))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("RecordingHTTPTransport: could not write the fixture") }
        }
        #expect(mock.requests.count == 1)
    }
}
