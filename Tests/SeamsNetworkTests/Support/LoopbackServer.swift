import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

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

    /// A port on 127.0.0.1 where nothing listens: bound, read, and closed again.
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = channel.localAddress?.port ?? 9
        try await channel.close()
        return port
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
