public import Foundation
public import HTTPTypes
public import Seams
public import Testing

/// An `HTTPTransportProviding` that fails the test when used: `send` records a Swift Testing
/// issue at the line that created the double, then throws an `HTTPTransportError` of kind
/// `.other` whose underlying error is ``UnimplementedError``.
///
/// Inject it where a test expects no network traffic, so a forgotten request fails loudly
/// instead of reaching a server.
///
/// ```swift
/// let store = NotesStore(cache: warmCache, transport: UnimplementedHTTPTransport())
/// _ = try await store.notes()      // served from the cache: the test fails if it calls the API
/// ```
public struct UnimplementedHTTPTransport: HTTPTransportProviding {
    private let reporter: UnimplementedReporter

    /// Creates the double.
    ///
    /// - Parameter sourceLocation: Where issues are reported; defaults to the caller's line.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        reporter = UnimplementedReporter(sourceLocation: sourceLocation)
    }

    /// Records an issue and throws.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let error = reporter.report(
            "HTTPTransportProviding.send(_:body:timeout:)",
            "\(request.method.rawValue) \(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")"
        )
        throw HTTPTransportError(.other, underlying: error)
    }
}
