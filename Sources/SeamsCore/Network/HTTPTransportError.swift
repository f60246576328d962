import Foundation

/// Why an HTTP exchange did not produce a response: the one error an ``HTTPTransportProviding``
/// throws. A response with any status, 404 and 500 included, is not an error: it is returned.
///
/// Two errors are equal when their ``kind`` is equal, so a test writes
/// `#expect(throws: HTTPTransportError.timedOut) { … }` whatever the live client said underneath;
/// the client's own error stays in ``underlying`` for logs and debugging.
///
/// ```swift
/// do {
///     let (response, body) = try await transport.send(request)
/// } catch where error.kind == .timedOut || error.kind == .connectionLost {
///     // worth a retry
/// }
/// ```
public struct HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms an app reacts to.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The exchange did not finish within the timeout the caller gave.
        case timedOut
        /// The connection broke after it was made, for example in the middle of the response.
        case connectionLost
        /// No connection could be made: refused, unreachable, or the connect attempt failed.
        case cannotConnect
        /// The host name did not resolve.
        case hostNotFound
        /// The task that sent the request was cancelled.
        case cancelled
        /// The TLS handshake or certificate check failed.
        case tls
        /// Anything else: an invalid request, a malformed response, a body over the size limit.
        case other
    }

    /// What went wrong.
    public let kind: Kind

    /// The error the underlying client threw, when there was one; not part of equality.
    public let underlying: UnderlyingError?

    /// Creates an error of `kind`, keeping `underlying`.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - underlying: The client's own error, if any.
    public init(_ kind: Kind, underlying: (any Error)? = nil) {
        self.kind = kind
        self.underlying = underlying.map(UnderlyingError.init)
    }

    /// The exchange did not finish within the timeout.
    public static let timedOut = HTTPTransportError(.timedOut)
    /// The connection broke after it was made.
    public static let connectionLost = HTTPTransportError(.connectionLost)
    /// No connection could be made.
    public static let cannotConnect = HTTPTransportError(.cannotConnect)
    /// The host name did not resolve.
    public static let hostNotFound = HTTPTransportError(.hostNotFound)
    /// The sending task was cancelled.
    public static let cancelled = HTTPTransportError(.cancelled)
    /// TLS failed.
    public static let tls = HTTPTransportError(.tls)
    /// Anything else.
    public static let other = HTTPTransportError(.other)

    /// Whether sending the same request again may succeed: a timeout, a lost connection or a
    /// failed connect. Whether it is *safe* to resend depends on the request's method.
    public var isTransient: Bool {
        switch kind {
        case .timedOut, .connectionLost, .cannotConnect: true
        case .hostNotFound, .cancelled, .tls, .other: false
        }
    }

    /// Equal when the kinds are equal.
    public static func == (lhs: HTTPTransportError, rhs: HTTPTransportError) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }

    /// "HTTP transport error: timedOut (underlying: …)".
    public var description: String {
        guard let underlying else { return "HTTP transport error: \(kind.rawValue)" }
        return "HTTP transport error: \(kind.rawValue) (underlying: \(underlying))"
    }
}
