import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

@Suite("UnimplementedHTTPTransport")
struct UnimplementedHTTPTransportTests {
    @Test("records an issue at the line that made it, and throws")
    func reportsAtCreation() async throws {
        let line = #line + 1
        let transport = UnimplementedHTTPTransport()
        let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:9", path: "/v1/notes")

        await withKnownIssue {
            let error = await #expect(throws: HTTPTransportError.other) {
                try await transport.send(request)
            }
            #expect(
                error?.underlying?.error as? UnimplementedError
                    == UnimplementedError(requirement: "HTTPTransportProviding.send(_:body:timeout:)"))
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.contains("GET http://127.0.0.1:9/v1/notes") }
        }
    }
}
