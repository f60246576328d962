public import Foundation
public import HTTPTypes

/// Sends one HTTP request and returns the response with its body: the network boundary.
///
/// Code that calls an API takes an `any HTTPTransportProviding` with a live default, and tests
/// inject `MockHTTPTransport` from `SeamsTesting`:
///
/// ```swift
/// struct WeatherClient {
///     let transport: any HTTPTransportProviding
///     init(transport: any HTTPTransportProviding = URLSessionHTTPTransport.shared) {
///         self.transport = transport
///     }
/// }
///
/// // In a test:
/// let mock = MockHTTPTransport()
/// mock.on(.get, "/forecast").respond(status: .ok, json: #"{"temperature": 21.5}"#)
/// let client = WeatherClient(transport: mock)
/// ```
///
/// The contract every implementation keeps (checked against a loopback server for the live ones):
/// - Any status is a response, never an error: 404 and 500 come back as `HTTPResponse`s.
/// - Redirects are not followed unless the transport was made to follow them; a 3xx is returned
///   as it came, with its `Location` header.
/// - `timeout` bounds the whole exchange, body included, and is enforced by the transport
///   itself; when it passes, the call throws ``HTTPTransportError/timedOut``.
/// - Cancelling the calling task stops the exchange and throws ``HTTPTransportError/cancelled``.
/// - Every failure to get a response is an ``HTTPTransportError`` that keeps the client's error.
public protocol HTTPTransportProviding: Sendable {
    /// Sends `request` with `body` and returns the response and its body.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query (`/items?page=2`).
    ///   - body: The request body, or `nil` for none.
    ///   - timeout: How long the whole exchange may take.
    /// - Returns: The response head and the complete response body (empty when there is none).
    /// - Throws: ``HTTPTransportError`` when no complete response arrived.
    func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data)
}

extension HTTPTransportProviding {
    /// Sends `request` with the default timeout of 60 seconds.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/items")
    /// let (response, body) = try await transport.send(request)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: The request body, or `nil` for none.
    /// - Returns: The response head and the complete response body.
    /// - Throws: ``HTTPTransportError`` when no complete response arrived.
    public func send(
        _ request: HTTPRequest,
        body: Data? = nil
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: HTTPTimeout.defaultTimeout)
    }
}
