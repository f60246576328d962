public import AsyncHTTPClient
public import Foundation
public import HTTPTypes
import NIOCore
import NIOHTTP1
public import SeamsCore

/// The live `HTTPTransportProviding` on AsyncHTTPClient (swift-nio), in its own product so that
/// apps which don't want swift-nio never build it.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()               // owns an HTTPClient
/// let (response, body) = try await transport.send(request, body: nil, timeout: .seconds(10))
/// try await transport.shutdown()                           // before it goes away
/// ```
///
/// It keeps the contract of `HTTPTransportProviding`: every status is returned, redirects are
/// returned as they came unless `followsRedirects` is `true`, the timeout is enforced by the
/// transport, and cancellation stops the request.
///
/// A refused connection is `HTTPTransportError.Kind.cannotConnect` at once, as on
/// `Seams`'s `URLSessionHTTPTransport`: the transport's own client does not retry a failed connect
/// (AsyncHTTPClient's default is to retry with back-off until its connect timeout, so the caller
/// would wait that long and, with a shorter `timeout`, see `HTTPTransportError.Kind.timedOut`).
/// A client passed to ``init(client:maximumResponseBodySize:)`` keeps its own setting; set
/// `configuration.connectionPool.retryConnectionEstablishment = false` for the same behaviour.
public final class AsyncHTTPClientTransport: HTTPFileTransferProviding {
    /// The client that sends the requests.
    public let client: HTTPClient

    /// Responses with a longer body fail with `HTTPTransportError.Kind.other`.
    public let maximumResponseBodySize: Int

    private let ownsClient: Bool

    /// Creates a transport with its own `HTTPClient` on the shared event loop group; call
    /// ``shutdown()`` when done with it.
    ///
    /// - Parameters:
    ///   - followsRedirects: `true` to follow up to five redirects; by default a 3xx is returned
    ///     to the caller as it came, as `Seams`'s `URLSessionHTTPTransport` does.
    ///   - maximumResponseBodySize: The longest response body accepted, 64 MiB unless given.
    public init(followsRedirects: Bool = false, maximumResponseBodySize: Int = 64 << 20) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = followsRedirects ? .follow(max: 5, allowCycles: false) : .disallow
        // A refused connect fails the request at once instead of being retried until the connect
        // timeout: the caller decides about retries, as with every transport of this package.
        configuration.connectionPool.retryConnectionEstablishment = false
        // A connect is bounded by the request's own timeout, as on URLSession, not by
        // AsyncHTTPClient's 10-second default: with no retry, a connect slowed past 10 s (a busy
        // machine) would fail a request whose caller allowed longer.
        configuration.timeout.connect = .seconds(3600)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.maximumResponseBodySize = maximumResponseBodySize
        ownsClient = true
    }

    /// Creates a transport on a client you own and shut down; its redirect configuration decides
    /// whether redirects are followed.
    ///
    /// - Parameters:
    ///   - client: The client.
    ///   - maximumResponseBodySize: The longest response body accepted, 64 MiB unless given.
    public init(client: HTTPClient, maximumResponseBodySize: Int = 64 << 20) {
        self.client = client
        self.maximumResponseBodySize = maximumResponseBodySize
        ownsClient = false
    }

    /// Shuts the transport's own client down; does nothing for a client passed in.
    ///
    /// - Throws: What `HTTPClient.shutdown()` throws.
    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    /// Shuts the transport's own client down, blocking the calling thread until it has; does
    /// nothing for a client passed in. For synchronous code (a command-line tool's `run()`).
    ///
    /// - Throws: What `HTTPClient.syncShutdown()` throws.
    @available(*, noasync, message: "it blocks its thread; use shutdown()")
    public func shutdownWaiting() throws {
        if ownsClient { try client.syncShutdown() }
    }

    /// Sends `request` through AsyncHTTPClient.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: The request body, or `nil`.
    ///   - timeout: How long the whole exchange may take, body included.
    /// - Returns: The response head and its complete body.
    /// - Throws: `HTTPTransportError`, classified by
    ///   ``SeamsCore/HTTPTransportError/init(asyncHTTPClient:)``.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        try await exchange(request, body: body.map { .bytes(ByteBuffer(bytes: $0)) }, timeout: timeout)
    }

    /// Sends `request` with the file at `bodyFile` as its body, read a MiB at a time as it is
    /// sent (`Content-Length` is the file's size).
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - bodyFile: A local file.
    ///   - timeout: How long the whole exchange may take, body included.
    /// - Returns: The response head and its complete body.
    /// - Throws: `HTTPTransportError`; a file that cannot be opened is
    ///   `HTTPTransportError.Kind.other` with the file system's error underneath, and nothing is sent.
    public func send(
        _ request: HTTPRequest,
        bodyFile: URL,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let pieces: FilePieces
        do {
            pieces = try FilePieces(bodyFile)
        } catch {
            throw HTTPTransportError(.other, underlying: error)
        }
        return try await exchange(request, body: .stream(pieces, length: .known(pieces.size)), timeout: timeout)
    }

    /// One exchange through the client, whatever the body.
    private func exchange(
        _ request: HTTPRequest,
        body: HTTPClientRequest.Body?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        guard let authority = request.authority, let scheme = request.scheme else {
            throw HTTPTransportError(.other, underlying: HTTPClientError.invalidURL)
        }
        var outgoing = HTTPClientRequest(url: "\(scheme)://\(authority)\(request.path ?? "/")")
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body { outgoing.body = body }
        let client = client
        let limit = maximumResponseBodySize
        let prepared = outgoing
        return try await HTTPTimeout.run(timeout) { () async throws(HTTPTransportError) in
            do {
                // AHC's deadline only backs up our own timer.
                let response = try await client.execute(
                    prepared,
                    timeout: .nanoseconds(
                        Int64(timeout.components.seconds + 1) * 1_000_000_000))
                let bytes = try await response.body.collect(upTo: limit)
                return (try Self.httpResponse(response), Data(bytes.readableBytesView))
            } catch {
                throw HTTPTransportError(asyncHTTPClient: error)
            }
        }
    }

    private static func httpResponse(_ response: HTTPClientResponse) throws -> HTTPResponse {
        httpResponse(status: response.status, headers: response.headers)
    }

    /// A response head in HTTPTypes' terms (a field name HTTPTypes cannot hold is left out).
    static func httpResponse(status: HTTPResponseStatus, headers: HTTPHeaders) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return HTTPResponse(
            status: HTTPResponse.Status(code: Int(status.code), reasonPhrase: status.reasonPhrase), headerFields: fields
        )
    }
}

/// A local file as a sequence of buffers of at most a MiB, read when asked for: an upload's body
/// that is never held whole. Each iteration opens the file anew (a retried request sends it again).
struct FilePieces: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let url: URL
    /// The file's size when the request was made: its `Content-Length`.
    let size: Int64

    /// Checks that the file can be read, and takes its size.
    init(_ url: URL) throws {
        if access(url.path, R_OK) != 0 {
            throw CocoaError.fileSystemError(errno: errno, path: url.path, writing: false)
        }
        let handle = try FileHandle.forReadingCloseOnExec(url)
        defer { try? handle.close() }
        self.url = url
        size = Int64(try handle.seekToEnd())
    }

    func makeAsyncIterator() -> Iterator { Iterator(url: url, size: size) }

    /// Ends at the size taken when the request was made: the call after the last piece returns at
    /// once, with no read past it (see `FileBodyReader` for what such a read let happen).
    struct Iterator: AsyncIteratorProtocol {
        let url: URL
        var remaining: Int64
        var handle: FileHandle?
        var finished = false

        init(url: URL, size: Int64) {
            self.url = url
            remaining = size
        }

        mutating func next() async throws -> ByteBuffer? {
            if finished { return nil }
            if handle == nil { handle = try FileHandle.forReadingCloseOnExec(url) }
            guard remaining > 0, let piece = try handle?.read(upToCount: Int(Swift.min(remaining, 1 << 20))),
                !piece.isEmpty
            else {
                try? handle?.close()
                handle = nil
                finished = true
                return nil
            }
            remaining -= Int64(piece.count)
            return ByteBuffer(bytes: piece)
        }
    }
}
