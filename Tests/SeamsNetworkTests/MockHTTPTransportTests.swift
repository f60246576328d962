import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

@Suite("MockHTTPTransport")
struct MockHTTPTransportTests {
    static func request(
        _ method: HTTPRequest.Method,
        _ target: String,
        headers: HTTPFields = [:]
    ) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "https", authority: "api.example.test", path: target, headerFields: headers)
    }

    @Test("matches method, path, query, headers and a JSON body by structure")
    func matchesEverything() async throws {
        let mock = MockHTTPTransport()
        mock.on(
            .post, "/v1/notes",
            query: ["draft": "true"],
            headers: [.authorization: "Bearer t0ken"],
            body: .json(#"{"title": "Hi", "tags": ["a", 1]}"#)
        ).respond(.json(#"{"id": 7}"#, status: .created))

        let request = Self.request(.post, "/v1/notes?lang=en&draft=true", headers: [.authorization: "Bearer t0ken"])
        let (response, body) = try await mock.send(request, body: Data(#"{"tags":["a",1.0],"title":"Hi"}"#.utf8))

        #expect(response.status == .created)
        #expect(String(decoding: body, as: UTF8.self) == #"{"id": 7}"#)
        #expect(mock.requests.map(\.request) == [request])
        mock.verifyAllRulesUsed()
    }

    @Test("a sequence answers once each, in order, then matches no more")
    func sequence() async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/ping").respond(with: [.failure(.timedOut), .status(.serviceUnavailable), .status(.ok)])
        let request = Self.request(.get, "/ping")

        await #expect(throws: HTTPTransportError.timedOut) { try await mock.send(request) }
        #expect(try await mock.send(request).0.status == .serviceUnavailable)
        #expect(try await mock.send(request).0.status == .ok)
        await withKnownIssue {
            let error = await #expect(throws: HTTPTransportError.self) { try await mock.send(request) }
            let message = (error?.underlying?.error as? MockHTTPTransport.UnmatchedRequestError)?.message ?? ""
            #expect(message.contains("matches, but its 3 answer(s) are used up"))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("MockHTTPTransport: no rule matches the request") }
        }
    }

    @Test("a closure answers from the request", arguments: ["/a", "/b/c"])
    func closure(path: String) async throws {
        let mock = MockHTTPTransport()
        mock.on(.put).respond { request, body in
            (
                HTTPResponse(status: .accepted),
                Data(((request.path ?? "") + ":" + String(decoding: body ?? Data(), as: UTF8.self)).utf8)
            )
        }
        let (response, body) = try await mock.send(Self.request(.put, path), body: Data("x".utf8))
        #expect(response.status == .accepted)
        #expect(String(decoding: body, as: UTF8.self) == "\(path):x")
    }

    @Test("throws the rule's transport error", arguments: HTTPTransportError.Kind.allCases)
    func failure(kind: HTTPTransportError.Kind) async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/x").fail(with: HTTPTransportError(kind, underlying: URLError(.unknown)))
        await #expect(throws: HTTPTransportError(kind)) { try await mock.send(Self.request(.get, "/x")) }
    }

    @Test("a delay runs on the injected clock")
    func delay() async throws {
        let clock = ImmediateClock()
        let mock = MockHTTPTransport(clock: clock)
        mock.on(.get, "/slow").delayed(by: .seconds(2)).respond(status: .ok)
        mock.on(.get, "/slower").delayed(by: .seconds(90)).respond(status: .ok)

        #expect(try await mock.send(Self.request(.get, "/slow"), body: nil, timeout: .seconds(5)).0.status == .ok)
        await #expect(throws: HTTPTransportError.timedOut) {
            try await mock.send(Self.request(.get, "/slower"), body: nil, timeout: .seconds(5))
        }
        #expect(clock.sleeps == [.seconds(2), .seconds(5)])
    }

    @Test("records every request, matched or not, from many tasks at once")
    func recordsConcurrently() async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/items").respond(status: .ok)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { _ = try await mock.send(Self.request(.get, "/items?page=\(index)")) }
            }
            try await group.waitForAll()
        }
        let pages = Set(mock.requests.compactMap { $0.request.path })
        #expect(pages == Set((0..<64).map { "/items?page=\($0)" }))
    }

    @Test("verifyAllRulesUsed names the rules nothing used")
    func unusedRules() async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/used").respond(status: .ok)
        mock.on(.delete, "/never").respond(status: .noContent)
        _ = try await mock.send(Self.request(.get, "/used"))

        #expect(mock.unusedRules.count == 1)
        #expect(mock.unusedRules.first?.hasPrefix("DELETE /never (rule at MockHTTPTransportTests.swift:") == true)
        withKnownIssue {
            mock.verifyAllRulesUsed()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("1 rule(s) never used") }
        }
    }

    @Test("an unmatched request fails with the request and the nearest rules")
    func unmatchedMessage() async throws {
        let mock = MockHTTPTransport()
        let line = #line + 1
        mock.on(.get, "/v1/notes", query: ["page": "2"]).respond(status: .ok)
        mock.on(.post, "/v1/notes", body: .json(#"{"title": "Hi"}"#)).respond(status: .created)
        mock.on(.delete, "/v1/account").respond(status: .noContent)
        mock.on(.get, "/health").respond(status: .ok)
        let request = Self.request(.post, "/v1/notes?page=1", headers: [.contentType: "application/json"])

        var message = ""
        await withKnownIssue {
            let error = await #expect(throws: HTTPTransportError.other) {
                try await mock.send(request, body: Data(#"{"title": "Ho"}"#.utf8))
            }
            message = (error?.underlying?.error as? MockHTTPTransport.UnmatchedRequestError)?.message ?? ""
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("MockHTTPTransport: no rule matches the request") }
        }

        #expect(
            message == """
                MockHTTPTransport: no rule matches the request
                  POST /v1/notes?page=1
                    Content-Type: application/json
                    body: '{"title": "Ho"}'
                Nearest rules (3 of 4):
                  1. POST /v1/notes JSON {"title":"Hi"} (rule at MockHTTPTransportTests.swift:\(line + 1))
                     - JSON body differs: $.title is "Ho", expected "Hi"
                  2. GET /v1/notes?page=2 (rule at MockHTTPTransportTests.swift:\(line))
                     - method is POST, expected GET
                     - query item page is 1, expected 2
                  3. DELETE /v1/account (rule at MockHTTPTransportTests.swift:\(line + 2))
                     - method is POST, expected DELETE
                     - path is /v1/notes, expected /v1/account
                """)
        #expect(mock.requests.count == 1)
    }
}
