import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransportError {
    /// Classifies an error thrown by URL loading (`URLSession`), keeping it as `underlying`.
    ///
    /// ```swift
    /// HTTPTransportError(urlLoading: URLError(.timedOut)) == .timedOut          // true
    /// HTTPTransportError(urlLoading: URLError(.networkConnectionLost)).kind    // .connectionLost
    /// ```
    ///
    /// An ``HTTPTransportError`` is returned as it is, a `CancellationError` is
    /// `Kind.cancelled`, and an error this does not know is `Kind.other`.
    ///
    /// - Parameter error: What URL loading threw.
    public init(urlLoading error: any Error) {
        if let error = error as? HTTPTransportError {
            self = error
            return
        }
        if error is CancellationError {
            self.init(.cancelled, underlying: error)
            return
        }
        guard let urlError = error as? URLError else {
            self.init(.other, underlying: error)
            return
        }
        self.init(Self.kind(of: urlError.code), underlying: urlError)
    }

    private static func kind(of code: URLError.Code) -> Kind {
        switch code {
        case .timedOut:
            .timedOut
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            .connectionLost
        case .cannotConnectToHost, .notConnectedToInternet, .internationalRoamingOff, .callIsActive,
            .dataNotAllowed, .cannotLoadFromNetwork:
            .cannotConnect
        case .cannotFindHost, .dnsLookupFailed:
            .hostNotFound
        case .cancelled, .userCancelledAuthentication:
            .cancelled
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
            .clientCertificateRejected, .clientCertificateRequired:
            .tls
        default:
            .other
        }
    }
}
