public import Foundation
public import HTTPTypes
public import Seams

/// What a ``MockHTTPTransport`` rule answers: a response, a transport error, or a closure.
///
/// ```swift
/// mock.on(.get, "/status").respond(with: [
///     .failure(.connectionLost),
///     .status(.serviceUnavailable),
///     .json(#"{"ok": true}"#),
/// ])
/// ```
public enum MockHTTPAnswer: Sendable {
    /// A response with its body.
    case response(HTTPResponse, body: Data)
    /// A transport error, as if the network had failed.
    case failure(HTTPTransportError)
    /// A closure that computes the answer from the request and its body.
    case handler(@Sendable (HTTPRequest, Data?) async throws(HTTPTransportError) -> (HTTPResponse, Data))

    /// A response with `status`, `headers` and `body`.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - headers: The header fields.
    ///   - body: The body; empty unless given.
    /// - Returns: The answer.
    public static func status(
        _ status: HTTPResponse.Status,
        headers: HTTPFields = [:],
        body: Data = Data()
    ) -> MockHTTPAnswer {
        .response(HTTPResponse(status: status, headerFields: headers), body: body)
    }

    /// A JSON response: `content-type: application/json` and `json` as its body.
    ///
    /// - Parameters:
    ///   - json: The body's text.
    ///   - status: The status; 200 unless given.
    /// - Returns: The answer.
    public static func json(_ json: String, status: HTTPResponse.Status = .ok) -> MockHTTPAnswer {
        .status(status, headers: [.contentType: "application/json"], body: Data(json.utf8))
    }

    /// A JSON response encoding `value`.
    ///
    /// - Parameters:
    ///   - value: What to encode.
    ///   - status: The status; 200 unless given.
    ///   - encoder: The encoder.
    /// - Returns: The answer.
    /// - Throws: What `encoder` throws.
    public static func json(
        encoding value: some Encodable,
        status: HTTPResponse.Status = .ok,
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockHTTPAnswer {
        .status(status, headers: [.contentType: "application/json"], body: try encoder.encode(value))
    }

    /// Produces the response, or throws.
    func answer(_ request: HTTPRequest, body: Data?) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        switch self {
        case .response(let response, let data): return (response, data)
        case .failure(let error): throw error
        case .handler(let handler): return try await handler(request, body)
        }
    }
}
