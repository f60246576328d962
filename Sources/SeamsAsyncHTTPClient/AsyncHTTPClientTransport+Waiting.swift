import AsyncHTTPClient
public import Foundation
public import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
public import SeamsCore

extension AsyncHTTPClientTransport: WaitingHTTPTransportProviding {
    /// Sends `request` and blocks the calling thread until the response and its body have
    /// arrived or `timeout` has passed: the exchange runs on the client's event loop, which
    /// wakes the waiting thread when it ends, with no Swift task in between.
    ///
    /// A file body is read a MiB at a time on swift-nio's thread pool as it is sent
    /// (`Content-Length` is the file's size); a file that cannot be read is
    /// ``HTTPTransportError/Kind/other`` with the file system's error underneath, and nothing is sent.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: What the request sends.
    ///   - timeout: How long the whole exchange may take, body included (the client's deadline).
    /// - Returns: The response head and its complete body.
    /// - Throws: ``HTTPTransportError``, classified by
    ///   ``SeamsCore/HTTPTransportError/init(asyncHTTPClient:)``.
    @available(*, noasync, message: "it blocks its thread; use send(_:body:timeout:)")
    public func sendWaiting(
        _ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        guard let authority = request.authority, let scheme = request.scheme else {
            throw HTTPTransportError(.other, underlying: HTTPClientError.invalidURL)
        }
        var headers = HTTPHeaders()
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        let outgoingBody: HTTPClient.Body?
        switch body {
        case .none: outgoingBody = nil
        case .data(let bytes): outgoingBody = .bytes(bytes)
        case .file(let url):
            let reader: FileBodyReader
            do {
                reader = try FileBodyReader(url)
            } catch {
                throw HTTPTransportError(.other, underlying: error)
            }
            let loop = client.eventLoopGroup.any()
            outgoingBody = .stream(contentLength: reader.size) { writer in reader.send(to: writer, on: loop) }
        }
        do {
            let outgoing = try HTTPClient.Request(
                url: "\(scheme)://\(authority)\(request.path ?? "/")",
                method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: outgoingBody)
            let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout.dispatchNanoseconds))
            let accumulator = ResponseAccumulator(request: outgoing, maxBodySize: maximumResponseBodySize)
            let response = try client.execute(request: outgoing, delegate: accumulator, deadline: deadline).wait()
            return (Self.httpResponse(status: response.status, headers: response.headers), response.body.map { Data($0.readableBytesView) } ?? Data())
        } catch {
            throw HTTPTransportError(asyncHTTPClient: error)
        }
    }
}

/// A local file sent as a request body from an event loop: each MiB is read on swift-nio's
/// thread pool (never on the loop), written, and the next read starts when the write is done.
/// Each sending opens the file anew (a redirected request sends it again).
private final class FileBodyReader: Sendable {
    /// The file, checked readable, and its size when the request was made (its `Content-Length`).
    private let file: FilePieces

    var size: Int64 { file.size }

    /// Checks that the file can be read, and takes its size.
    init(_ url: URL) throws {
        file = try FilePieces(url)
    }

    /// Writes the whole file through `writer`; the future ends with the last write.
    func send(to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop) -> EventLoopFuture<Void> {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: file.url)
        } catch {
            return loop.makeFailedFuture(error)
        }
        let open = OpenFile(handle)
        return Self.sendRest(of: open, to: writer, on: loop).always { _ in open.close() }
    }

    private static func sendRest(
        of file: OpenFile, to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop
    ) -> EventLoopFuture<Void> {
        NIOThreadPool.singleton.runIfActive(eventLoop: loop) { try file.nextPiece() }.flatMap { piece in
            guard let piece else { return loop.makeSucceededVoidFuture() }
            return writer.write(.byteBuffer(piece)).flatMap { sendRest(of: file, to: writer, on: loop) }
        }
    }

    /// A file open for one sending, read by one pool thread at a time.
    private final class OpenFile: Sendable {
        private let handle: LockedValue<FileHandle?>

        init(_ handle: FileHandle) {
            self.handle = LockedValue(handle)
        }

        /// The next MiB, or `nil` at the end.
        func nextPiece() throws -> ByteBuffer? {
            try handle.withLock { handle in
                guard let piece = try handle?.read(upToCount: 1 << 20), !piece.isEmpty else { return nil }
                return ByteBuffer(bytes: piece)
            }
        }

        func close() {
            handle.withLock { handle in
                try? handle?.close()
                handle = nil
            }
        }
    }
}
