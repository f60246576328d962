public import HTTPTypes

/// How ``ReplayHTTPTransport`` decides that a request is a recorded one: always by method, path
/// and query (query items in any order), and by the header fields named here and the body unless
/// told otherwise. Scheme and host are not compared, so a recording made against a test server
/// on a random port replays for any host.
///
/// ```swift
/// let matching = HTTPReplayMatching(headers: [.accept, HTTPField.Name("x-tenant")!])
/// let replay = try ReplayHTTPTransport(contentsOf: fixtureURL, matching: matching)
/// ```
///
/// Bodies that are both JSON compare by structure (key order, spacing and `1` vs `1.0` don't
/// matter); other bodies compare byte for byte.
public struct HTTPReplayMatching: Hashable, Sendable {
    /// Method, path, query and body.
    public static let standard = HTTPReplayMatching()

    /// Header field names whose values must be equal, lowercased.
    public let headers: Set<String>
    /// Whether the body must be equal.
    public let comparesBody: Bool

    /// Creates matching rules.
    ///
    /// - Parameters:
    ///   - headers: Header fields whose values must be equal (after redaction, so a redacted
    ///     `Authorization` matches any value but not its absence).
    ///   - comparesBody: Whether the body must be equal; `true` unless given.
    public init(headers: [HTTPField.Name] = [], comparesBody: Bool = true) {
        self.headers = Set(headers.map { $0.canonicalName })
        self.comparesBody = comparesBody
    }
}
