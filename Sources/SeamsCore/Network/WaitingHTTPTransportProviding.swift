public import Foundation
public import HTTPTypes

/// What a request sends: nothing, bytes in memory, or a local file read as it is sent.
public enum HTTPRequestBody: Hashable, Sendable {
    /// No body.
    case none
    /// These bytes.
    case data(Data)
    /// The file at this path of this machine's file system, read as it is sent.
    case file(URL)
}

/// A transport that can also be waited for on the calling thread: the exchange is started and
/// its end signals the waiting thread, with no Swift task in between.
///
/// Blocking code that must make a request (the WebDAV accessor, which the sync engine calls on
/// its own threads) uses it where the transport has it: a request then costs one hand-off, from
/// the thread that receives the answer to the waiting one, not a task on Swift's cooperative
/// pool between them, which waits for a free core when the machine is busy. A transport without
/// it is waited for through a task.
///
/// The contract is ``HTTPTransportProviding``'s and, for a file body,
/// ``HTTPFileTransferProviding``'s; cancellation is of the wait's own making: only `timeout`
/// ends a waiting exchange early.
public protocol WaitingHTTPTransportProviding: HTTPTransportProviding {
    /// Sends `request` with `body` and blocks the calling thread until the response and its body
    /// have arrived or `timeout` has passed.
    ///
    /// Never call it from a task: it holds its thread for the whole exchange.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: What the request sends.
    ///   - timeout: How long the whole exchange may take.
    /// - Returns: The response head and its complete body.
    /// - Throws: ``HTTPTransportError`` when no complete response arrived
    ///   (``HTTPTransportError/Kind/timedOut`` when `timeout` passed).
    @available(*, noasync, message: "it blocks its thread; use send(_:body:timeout:)")
    func sendWaiting(
        _ request: HTTPRequest,
        body: HTTPRequestBody,
        timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data)
}

extension Duration {
    /// The duration in nanoseconds for `DispatchTime`, at most `Int.max`, at least 0.
    package var dispatchNanoseconds: Int {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        if seconds > Int64(Int.max / 1_000_000_000) - 1 { return Int.max }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
