import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
public import SeamsCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTPTransportError {
    /// Classifies an error thrown by AsyncHTTPClient or swift-nio, keeping it as `underlying`.
    ///
    /// ```swift
    /// HTTPTransportError(asyncHTTPClient: HTTPClientError.remoteConnectionClosed).kind  // .connectionLost
    /// ```
    ///
    /// An ``HTTPTransportError`` is returned as it is, a `CancellationError` is
    /// `Kind.cancelled`, and an error this does not know is `Kind.other`.
    ///
    /// - Parameter error: What AsyncHTTPClient threw.
    public init(asyncHTTPClient error: any Error) {
        if let error = error as? HTTPTransportError {
            self = error
            return
        }
        self.init(Self.kind(of: error), underlying: error)
    }

    private static func kind(of error: any Error) -> Kind {
        switch error {
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            return kind(of: error)
        case let error as NIOConnectionError:
            return error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil)
                ? .hostNotFound : .cannotConnect
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: return .cannotConnect
            case ECONNRESET, EPIPE, ECONNABORTED: return .connectionLost
            case ETIMEDOUT: return .timedOut
            default: return .other
            }
        case is HTTPParserError:
            return .connectionLost
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .cannotConnect
            case .eof, .ioOnClosedChannel, .alreadyClosed, .inputClosed, .outputClosed: return .connectionLost
            default: return .other
            }
        default:
            return String(reflecting: type(of: error)).contains("NIOSSL") ? .tls : .other
        }
    }

    private static func kind(of error: HTTPClientError) -> Kind {
        switch error {
        case .readTimeout, .writeTimeout, .deadlineExceeded:
            .timedOut
        case .remoteConnectionClosed, .bodyLengthMismatch, .uncleanShutdown:
            .connectionLost
        case .connectTimeout, .getConnectionFromPoolTimeout, .socksHandshakeTimeout,
            .httpProxyHandshakeTimeout:
            .cannotConnect
        case .cancelled, .requestStreamCancelled:
            .cancelled
        case .tlsHandshakeTimeout:
            .tls
        default:
            .other
        }
    }
}
