/// The timeout every live transport enforces itself, so that a stalled server, a client that
/// ignores its own timers, or a slow body all end the same way: ``HTTPTransportError/timedOut``.
///
/// Shared by the transports in `Seams` and `SeamsAsyncHTTPClient`; users never see it.
package enum HTTPTimeout {
    /// The timeout of ``HTTPTransportProviding/send(_:body:)``.
    package static let defaultTimeout: Duration = .seconds(60)

    /// Runs `operation`, and throws ``HTTPTransportError/timedOut`` if it has not finished after
    /// `timeout`; `operation` is then cancelled and must stop promptly.
    ///
    /// - Parameters:
    ///   - timeout: How long `operation` may take.
    ///   - operation: The exchange. It must react to task cancellation.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws, ``HTTPTransportError/timedOut`` when the time is up,
    ///   or ``HTTPTransportError/cancelled`` when the calling task is cancelled.
    package static func run<T: Sendable>(
        _ timeout: Duration,
        _ operation: @escaping @Sendable () async throws(HTTPTransportError) -> T
    ) async throws(HTTPTransportError) -> T {
        if Task.isCancelled { throw HTTPTransportError(.cancelled, underlying: CancellationError()) }
        let outcome = await withTaskGroup(of: Result<T, HTTPTransportError>?.self) { group in
            group.addTask {
                do throws(HTTPTransportError) {
                    return .success(try await operation())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return nil  // cancelled: the operation finished first, or the caller cancelled
                }
                return .failure(HTTPTransportError(.timedOut))
            }
            while let next = await group.next() {
                if let next {
                    group.cancelAll()
                    return next
                }
            }
            return .failure(HTTPTransportError(.cancelled))
        }
        return try outcome.get()
    }
}
