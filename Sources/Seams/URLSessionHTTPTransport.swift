public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The live `HTTPTransportProviding` on `URLSession` (FoundationNetworking on Linux).
///
/// ```swift
/// let transport = URLSessionHTTPTransport.shared           // or `.live`
/// let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/items")
/// let (response, body) = try await transport.send(request, body: nil, timeout: .seconds(10))
/// ```
///
/// It keeps the contract of `HTTPTransportProviding`: every status is returned, redirects are
/// returned as they came unless `followsRedirects` is `true`, the timeout is enforced by the
/// transport, and cancellation cancels the `URLSessionTask`.
///
/// Uploads from a file stream (`HTTPFileTransferProviding`): the file is read as it is sent
/// and never held whole.
public final class URLSessionHTTPTransport: HTTPFileTransferProviding, WaitingHTTPTransportProviding {
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
    /// - Throws: `HTTPTransportError`, classified by `HTTPTransportError.init(urlLoading:)`.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let prepared = try Self.urlRequest(request, body: body, timeout: timeout)
        let session = session
        let delegate = delegate
        return try await HTTPTimeout.run(timeout) { () async throws(HTTPTransportError) in
            try await Self.exchange(prepared, session: session, delegate: delegate)
        }
    }

    /// The request as `URLSession` takes it, with the timeout backing up our own.
    private static func urlRequest(_ request: HTTPRequest, body: Data?, timeout: Duration) throws(HTTPTransportError)
        -> URLRequest
    {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw HTTPTransportError(.other, underlying: URLError(.badURL))
        }
        urlRequest.httpBody = body
        // Our own timer decides; URLSession's idle timer only backs it up.
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        urlRequest.timeoutInterval = seconds + 1
        return urlRequest
    }

    private static func exchange(
        _ urlRequest: URLRequest,
        session: URLSession,
        delegate: URLSessionTransportDelegate,
        bodyFile: URL? = nil
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let task =
            bodyFile.map { session.uploadTask(with: urlRequest, fromFile: $0) } ?? session.dataTask(with: urlRequest)
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

extension URLSessionHTTPTransport {
    /// Sends `request` with the file at `bodyFile` as its body, read as it is sent
    /// (`URLSessionUploadTask` from a file).
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - bodyFile: A local file.
    ///   - timeout: How long the whole exchange may take.
    /// - Returns: The response head and its complete body.
    /// - Throws: `HTTPTransportError`; a file that cannot be read is `HTTPTransportError.Kind.other`.
    public func send(
        _ request: HTTPRequest,
        bodyFile: URL,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        // URLSession would report a missing file as an unknown error after connecting: ask first.
        if access(bodyFile.path, R_OK) != 0 {
            let code = errno
            throw HTTPTransportError(
                .other, underlying: CocoaError.fileSystemError(errno: code, path: bodyFile.path, writing: false))
        }
        let prepared = try Self.urlRequest(request, body: nil, timeout: timeout)
        let (session, delegate) = (self.session, self.delegate)
        return try await HTTPTimeout.run(timeout) { () async throws(HTTPTransportError) in
            try await Self.exchange(prepared, session: session, delegate: delegate, bodyFile: bodyFile)
        }
    }
}

extension URLSessionHTTPTransport {
    /// Starts the exchange and blocks the calling thread until the session's delegate thread
    /// reports its end, or `timeout` passes (then the task is cancelled).
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: What the request sends; a file is read as it is sent.
    ///   - timeout: How long the whole exchange may take.
    /// - Returns: The response head and its complete body.
    /// - Throws: `HTTPTransportError` when no complete response arrived.
    @available(*, noasync, message: "it blocks its thread; use send(_:body:timeout:)")
    public func sendWaiting(
        _ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        var file: URL?
        var data: Data?
        switch body {
        case .none: break
        case .data(let bytes): data = bytes
        case .file(let url):
            if access(url.path, R_OK) != 0 {
                let code = errno
                throw HTTPTransportError(
                    .other, underlying: CocoaError.fileSystemError(errno: code, path: url.path, writing: false))
            }
            file = url
        }
        let prepared = try Self.urlRequest(request, body: data, timeout: timeout)
        let task = file.map { session.uploadTask(with: prepared, fromFile: $0) } ?? session.dataTask(with: prepared)
        let outcome = LockedValue<Result<(URLResponse, Data), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        delegate.register(task.taskIdentifier) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + .nanoseconds(timeout.dispatchNanoseconds)) == .timedOut {
            task.cancel()
            done.wait()  // the delegate reports the cancelled task
            throw HTTPTransportError(.timedOut)
        }
        let (urlResponse, received): (URLResponse, Data)
        do {
            (urlResponse, received) = try outcome.withLock { $0! }.get()
        } catch {
            throw HTTPTransportError(urlLoading: error)
        }
        guard let response = (urlResponse as? HTTPURLResponse)?.httpResponse else {
            throw HTTPTransportError(.other, underlying: URLError(.badServerResponse))
        }
        return (response, received)
    }
}

extension HTTPTransportProviding where Self == URLSessionHTTPTransport {
    /// The live transport on `URLSession` that does not follow redirects:
    /// ``URLSessionHTTPTransport/shared``.
    public static var live: URLSessionHTTPTransport { .shared }
}
