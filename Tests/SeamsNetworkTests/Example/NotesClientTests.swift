import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

/// Drives ``NotesClient``'s error handling through ``MockHTTPTransport``: retries where they
/// belong, a clear error where they don't. Back-off waits run on an ``ImmediateClock``.
@Suite("NotesClient (example API client)")
struct NotesClientTests {
    let mock = MockHTTPTransport()
    let clock = ImmediateClock()
    var client: NotesClient { NotesClient(token: "t0ken", transport: mock, clock: clock) }

    @Test("lists notes, sending the token")
    func lists() async throws {
        mock.on(.get, "/v1/notes", headers: [.authorization: "Bearer t0ken", .accept: "application/json"])
            .respond(.json(#"[{"id": 1, "title": "Milk"}, {"id": 2, "title": "Eggs"}]"#))

        let notes = try await client.notes()

        #expect(notes == [.init(id: 1, title: "Milk"), .init(id: 2, title: "Eggs")])
        #expect(clock.sleeps.isEmpty)
        mock.verifyAllRulesUsed()
    }

    @Test("creates a note with a JSON body")
    func creates() async throws {
        mock.on(
            .post, "/v1/notes", headers: [.contentType: "application/json"], body: .json(#"{"title": "Call \"Bo\""}"#)
        )
        .respond(.json(#"{"id": 9, "title": "Call \"Bo\""}"#, status: .created))

        #expect(try await client.create(title: #"Call "Bo""#) == .init(id: 9, title: #"Call "Bo""#))
        mock.verifyAllRulesUsed()
    }

    @Test(
        "a read retries transient failures with back-off",
        arguments: [
            MockHTTPAnswer.failure(.timedOut), .failure(.connectionLost), .failure(.cannotConnect),
            .status(.serviceUnavailable), .status(.tooManyRequests), .status(.badGateway),
        ])
    func readRetries(failure: MockHTTPAnswer) async throws {
        mock.on(.get, "/v1/notes/4").respond(with: [failure, failure, .json(#"{"id": 4, "title": "Tea"}"#)])

        #expect(try await client.note(id: 4) == .init(id: 4, title: "Tea"))
        #expect(mock.requests.count == 3)
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test("a retry waits what Retry-After says")
    func retryAfter() async throws {
        mock.on(.delete, "/v1/notes/4").respond(with: [
            .status(.serviceUnavailable, headers: [.retryAfter: "30"]), .status(.noContent),
        ])

        try await client.delete(id: 4)
        #expect(clock.sleeps == [.seconds(30)])
    }

    @Test("a read gives up after three attempts")
    func givesUp() async throws {
        mock.on(.get, "/v1/notes").fail(with: .connectionLost)

        await #expect(throws: NotesClientError.unavailable(attempts: 3)) { try await client.notes() }
        #expect(mock.requests.count == 3)
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test(
        "a create is retried only when it surely did not reach the server",
        arguments: [
            (MockHTTPAnswer.failure(.timedOut), NotesClientError.transport(.timedOut)),
            (.failure(.connectionLost), .transport(.connectionLost)),
            (.status(.internalServerError), .unexpectedStatus(500)),
        ])
    func createNotRetried(failure: MockHTTPAnswer, expected: NotesClientError) async throws {
        mock.on(.post, "/v1/notes").respond(with: [failure, .json(#"{"id": 1, "title": "x"}"#)])

        await #expect(throws: expected) { try await client.create(title: "x") }
        #expect(mock.requests.count == 1)
    }

    @Test(
        "a create is retried when the server did not take it",
        arguments: [
            MockHTTPAnswer.failure(.cannotConnect), .status(.serviceUnavailable), .status(.tooManyRequests),
        ])
    func createRetried(failure: MockHTTPAnswer) async throws {
        mock.on(.post, "/v1/notes").respond(with: [failure, .json(#"{"id": 1, "title": "x"}"#, status: .created)])

        #expect(try await client.create(title: "x").id == 1)
        #expect(mock.requests.count == 2)
    }

    @Test(
        "answers that no retry can fix fail at once with a clear error",
        arguments: [
            (MockHTTPAnswer.status(.unauthorized), NotesClientError.unauthorized),
            (.status(.forbidden), .unauthorized),
            (.status(.notFound), .notFound(id: 4)),
            (
                .json(#"{"error": "id is reserved"}"#, status: .unprocessableContent),
                .rejected(reason: "id is reserved")
            ),
            (.status(.conflict), .unexpectedStatus(409)),
            (.json(#"{"id": "four"}"#), .malformedResponse),
            (.failure(.hostNotFound), .transport(.hostNotFound)),
            (.failure(.tls), .transport(.tls)),
            (.failure(.cancelled), .transport(.cancelled)),
        ])
    func noRetry(answer: MockHTTPAnswer, expected: NotesClientError) async throws {
        mock.on(.get, "/v1/notes/4").respond(answer)

        await #expect(throws: expected) { try await client.note(id: 4) }
        #expect(mock.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }
}
