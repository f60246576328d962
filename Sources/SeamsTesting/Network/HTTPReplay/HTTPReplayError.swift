/// Why a recording or a replay could not go on: a missing or damaged fixture, a fixture that
/// could not be written, a request no recorded entry matches, or a bad mode name.
///
/// Two errors are equal when their ``kind`` and ``path`` are equal, so a test writes
/// `#expect(throws: HTTPReplayError(.fixtureMissing, path: url.path))`; ``detail`` says more
/// for people and is not part of equality.
///
/// ```swift
/// do {
///     _ = try ReplayHTTPTransport(contentsOf: fixtureURL)
/// } catch where error.kind == .fixtureMissing {
///     // record it: SEAMS_HTTP_REPLAY=record-missing swift test
/// }
/// ```
public struct HTTPReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Replay was asked for, and there is no fixture file.
        case fixtureMissing
        /// The fixture is not a HAR file this package can replay: not JSON, no `log.entries`,
        /// an entry without a method, URL or status, a body that is not valid base64.
        case corruptFixture
        /// The fixture could not be written.
        case cannotWrite
        /// A request matched no recorded entry that had not already answered.
        case unmatchedRequest
        /// `SEAMS_HTTP_REPLAY` holds something other than `replay`, `record-missing` or `rerecord`.
        case invalidMode
    }

    /// What went wrong.
    public let kind: Kind
    /// The fixture's path, or `nil` where no file is involved.
    public let path: String?
    /// What exactly, for people: the parse error, the request and the nearest entries, and so on.
    public let detail: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - path: The fixture's path, if a file is involved.
    ///   - detail: What exactly; not part of equality.
    public init(_ kind: Kind, path: String? = nil, detail: String = "") {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    /// Equal when kind and path are equal.
    public static func == (lhs: HTTPReplayError, rhs: HTTPReplayError) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path
    }

    /// Hashes kind and path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(path)
    }

    /// "HTTP replay error: corruptFixture at /path/x.har: …".
    public var description: String {
        var text = "HTTP replay error: \(kind.rawValue)"
        if let path { text += " at \(path)" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
