public import Foundation
public import Seams
public import Testing

/// The `.httpReplay(_:)` trait: gives a test its own fixture and replay transport, available as
/// ``HTTPReplay/transport`` inside the test.
///
/// ```swift
/// @Test(.httpReplay("notes-create", redaction: HTTPRedaction(jsonFields: ["token"])))
/// func createsNote() async throws {
///     let client = NotesClient(transport: HTTPReplay.transport)
///     #expect(try await client.create(title: "Milk").id == 7)
/// }
/// ```
///
/// It applies to one test function; on a parameterized test its cases would share one fixture,
/// so it records an issue there: use ``HTTPReplay/withSession(fixture:mode:live:matching:redaction:sourceLocation:_:)``
/// with a fixture per argument instead.
public struct HTTPReplayTrait: TestTrait, TestScoping {
    /// The fixture's name, without `.har`.
    public let name: String
    /// The mode, or `nil` for what `SEAMS_HTTP_REPLAY` says.
    public let mode: HTTPReplayMode?
    /// The fixtures folder, or `nil` for `HTTPFixtures` beside the test's source file.
    public let directory: URL?
    /// Where the fixture is read from when the fixtures folder is not there (a CI service that
    /// runs the built tests without the sources): the test target's bundle, `Bundle.module`,
    /// which holds the folder as a resource. `nil`: the folder only.
    public let bundle: Bundle?
    /// The transport that records.
    public let live: any HTTPTransportProviding
    /// How requests are matched to entries.
    public let matching: HTTPReplayMatching
    /// What is replaced before writing.
    public let redaction: HTTPRedaction
    /// Where the trait was applied.
    public let sourceLocation: SourceLocation

    /// The fixture file for `test`: `<directory>/<name>.har` where the folder is there (a fixture
    /// missing from it fails the replay, as it should) or where the mode records (recordings are
    /// written to the sources); else, in replay, the bundle's copy when it has one
    /// (`HTTPFixtures/<name>.har` in the bundle, or `<name>.har` at its top).
    ///
    /// - Parameter test: The test the trait is applied to.
    /// - Returns: The fixture's URL.
    public func fixture(for test: Test) -> URL {
        let folder =
            directory
            ?? URL(filePath: test.sourceLocation.filePath).deletingLastPathComponent().appending(path: "HTTPFixtures")
        let inSources = folder.appending(path: name + ".har")
        guard let bundle, !FileManager.default.fileExists(atPath: folder.path),
            (try? HTTPReplayMode.resolved(mode)) == .replay
        else { return inSources }
        return bundle.url(forResource: name, withExtension: "har", subdirectory: "HTTPFixtures")
            ?? bundle.url(forResource: name, withExtension: "har")
            ?? inSources
    }

    /// Runs the test inside a session on its fixture.
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: The test case.
    ///   - function: The test's body.
    /// - Throws: What ``HTTPReplay/withSession(fixture:mode:live:matching:redaction:sourceLocation:_:)`` throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isParameterized {
            Issue.record(
                Comment(
                    rawValue:
                        ".httpReplay(\"\(name)\") on a parameterized test: its cases would share one fixture; use HTTPReplay.withSession with a fixture per argument"
                ),
                sourceLocation: sourceLocation)
            return
        }
        try await HTTPReplay.withSession(
            fixture: fixture(for: test), mode: mode, live: live, matching: matching, redaction: redaction,
            sourceLocation: sourceLocation
        ) { _ in try await function() }
    }
}

extension Trait where Self == HTTPReplayTrait {
    /// Gives the test the fixture `name` and a replay transport, ``HTTPReplay/transport``.
    ///
    /// - Parameters:
    ///   - name: The fixture's name: `HTTPFixtures/<name>.har` beside the test file.
    ///   - mode: The mode; `nil` (the default) for what `SEAMS_HTTP_REPLAY` says, else replay.
    ///   - directory: Another fixtures folder.
    ///   - bundle: Where the fixture is read from in replay when the fixtures folder is not
    ///     there: pass `.module` and list the folder in the test target's resources
    ///     (`resources: [.copy("HTTPFixtures")]`), so the tests replay where the sources are not.
    ///   - live: The transport that records; `URLSessionHTTPTransport.shared` unless given.
    ///   - matching: How requests are matched to entries.
    ///   - redaction: What is replaced before writing.
    ///   - sourceLocation: Where issues are reported; the trait's line by default.
    /// - Returns: The trait.
    public static func httpReplay(
        _ name: String,
        mode: HTTPReplayMode? = nil,
        directory: URL? = nil,
        bundle: Bundle? = nil,
        live: any HTTPTransportProviding = URLSessionHTTPTransport.shared,
        matching: HTTPReplayMatching = .standard,
        redaction: HTTPRedaction = .standard,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        HTTPReplayTrait(
            name: name, mode: mode, directory: directory, bundle: bundle, live: live, matching: matching,
            redaction: redaction, sourceLocation: sourceLocation)
    }
}
