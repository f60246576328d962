import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

/// The example of README-network.md, compiled and run, so the README cannot drift from the API.
@Suite("README network example")
struct ReadmeExampleTests {
    struct Note: Decodable, Equatable {
        let id: Int
        let title: String
    }

    enum NotesError: Error, Equatable {
        case status(Int)
    }

    struct NotesClient {
        var transport: any HTTPTransportProviding = URLSessionHTTPTransport.shared  // or AsyncHTTPClientTransport()
        func notes() async throws -> [Note] {
            let request = HTTPRequest(method: .get, scheme: "https", authority: "notes.example.com", path: "/v1/notes")
            let (response, body) = try await transport.send(request, body: nil, timeout: .seconds(10))
            guard response.status == .ok else { throw NotesError.status(response.status.code) }
            return try JSONDecoder().decode([Note].self, from: body)
        }
    }

    @Test("the README's test passes as written")
    func notesAndServerErrors() async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/v1/notes").respond(with: [
            .json(#"[{"id": 1, "title": "Milk"}]"#), .status(.serviceUnavailable),
        ])
        let client = NotesClient(transport: mock)
        #expect(try await client.notes() == [Note(id: 1, title: "Milk")])
        await #expect(throws: NotesError.status(503)) { try await client.notes() }
        mock.verifyAllRulesUsed()
    }
}
