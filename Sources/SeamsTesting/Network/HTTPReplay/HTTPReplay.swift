public import Foundation
public import Seams
public import Testing

/// Record-and-replay for tests: each test gets its own fixture and transport, bound to the test's
/// task, so parallel tests never share state.
///
/// With the trait (the fixture is `HTTPFixtures/<name>.har` beside the test file unless a
/// `directory` is given):
///
/// ```swift
/// @Test(.httpReplay("notes-list")) func listsNotes() async throws {
///     let client = NotesClient(transport: HTTPReplay.transport)
///     #expect(try await client.notes().count == 3)
/// }
/// ```
///
/// Or by hand, for example one fixture per argument of a parameterized test:
///
/// ```swift
/// @Test(arguments: ["oslo", "lima"]) func forecast(city: String) async throws {
///     try await HTTPReplay.withSession(fixture: fixtures.appending(path: "forecast-\(city).har")) { session in
///         let client = ForecastClient(transport: session.transport)
///         _ = try await client.forecast(for: city)
///     }
/// }
/// ```
public enum HTTPReplay {
    /// The session of the running test, set by `.httpReplay(_:)` and ``withSession(fixture:mode:live:matching:redaction:sourceLocation:_:)``.
    @TaskLocal public static var current: HTTPReplaySession?

    /// The running test's replay transport; outside a session, an ``UnimplementedHTTPTransport``
    /// that fails the test when used.
    ///
    /// - Parameter sourceLocation: Where a use outside a session is reported.
    /// - Returns: The transport.
    public static func transport(sourceLocation: SourceLocation = #_sourceLocation) -> any HTTPTransportProviding {
        current?.transport ?? UnimplementedHTTPTransport(sourceLocation: sourceLocation)
    }

    /// The running test's replay transport (see ``transport(sourceLocation:)``).
    public static var transport: any HTTPTransportProviding {
        transport()
    }

    /// Runs `body` with a session on `fixture`, bound to ``current`` for `body` and the tasks it
    /// starts; when `body` ends (returning or throwing), a session that recorded writes its fixture.
    ///
    /// - Parameters:
    ///   - fixture: The HAR file.
    ///   - mode: The mode; `nil` (the default) for what `SEAMS_HTTP_REPLAY` says, else ``HTTPReplayMode/replay``.
    ///   - live: The transport that records; `URLSessionHTTPTransport.shared` unless given.
    ///   - matching: How requests are matched to entries.
    ///   - redaction: What is replaced before writing, and in requests before matching.
    ///   - sourceLocation: Where unmatched requests and write failures are reported.
    ///   - body: The test's code.
    /// - Returns: What `body` returns.
    /// - Throws: ``HTTPReplayError`` when the fixture is missing in replay mode, damaged, or cannot
    ///   be written, or `SEAMS_HTTP_REPLAY` names no mode; else what `body` throws.
    public static func withSession<Result: Sendable>(
        fixture: URL,
        mode: HTTPReplayMode? = nil,
        live: any HTTPTransportProviding = URLSessionHTTPTransport.shared,
        matching: HTTPReplayMatching = .standard,
        redaction: HTTPRedaction = .standard,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (HTTPReplaySession) async throws -> Result
    ) async throws -> Result {
        let session = try HTTPReplaySession(
            fixture: fixture, mode: try HTTPReplayMode.resolved(mode), live: live, matching: matching,
            redaction: redaction, sourceLocation: sourceLocation)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await $current.withValue(session) { try await body(session) })
        } catch {
            outcome = .failure(error)
        }
        try session.finish()
        return try outcome.get()
    }
}
