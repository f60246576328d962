import Dispatch
import Synchronization

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
    /// The deadline is a Dispatch timer, cancelled (and freed) as soon as `operation` ends. A
    /// `Task.sleep` raced against the operation would do the same, but a cancelled sleep keeps
    /// its timer until the deadline passes: at hundreds of requests a second with a 60-second
    /// timeout, tens of thousands of them (about 7 MB, measured with heaptrack on a sync of
    /// 10,020 new files to a WebDAV server).
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
        let (seconds, attoseconds) = timeout.components
        let nanoseconds =
            max(0, seconds) > Int64.max / 1_000_000_000
            ? Int.max : Int(max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000)
        let expired = Atomic(false)
        let running = LockedValue<Task<Result<T, HTTPTransportError>, Never>?>(nil)
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler {
            expired.store(true, ordering: .sequentiallyConsistent)
            running.withLock { $0 }?.cancel()
        }
        let timer = LockedValue(source)
        let exchange = Task { () async -> Result<T, HTTPTransportError> in
            // The time counts from when the exchange starts to run, as a sleeping task beside it
            // would count it: a cooperative pool busy with other work delays both alike.
            timer.withLock { timer in
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds))
                timer.resume()
            }
            do throws(HTTPTransportError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        running.withLock { $0 = exchange }
        let outcome = await withTaskCancellationHandler {
            await exchange.value
        } onCancel: {
            exchange.cancel()
        }
        timer.withLock { $0.cancel() }
        if case .failure = outcome, expired.load(ordering: .sequentiallyConsistent) {
            throw HTTPTransportError(.timedOut)
        }
        return try outcome.get()
    }
}
