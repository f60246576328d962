import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

@Suite("ReplayHTTPTransport")
struct ReplayHTTPTransportTests {
    typealias Fixtures = ReplayFixtures

    @Test("matches the query in any order and a JSON body by structure, whatever the host")
    func matchesQueryAndJSON() async throws {
        let archive = HTTPArchive(entries: [
            Fixtures.entry("GET", "/v1/notes?page=2&tag=a&tag=b", body: "page two"),
            Fixtures.entry(
                "POST", "/v1/notes", requestBody: #"{"title":"Hi","tags":["x",1]}"#, status: 201, body: "created"),
        ])
        let replay = try ReplayHTTPTransport(archive: archive)

        let (listed, listBody) = try await replay.send(
            Fixtures.request(.get, "/v1/notes?tag=a&page=2&tag=b", authority: "127.0.0.1:1"))
        #expect(listed.status == .ok)
        #expect(String(decoding: listBody, as: UTF8.self) == "page two")

        let (created, _) = try await replay.send(
            Fixtures.request(.post, "/v1/notes"), body: Data(#"{ "tags": ["x", 1.0], "title": "Hi" }"#.utf8))
        #expect(created.status == .created)
        replay.verifyAllEntriesUsed()
    }

    @Test("identical requests are answered in recorded order, each entry once")
    func identicalRequestsInOrder() async throws {
        let archive = HTTPArchive(entries: [
            Fixtures.entry("GET", "/counter", body: "1"),
            Fixtures.entry("GET", "/other", body: "other"),
            Fixtures.entry("GET", "/counter", body: "2"),
        ])
        let replay = try ReplayHTTPTransport(archive: archive)
        let request = Fixtures.request(.get, "/counter")
        #expect(String(decoding: try await replay.send(request).1, as: UTF8.self) == "1")
        #expect(String(decoding: try await replay.send(request).1, as: UTF8.self) == "2")
        #expect(replay.unusedEntries == ["#2 GET /other"])

        await withKnownIssue {
            let error = await #expect(throws: HTTPTransportError.other) { try await replay.send(request) }
            let detail = (error?.underlying?.error as? HTTPReplayError)?.detail ?? ""
            #expect(detail.contains("#1 GET /counter\n     - matches, but has already answered an earlier request"))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix("ReplayHTTPTransport: no recorded entry matches the request")
            }
        }
    }

    @Test("compares the header fields it is told to, after redaction")
    func selectedHeaders() async throws {
        let archive = HTTPArchive(entries: [
            Fixtures.entry(
                "GET", "/me",
                requestHeaders: [
                    .init(name: "Accept", value: "application/json"),
                    .init(name: "Authorization", value: "REDACTED"),
                ], body: "json"),
            Fixtures.entry("GET", "/me", requestHeaders: [.init(name: "Accept", value: "text/html")], body: "html"),
        ])
        let replay = try ReplayHTTPTransport(
            archive: archive, matching: HTTPReplayMatching(headers: [.accept, .authorization]))
        let html = Fixtures.request(.get, "/me", headers: [.accept: "text/html"])
        let json = Fixtures.request(
            .get, "/me", headers: [.accept: "application/json", .authorization: "Bearer real-token"])
        #expect(String(decoding: try await replay.send(html).1, as: UTF8.self) == "html")
        #expect(String(decoding: try await replay.send(json).1, as: UTF8.self) == "json")
    }

    @Test("an unmatched request fails at the transport's line with the request and the nearest entries")
    func unmatchedMessage() async throws {
        let archive = HTTPArchive(entries: [
            Fixtures.entry("GET", "/v1/notes?page=2"),
            Fixtures.entry("POST", "/v1/notes", requestBody: #"{"title": "Hi"}"#, status: 201),
            Fixtures.entry("DELETE", "/v1/account", status: 204),
            Fixtures.entry("GET", "/health"),
        ])
        let line = #line + 1
        let replay = try ReplayHTTPTransport(archive: archive, path: "/fixtures/notes.har")
        let request = Fixtures.request(
            .post, "/v1/notes?page=1", headers: [.contentType: "application/json", .authorization: "Bearer s3cret"])

        var message = ""
        await withKnownIssue {
            let error = await #expect(throws: HTTPTransportError.other) {
                try await replay.send(request, body: Data(#"{"title": "Ho"}"#.utf8))
            }
            let replayError = error?.underlying?.error as? HTTPReplayError
            #expect(replayError == HTTPReplayError(.unmatchedRequest, path: "/fixtures/notes.har"))
            message = replayError?.detail ?? ""
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.hasPrefix("ReplayHTTPTransport: no recorded entry matches") }
        }

        #expect(
            message == """
                ReplayHTTPTransport: no recorded entry matches the request
                  POST /v1/notes?page=1
                    Content-Type: application/json
                    Authorization: REDACTED
                    body: '{"title": "Ho"}'
                Nearest recorded entries in notes.har (3 of 4):
                  1. #2 POST /v1/notes
                     - query is page=1, expected empty
                     - JSON body differs: $.title is "Ho", expected "Hi"
                  2. #1 GET /v1/notes?page=2
                     - method is POST, expected GET
                     - query is page=1, expected page=2
                     - body is '{"title": "Ho"}', expected empty
                  3. #3 DELETE /v1/account
                     - method is POST, expected DELETE
                     - path is /v1/notes, expected /v1/account
                     - query is page=1, expected empty
                     - body is '{"title": "Ho"}', expected empty
                """)
    }

    @Test("a recorded transport error is thrown again")
    func recordedError() async throws {
        let archive = HTTPArchive(entries: [Fixtures.entry("GET", "/down", status: 0, error: "connectionLost")])
        let replay = try ReplayHTTPTransport(archive: archive)
        await #expect(throws: HTTPTransportError.connectionLost) {
            try await replay.send(Fixtures.request(.get, "/down"))
        }
    }

    @Test("a cancelled task is cancelled before any entry is used")
    func cancelled() async throws {
        let replay = try ReplayHTTPTransport(archive: HTTPArchive(entries: [Fixtures.entry("GET", "/x")]))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await replay.send(Fixtures.request(.get, "/x"))
        }
        await #expect(throws: HTTPTransportError.cancelled) { try await task.value }
        #expect(replay.unusedEntries == ["#1 GET /x"])
    }

    @Test("verifyAllEntriesUsed names the entries nothing used")
    func unusedEntries() async throws {
        let replay = try ReplayHTTPTransport(
            archive: HTTPArchive(entries: [
                Fixtures.entry("GET", "/used"), Fixtures.entry("DELETE", "/never", status: 204),
            ]))
        _ = try await replay.send(Fixtures.request(.get, "/used"))
        withKnownIssue {
            replay.verifyAllEntriesUsed()
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue == "ReplayHTTPTransport: 1 recorded entry never used:\n  - #2 DELETE /never"
            }
        }
    }

    @Test("a HAR exported by a browser replays; its pages, cache, cookies and _fields are ignored")
    func browserExport() async throws {
        let file = Fixtures.folder.appending(path: "browser-export.har")
        let replay = try ReplayHTTPTransport(contentsOf: file)

        let (items, itemsBody) = try await replay.send(
            Fixtures.request(.get, "/v2/items?limit=2&sort=name", headers: [.accept: "application/json"]))
        #expect(items.status == .ok)
        #expect(items.headerFields[.contentType] == "application/json; charset=utf-8")
        // The browser kept the body decoded: the replay must not claim it is gzip.
        #expect(items.headerFields[.contentEncoding] == nil)
        #expect(items.headerFields[.contentLength] == nil)
        #expect(items.headerFields.contains { $0.name.rawName.hasPrefix(":") } == false)
        struct Page: Decodable, Equatable {
            struct Item: Decodable, Equatable {
                let id: Int
                let name: String
            }
            let items: [Item]
        }
        #expect(
            try JSONDecoder().decode(Page.self, from: itemsBody)
                == Page(items: [.init(id: 1, name: "Apples"), .init(id: 2, name: "Bread")]))

        let (created, createdBody) = try await replay.send(
            Fixtures.request(.post, "/v2/items", headers: [.contentType: "application/json"]),
            body: Data(#"{"tags": ["dairy"], "name": "Cheese"}"#.utf8))
        #expect(created.status == .created)
        #expect(created.headerFields[.location] == "/v2/items/3")
        #expect(String(decoding: createdBody, as: UTF8.self) == #"{"id":3,"name":"Cheese"}"#)

        let (image, png) = try await replay.send(Fixtures.request(.get, "/img/pixel.png"))
        #expect(image.status.code == 200 && image.status.reasonPhrase == "OK")
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count == 66)

        await #expect(throws: HTTPTransportError.cannotConnect) {
            try await replay.send(Fixtures.request(.get, "/v1/beacon"))
        }
        replay.verifyAllEntriesUsed()
    }

    /// `mitmproxy-export.har` is mitmproxy 11.0.2's own export (`mitmdump --mode reverse:… --set
    /// hardump=…`), of curl talking to a small Python server through it: a file no code of ours
    /// wrote, with mitmproxy's fields (`pages: []`, fractional `time`, `+00:00` dates, `_` fields).
    @Test("a HAR exported by mitmproxy replays: query, JSON POST, 404")
    func mitmproxyExport() async throws {
        let replay = try ReplayHTTPTransport(contentsOf: Fixtures.folder.appending(path: "mitmproxy-export.har"))
        let (list, listBody) = try await replay.send(Fixtures.request(.get, "/v1/notes?limit=2"))
        #expect(list.status == .ok)
        #expect(list.headerFields[.contentType] == "application/json")
        #expect(
            String(decoding: listBody, as: UTF8.self)
                == #"[{"id": 1, "title": "Groceries"}, {"id": 2, "title": "Ideas"}]"#)
        let (created, createdBody) = try await replay.send(
            Fixtures.request(.post, "/v1/notes", headers: [.contentType: "application/json"]),
            body: Data(#"{ "title" : "New" }"#.utf8))
        #expect(created.status == .created)
        #expect(String(decoding: createdBody, as: UTF8.self) == #"{"id": 3, "echo": {"title": "New"}}"#)
        let (missing, _) = try await replay.send(Fixtures.request(.get, "/missing"))
        #expect(missing.status == .notFound)
        replay.verifyAllEntriesUsed()
    }
}
