import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `close(2)`, outside ``LoopbackServer``, whose `close()` would hide it.
private func closeSocket(_ descriptor: Int32) { close(descriptor) }

/// A small HTTP/1.1 server on swift-nio, bound to 127.0.0.1 on a free port, that serves the
/// routes of ``LoopbackRoute``. Each test starts its own and closes it.
final class LoopbackServer: Sendable {
    /// `127.0.0.1:<port>`.
    let authority: String
    /// The target of each request, as its head arrives.
    let arrivals: AsyncStream<String>
    private let channel: any Channel

    private init(channel: any Channel, port: Int, arrivals: AsyncStream<String>) {
        self.channel = channel
        self.arrivals = arrivals
        authority = "127.0.0.1:\(port)"
    }

    /// Starts a server on a free loopback port.
    static func start() async throws -> LoopbackServer {
        let (arrivals, continuation) = AsyncStream.makeStream(of: String.self)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(LoopbackHandler(arrivals: continuation))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw CocoaError(.featureUnsupported) }
        return LoopbackServer(channel: channel, port: port, arrivals: arrivals)
    }

    /// Runs `body` with a port on 127.0.0.1 where nothing listens, held until `body` returns: a
    /// socket bound to it and never listening, so a connection to it is refused, and no server
    /// the other tests start meanwhile can be given the port (a port closed again could be, and
    /// was: a test's own server took it and answered 200).
    static func withRefusingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { closeSocket(descriptor) }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Stops listening.
    func close() async throws {
        try await channel.close()
    }
}

/// Serves one connection: gathers each request, then answers by ``LoopbackRoute``.
private final class LoopbackHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let arrivals: AsyncStream<String>.Continuation
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(arrivals: AsyncStream<String>.Continuation) {
        self.arrivals = arrivals
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
            arrivals.yield(head.uri)
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            answer(head, context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let route = LoopbackRoute.route(
            method: head.method.rawValue,
            uri: head.uri,
            headers: head.headers.map { LoopbackRoute.Header(name: $0.name, value: $0.value) },
            body: Data(body.readableBytesView)
        )
        switch route {
        case .respond(let status, let fields, let data):
            var headers = HTTPHeaders(fields.map { ($0.name, $0.value) })
            headers.add(name: "content-length", value: String(data.count))
            let responseHead = HTTPResponseHead(
                version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(Self.wrapOutboundOut(.head(responseHead)), promise: nil)
            if head.method != .HEAD && !data.isEmpty {
                context.write(Self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: data)))), promise: nil)
            }
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
        case .truncate(let declared, let sent):
            var headers = HTTPHeaders()
            headers.add(name: "content-length", value: String(declared))
            let responseHead = HTTPResponseHead(version: head.version, status: .ok, headers: headers)
            context.write(Self.wrapOutboundOut(.head(responseHead)), promise: nil)
            context.writeAndFlush(Self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: sent)))))
                .assumeIsolated()
                .whenComplete { _ in context.close(promise: nil) }
        case .stall:
            break
        }
    }
}
