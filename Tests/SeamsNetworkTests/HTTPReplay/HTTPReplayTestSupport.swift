import Foundation
import HTTPTypes
import SeamsTesting

/// Helpers shared by the record-and-replay suites.
enum ReplayFixtures {
    /// The folder of the committed fixtures, beside this file.
    static let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "HTTPFixtures")

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "seams-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func request(
        _ method: HTTPRequest.Method,
        _ target: String,
        authority: String = "api.example.test",
        headers: HTTPFields = [:]
    ) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "https", authority: authority, path: target, headerFields: headers)
    }

    /// An entry as this package would record it.
    static func entry(
        _ method: String,
        _ target: String,
        requestHeaders: [HTTPArchive.NameValue] = [],
        requestBody: String? = nil,
        status: Int = 200,
        responseHeaders: [HTTPArchive.NameValue] = [],
        body: String = "",
        error: String? = nil
    ) -> HTTPArchive.Entry {
        HTTPArchive.Entry(
            startedDateTime: "2026-11-23T10:00:00.000Z",
            time: 12.5,
            request: HTTPArchive.Request(
                method: method,
                url: "https://api.example.test" + target,
                headers: requestHeaders,
                queryString: [],
                postData: requestBody.map { HTTPArchive.PostData(mimeType: "application/json", text: $0) },
                bodySize: requestBody?.utf8.count ?? 0
            ),
            response: HTTPArchive.Response(
                status: status,
                statusText: "",
                headers: responseHeaders,
                content: HTTPArchive.Content(size: body.utf8.count, mimeType: "text/plain", text: body),
                error: error
            )
        )
    }
}
