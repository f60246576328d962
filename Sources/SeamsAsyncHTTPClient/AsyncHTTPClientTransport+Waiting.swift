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
    /// `HTTPTransportError.Kind.other` with the file system's error underneath, and nothing is sent.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - body: What the request sends.
    ///   - timeout: How long the whole exchange may take, body included (the client's deadline).
    /// - Returns: The response head and its complete body, copied once from swift-nio's buffers
    ///   as it comes (a body over ``maximumResponseBodySize`` fails the request).
    /// - Throws: `HTTPTransportError`, classified by
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
        // The request, its body and the response all on one event loop: the end of a file body
        // is then taken in the turn of its last write, before an answer can be read (see
        // `FileBodyReader`).
        let loop = client.eventLoopGroup.any()
        let outgoingBody: HTTPClient.Body?
        switch body {
        case .none: outgoingBody = nil
        case .data(let bytes):
            outgoingBody = .stream(contentLength: Int64(bytes.count)) { writer in
                DataBodyWriter.send(bytes, from: bytes.startIndex, to: writer, on: loop)
            }
        case .file(let url):
            let reader: FileBodyReader
            do {
                reader = try FileBodyReader(url)
            } catch {
                throw HTTPTransportError(.other, underlying: error)
            }
            outgoingBody = .stream(contentLength: reader.size) { writer in reader.send(to: writer, on: loop) }
        }
        do {
            let outgoing = try HTTPClient.Request(
                url: "\(scheme)://\(authority)\(request.path ?? "/")",
                method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: outgoingBody)
            let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout.dispatchNanoseconds))
            let collector = DataCollector(limit: maximumResponseBodySize, bodiless: request.method == .head)
            let (head, data) = try client.execute(
                request: outgoing, delegate: collector, eventLoop: .delegateAndChannel(on: loop), deadline: deadline
            ).wait()
            return (Self.httpResponse(status: head.status, headers: head.headers), data)
        } catch {
            throw HTTPTransportError(asyncHTTPClient: error)
        }
    }
}

/// A response's body collected straight into one `Data` as its pieces come: copied once, where
/// AsyncHTTPClient's `ResponseAccumulator` grows a `ByteBuffer` and the caller copied that into a
/// `Data` again (a poll's `PROPFIND` answer of 32 MB spent a tenth of its time so). Room for the
/// whole body is taken at once when the answer gives its `Content-Length`.
///
/// Its calls come from the request's event loop, one at a time; the lock makes that a guarantee.
private final class DataCollector: HTTPClientResponseDelegate {
    typealias Response = (HTTPResponseHead, Data)

    private struct Collected {
        var head: HTTPResponseHead?
        var body = Data()
    }

    /// The longest body accepted.
    private let limit: Int
    /// Whether the answer has no body whatever its `Content-Length` says (a `HEAD`).
    private let bodiless: Bool
    private let collected = LockedValue(Collected())

    init(limit: Int, bodiless: Bool) {
        self.limit = limit
        self.bodiless = bodiless
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let length = bodiless ? 0 : max(0, head.headers.first(name: "Content-Length").flatMap(Int.init) ?? 0)
        guard length <= limit else {
            return task.eventLoop.makeFailedFuture(ResponseAccumulator.ResponseTooBigError(maxBodySize: limit))
        }
        collected.withLock { collected in
            collected.head = head
            collected.body = Data()
            collected.body.reserveCapacity(length)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = collected.withLock { collected in
            guard collected.body.count + part.readableBytes <= limit else { return false }
            part.withUnsafeReadableBytes { collected.body.append($0.assumingMemoryBound(to: UInt8.self)) }
            return true
        }
        guard fits else {
            return task.eventLoop.makeFailedFuture(ResponseAccumulator.ResponseTooBigError(maxBodySize: limit))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try collected.withLock { collected in
            guard let head = collected.head else { throw HTTPClientError.remoteConnectionClosed }
            let body = collected.body
            collected.body = Data()
            return (head, body)
        }
    }
}

/// Bytes in memory sent as a request body a piece of 256 KiB at a time, each piece copied into a
/// buffer only once the one before it is written: a body is held about once, where
/// AsyncHTTPClient's own `.bytes` copies it 4 MiB at a time. With three S3 parts in flight, that
/// is 768 KiB of copies at most, not 12 MiB.
private enum DataBodyWriter {
    static let pieceSize = 256 << 10

    /// Writes `bytes` from `start` on; the future ends with the last write. Each piece after the
    /// first is written from a new event loop task, so a long body never deepens the stack.
    static func send(
        _ bytes: Data, from start: Data.Index, to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop
    ) -> EventLoopFuture<Void> {
        guard start < bytes.endIndex else { return loop.makeSucceededVoidFuture() }
        let end = min(bytes.endIndex, start + pieceSize)
        return writer.write(.byteBuffer(ByteBuffer(bytes: bytes[start..<end]))).flatMap {
            loop.flatSubmit { send(bytes, from: end, to: writer, on: loop) }
        }
    }
}

/// A local file sent as a request body from an event loop: each MiB is read on swift-nio's
/// thread pool (never on the loop), written, and the next read starts when the write is done.
/// Each sending opens the file anew (a redirected request sends it again).
///
/// The body ends at its `Content-Length`, with no read past it: the stream's end is taken in the
/// event loop turn of its last write, before the server's answer can be read. A server answers
/// once the last byte is in (rclone sends `201 Created` with a body); when that answer came first,
/// AsyncHTTPClient (1.37) finished the request and then dropped the stream's end, and the
/// connection was never handed back to the pool; once the pool's connections were all taken so,
/// every request waited until its deadline.
private final class FileBodyReader: Sendable {
    /// The file, checked readable, and its size when the request was made (its `Content-Length`).
    private let file: FilePieces

    var size: Int64 { file.size }

    /// Checks that the file can be read, and takes its size.
    init(_ url: URL) throws {
        file = try FilePieces(url)
    }

    /// Writes the file's first ``size`` bytes through `writer`; the future ends with the last write.
    func send(to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop) -> EventLoopFuture<Void> {
        let handle: FileHandle
        do {
            handle = try FileHandle.forReadingCloseOnExec(file.url)
        } catch {
            return loop.makeFailedFuture(error)
        }
        let open = OpenFile(handle)
        return Self.sendRest(of: open, remaining: file.size, to: writer, on: loop).always { _ in open.close() }
    }

    private static func sendRest(
        of file: OpenFile, remaining: Int64, to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop
    ) -> EventLoopFuture<Void> {
        guard remaining > 0 else { return loop.makeSucceededVoidFuture() }
        return NIOThreadPool.singleton.runIfActive(eventLoop: loop) {
            try file.nextPiece(upTo: Int(min(remaining, 1 << 20)))
        }
        .flatMap { piece in
            // A file shorter than when the request was made: AsyncHTTPClient reports the
            // bytes that did not come.
            guard let piece else { return loop.makeSucceededVoidFuture() }
            let count = Int64(piece.readableBytes)
            return writer.write(.byteBuffer(piece)).flatMap {
                sendRest(of: file, remaining: remaining - count, to: writer, on: loop)
            }
        }
    }

    /// A file open for one sending, read by one pool thread at a time.
    private final class OpenFile: Sendable {
        private let handle: LockedValue<FileHandle?>

        init(_ handle: FileHandle) {
            self.handle = LockedValue(handle)
        }

        /// The next `count` bytes at most, or `nil` at the end.
        func nextPiece(upTo count: Int) throws -> ByteBuffer? {
            try handle.withLock { handle in
                guard let piece = try handle?.read(upToCount: count), !piece.isEmpty else { return nil }
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
