public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import HTTPTypes
import HTTPTypesFoundation

/// The live ``HTTPTransportProviding`` on `URLSession` (FoundationNetworking on Linux).
///
/// ```swift
/// let transport = URLSessionHTTPTransport.shared           // or `.live`
/// let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/items")
/// let (response, body) = try await transport.send(request, body: nil, timeout: .seconds(10))
/// ```
///
/// It keeps the contract of ``HTTPTransportProviding``: every status is returned, redirects are
/// returned as they came unless `followsRedirects` is `true`, the timeout is enforced by the
/// transport, and cancellation cancels the `URLSessionTask`.
public final class URLSessionHTTPTransport: HTTPTransportProviding {
    /// A transport on an ephemeral session that does not follow redirects.
    public static let shared = URLSessionHTTPTransport()

    /// Whether 3xx responses with a `Location` are followed by `URLSession`.
    public let followsRedirects: Bool

    private let session: URLSession
    private let delegate: URLSessionTransportDelegate

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration; ephemeral (no cookies, no cache on disk)
    ///     unless given.
    ///   - followsRedirects: `true` to let `URLSession` follow redirects; by default a 3xx is
    ///     returned to the caller as it came.
    public init(configuration: URLSessionConfiguration = .ephemeral, followsRedirects: Bool = false) {
        self.followsRedirects = followsRedirects
        let delegate = URLSessionTransportDelegate(followsRedirects: followsRedirects)
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` through `URLSession`.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: The request body, or `nil`.
    ///   - timeout: How long the whole exchange may take.
    /// - Returns: The response head and its complete body.
    /// - Throws: ``HTTPTransportError``, classified by ``HTTPTransportError/init(urlLoading:)``.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw HTTPTransportError(.other, underlying: URLError(.badURL))
        }
        urlRequest.httpBody = body
        // Our own timer decides; URLSession's idle timer only backs it up.
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        urlRequest.timeoutInterval = seconds + 1
        let session = session
        let delegate = delegate
        let prepared = urlRequest
        return try await HTTPTimeout.run(timeout) { () async throws(HTTPTransportError) in
            try await Self.exchange(prepared, session: session, delegate: delegate)
        }
    }

    private static func exchange(
        _ urlRequest: URLRequest,
        session: URLSession,
        delegate: URLSessionTransportDelegate
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let task = session.dataTask(with: urlRequest)
        let (urlResponse, data): (URLResponse, Data)
        do {
            (urlResponse, data) = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.register(task.taskIdentifier, continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw HTTPTransportError(urlLoading: error)
        }
        guard let response = (urlResponse as? HTTPURLResponse)?.httpResponse else {
            throw HTTPTransportError(.other, underlying: URLError(.badServerResponse))
        }
        return (response, data)
    }
}

extension HTTPTransportProviding where Self == URLSessionHTTPTransport {
    /// The live transport on `URLSession` that does not follow redirects:
    /// ``URLSessionHTTPTransport/shared``.
    public static var live: URLSessionHTTPTransport { .shared }
}
