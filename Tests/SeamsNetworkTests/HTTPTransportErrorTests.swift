import AsyncHTTPClient
import Foundation
import NIOCore
import Seams
import SeamsAsyncHTTPClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTPTransportError")
struct HTTPTransportErrorTests {
    @Test("compares by kind and keeps the underlying error")
    func equality() {
        let error = HTTPTransportError(.timedOut, underlying: URLError(.timedOut))
        #expect(error == .timedOut)
        #expect(error != .connectionLost)
        #expect(error.underlying == UnderlyingError(URLError(.timedOut)))
        #expect(Set([error, .timedOut, .cancelled]).count == 2)
        #expect(error.description.hasPrefix("HTTP transport error: timedOut (underlying: "))
    }

    @Test("transient kinds are the ones a retry may fix", arguments: HTTPTransportError.Kind.allCases)
    func transient(kind: HTTPTransportError.Kind) {
        #expect(HTTPTransportError(kind).isTransient == [.timedOut, .connectionLost, .cannotConnect].contains(kind))
    }

    @Test(
        "classifies URL loading errors",
        arguments: [
            (URLError.Code.timedOut, HTTPTransportError.Kind.timedOut),
            (.networkConnectionLost, .connectionLost),
            (.cannotConnectToHost, .cannotConnect),
            (.notConnectedToInternet, .cannotConnect),
            (.cannotFindHost, .hostNotFound),
            (.dnsLookupFailed, .hostNotFound),
            (.cancelled, .cancelled),
            (.secureConnectionFailed, .tls),
            (.serverCertificateUntrusted, .tls),
            (.badURL, .other),
        ])
    func urlLoading(code: URLError.Code, kind: HTTPTransportError.Kind) {
        let error = HTTPTransportError(urlLoading: URLError(code))
        #expect(error.kind == kind)
        #expect(error.underlying == UnderlyingError(URLError(code)))
    }

    @Test(
        "classifies AsyncHTTPClient errors",
        arguments: [
            (HTTPClientError.deadlineExceeded, HTTPTransportError.Kind.timedOut),
            (.readTimeout, .timedOut),
            (.remoteConnectionClosed, .connectionLost),
            (.connectTimeout, .cannotConnect),
            (.cancelled, .cancelled),
            (.tlsHandshakeTimeout, .tls),
            (.invalidURL, .other),
        ])
    func asyncHTTPClient(error: HTTPClientError, kind: HTTPTransportError.Kind) {
        #expect(HTTPTransportError(asyncHTTPClient: error).kind == kind)
    }

    @Test("classifies swift-nio errors")
    func nio() {
        #expect(
            HTTPTransportError(asyncHTTPClient: IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .cannotConnect)
        #expect(HTTPTransportError(asyncHTTPClient: IOError(errnoCode: ECONNRESET, reason: "read")) == .connectionLost)
        #expect(HTTPTransportError(asyncHTTPClient: ChannelError.eof) == .connectionLost)
        #expect(HTTPTransportError(asyncHTTPClient: CancellationError()) == .cancelled)
        #expect(HTTPTransportError(asyncHTTPClient: CocoaError(.fileReadUnknown)) == .other)
    }

    @Test("an HTTPTransportError passes through the classifiers unchanged")
    func passThrough() {
        let original = HTTPTransportError(.tls, underlying: URLError(.secureConnectionFailed))
        #expect(HTTPTransportError(urlLoading: original).underlying == original.underlying)
        #expect(HTTPTransportError(asyncHTTPClient: original) == .tls)
    }
}
