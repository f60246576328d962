public import Foundation
public import HTTPTypes
public import Seams

/// A transport that forwards every request to another one and lets a test step in: it keeps
/// the requests' heads, and runs the hooks a test set just before or just after the requests
/// they match.
///
/// So a test can act in one exact moment of a client's work (another device saving a file
/// between two of a sync's requests), look at what a client sent (its methods, paths and
/// headers), or hold requests to see how many a client has in flight at once.
///
/// ```swift
/// let transport = InterceptingTransport(server)
/// transport.on(.before, once: true, of: { $0.method == .put && $0.path == "/bucket/notes/a.txt" }) { _ in
///     otherDevice.save("notes/a.txt")
/// }
/// ```
///
/// Hooks run on the thread that sends the request, one after another in the order they were
/// set; a hook set with `once` is removed before it runs, so it runs for one request only.
public final class InterceptingTransport: WaitingHTTPTransportProviding {
    /// When a hook runs.
    public enum Moment: Sendable {
        /// Before the request is forwarded.
        case before
        /// Once the request's answer has arrived, before it is returned (not when none arrived).
        case after
    }

    private struct Hook: Sendable {
        let moment: Moment
        let once: Bool
        let matches: @Sendable (HTTPRequest) -> Bool
        let action: @Sendable (HTTPRequest) -> Void
    }

    private let base: any WaitingHTTPTransportProviding
    private let state = LockedValue((sent: [HTTPRequest](), hooks: [Hook]()))

    /// A transport forwarding to `base`.
    public init(_ base: any WaitingHTTPTransportProviding) {
        self.base = base
    }

    /// The heads of the requests sent through this transport, in the order they were sent.
    public var requests: [HTTPRequest] { state.withLock { $0.sent } }

    /// How many requests were sent through this transport.
    public var requestCount: Int { state.withLock { $0.sent.count } }

    /// Runs `action` at `moment` of each request `matches` accepts (of the next one only, with
    /// `once`).
    public func on(
        _ moment: Moment, once: Bool = false, of matches: @escaping @Sendable (HTTPRequest) -> Bool,
        do action: @escaping @Sendable (HTTPRequest) -> Void
    ) {
        state.withLock { $0.hooks.append(Hook(moment: moment, once: once, matches: matches, action: action)) }
    }

    /// Removes every hook.
    public func removeHooks() {
        state.withLock { $0.hooks.removeAll() }
    }

    /// Runs the hooks of `moment` that match `request`, removing those set with `once`.
    private func runHooks(_ moment: Moment, for request: HTTPRequest, counting: Bool) {
        let due = state.withLock { state -> [Hook] in
            if counting { state.sent.append(request) }
            let due = state.hooks.filter { $0.moment == moment && $0.matches(request) }
            state.hooks.removeAll { hook in hook.once && hook.moment == moment && hook.matches(request) }
            return due
        }
        for hook in due { hook.action(request) }
    }

    /// Runs the hooks before, forwards to the base's `sendWaiting`, runs the hooks after.
    @available(*, noasync, message: "blocks its thread until the answer arrives; use send(_:body:timeout:)")
    public func sendWaiting(_ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration) throws(HTTPTransportError)
        -> (HTTPResponse, Data)
    {
        runHooks(.before, for: request, counting: true)
        let answer = try base.sendWaiting(request, body: body, timeout: timeout)
        runHooks(.after, for: request, counting: false)
        return answer
    }

    /// Runs the hooks before, forwards to the base's `send`, runs the hooks after.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError)
        -> (HTTPResponse, Data)
    {
        runHooks(.before, for: request, counting: true)
        let answer = try await base.send(request, body: body, timeout: timeout)
        runHooks(.after, for: request, counting: false)
        return answer
    }
}
