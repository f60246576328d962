public import Foundation
public import HTTPTypes

/// A transport that uploads a local file without holding it in memory: the file is read as it
/// is sent.
///
/// `WebDAVAccessor` (in `SeamsWebDAV`) uses it, when its transport has it, for uploads from a
/// local folder to a server, so a file of gigabytes costs a buffer, not its size. A transport without it (a test
/// double) is sent the file's bytes in memory instead. (Downloads need nothing of the transport:
/// the accessor asks for a large file in ranges.)
///
/// ```swift
/// let transport = URLSessionHTTPTransport.shared
/// let put = HTTPRequest(method: .put, scheme: "https", authority: "dav.example.com", path: "/dav/video.mov")
/// let (response, _) = try await transport.send(put, bodyFile: URL(filePath: "/Users/me/video.mov"), timeout: .seconds(600))
/// ```
///
/// The contract is ``HTTPTransportProviding``'s, plus: the body is the file as it is read while
/// it is sent, with its length in `Content-Length`; a file that cannot be read is
/// ``HTTPTransportError/Kind/other`` with the file system's error underneath, and nothing is sent.
public protocol HTTPFileTransferProviding: HTTPTransportProviding {
    /// Sends `request` with the contents of the local file at `bodyFile` as its body.
    ///
    /// - Parameters:
    ///   - request: The request; its path carries the query.
    ///   - bodyFile: A local file, read as the body is sent.
    ///   - timeout: How long the whole exchange may take.
    /// - Returns: The response head and its complete body.
    /// - Throws: ``HTTPTransportError`` when no complete response arrived.
    func send(
        _ request: HTTPRequest,
        bodyFile: URL,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data)
}
