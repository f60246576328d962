import Foundation
import HTTPTypes
import SeamsCore
import SeamsTesting

/// The in-memory S3 server of the crash suite, serving the harness's container folder, behind
/// the faults the suite sets at a request's number: the process dies before the request leaves
/// (nothing applied), after the server applied it (its answer never read), or the answer is lost
/// after the server applied it while the process goes on.
///
/// Once crashed, every request fails unsent (the process is gone) until ``restart()``.
final class CrashingS3Server: WaitingHTTPTransportProviding {
    /// A fault at one request.
    enum Fault: Hashable, Sendable, CustomStringConvertible {
        case crashBeforeSending
        case crashAfterApplying
        case loseAnswer

        var description: String {
            switch self {
            case .crashBeforeSending: "crash before sending"
            case .crashAfterApplying: "crash after applying"
            case .loseAnswer: "lost answer"
            }
        }
    }

    private struct State {
        var count = 0
        var scheduled: [Int: Fault] = [:]
        var crashed = false
        var fired = false
        var onCrash: [@Sendable () -> Void] = []
    }

    /// The server behind the faults.
    let server: InMemoryS3Server
    private let state = LockedValue(State())

    init(server: InMemoryS3Server) {
        self.server = server
    }

    /// Shows `fault` at the `request`-th request from now (counted from 1, requests after a
    /// crash too).
    func inject(_ fault: Fault, atRequest request: Int) {
        state.withLock { $0.scheduled[$0.count + request] = fault }
    }

    /// Runs `action` when a crash fault fires (the process dies: its local calls fail too).
    func whenCrashed(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCrash.append(action) }
    }

    /// Stops the client now: every later request fails unsent.
    func crash() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            if state.crashed { return [] }
            state.crashed = true
            return state.onCrash
        }
        for action in actions { action() }
    }

    /// Lets requests through again and drops the faults not met.
    func restart() {
        state.withLock {
            $0.crashed = false
            $0.scheduled = [:]
            $0.onCrash = []
        }
    }

    /// Whether a crash fault fired since the last ``restart()``.
    var hasCrashed: Bool { state.withLock { $0.crashed } }
    /// Whether any injected fault fired.
    var faultFired: Bool { state.withLock { $0.fired } }
    /// How many requests were made.
    var requestCount: Int { state.withLock { $0.count } }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
        HTTPResponse, Data
    ) {
        try exchange(request, body: body.map(HTTPRequestBody.data) ?? .none, timeout: timeout)
    }

    func sendWaiting(
        _ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        try exchange(request, body: body, timeout: timeout)
    }

    private func exchange(
        _ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let (fault, dead) = state.withLock { state -> (Fault?, Bool) in
            state.count += 1
            let fault = state.crashed ? nil : state.scheduled.removeValue(forKey: state.count)
            if fault != nil { state.fired = true }
            return (fault, state.crashed)
        }
        if dead { throw HTTPTransportError(.cannotConnect) }
        switch fault {
        case nil:
            return try server.sendWaiting(request, body: body, timeout: timeout)
        case .crashBeforeSending:
            crash()
            throw HTTPTransportError(.cannotConnect)
        case .crashAfterApplying:
            _ = try? server.sendWaiting(request, body: body, timeout: timeout)
            crash()
            throw HTTPTransportError(.connectionLost)
        case .loseAnswer:
            _ = try? server.sendWaiting(request, body: body, timeout: timeout)
            throw HTTPTransportError(.connectionLost)
        }
    }
}
