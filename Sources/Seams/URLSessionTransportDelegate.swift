import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of ``URLSessionHTTPTransport``: it gathers each task's body, answers
/// redirects by the transport's policy, and resumes the waiting caller when the task completes.
///
/// A delegate rather than completion handlers because only a delegate can refuse a redirect on
/// every platform (FoundationNetworking ignores the redirect delegate for completion-handler tasks).
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Exchange {
        var complete: @Sendable (Result<(URLResponse, Data), any Error>) -> Void
        var data = Data()
        /// The server refused the credentials (401) and the task was stopped at the challenge.
        var refusedSignIn = false
    }

    private let followsRedirects: Bool
    private let exchanges = LockedValue<[Int: Exchange]>([:])

    init(followsRedirects: Bool) {
        self.followsRedirects = followsRedirects
    }

    /// Remembers who waits for task `id`; call before resuming the task.
    func register(_ id: Int, _ continuation: CheckedContinuation<(URLResponse, Data), any Error>) {
        register(id) { continuation.resume(with: $0) }
    }

    /// Calls `complete` once, on the session's delegate thread, when the task `id` ends.
    func register(_ id: Int, _ complete: @escaping @Sendable (Result<(URLResponse, Data), any Error>) -> Void) {
        exchanges.withLock { $0[id] = Exchange(complete: complete) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchanges.withLock { $0[dataTask.taskIdentifier]?.data.append(data) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        if followsRedirects {
            // The body gathered so far belonged to the 3xx; the next response starts afresh.
            exchanges.withLock { $0[task.taskIdentifier]?.data = Data() }
            completionHandler(request)
        } else {
            completionHandler(nil)
        }
    }

    /// A server's refusal (401 with `WWW-Authenticate`) is a response like any other: the caller
    /// sent its own `Authorization` header. FoundationNetworking waits on an unanswered challenge
    /// until the request times out, and ends a rejected one as cancelled; so the challenge is
    /// rejected, remembered, and the completion returns the 401 as the response.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        exchanges.withLock { $0[task.taskIdentifier]?.refusedSignIn = true }
        completionHandler(.rejectProtectionSpace, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if exchange.refusedSignIn, let response = task.response as? HTTPURLResponse, response.statusCode == 401 {
            exchange.complete(.success((response, exchange.data)))
        } else if let error {
            exchange.complete(.failure(Self.classified(error, responseArrived: task.response != nil)))
        } else if let response = task.response {
            exchange.complete(.success((response, exchange.data)))
        } else {
            exchange.complete(.failure(URLError(.badServerResponse)))
        }
    }

    /// FoundationNetworking reports a body cut short ("transfer closed with N bytes remaining")
    /// as an unknown error; once the response head has arrived that is a lost connection.
    private static func classified(_ error: any Error, responseArrived: Bool) -> any Error {
        guard responseArrived, let urlError = error as? URLError, urlError.code == .unknown else { return error }
        return URLError(.networkConnectionLost, userInfo: [NSUnderlyingErrorKey: urlError])
    }
}
