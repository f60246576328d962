import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

@Suite("HTTPReplay sessions, modes and the .httpReplay trait", .timeLimit(Patience.suite))
struct HTTPReplaySessionTests {
    typealias Fixtures = ReplayFixtures

    static func echo(_ authority: String, _ target: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: authority, path: target)
    }

    /// How long a live exchange with the loopback server may take: the transports' default of
    /// 60 s ran out once under the thread sanitizer with both cores busy with other suites.
    static let loopbackTimeout: Duration = .seconds(600)

    @Test(
        "the mode comes from SEAMS_HTTP_REPLAY, replay when unset",
        arguments: [
            ([:], HTTPReplayMode.replay),
            (["SEAMS_HTTP_REPLAY": ""], .replay),
            (["SEAMS_HTTP_REPLAY": "replay"], .replay),
            (["SEAMS_HTTP_REPLAY": "record-missing"], .recordMissing),
            (["SEAMS_HTTP_REPLAY": "RERECORD"], .rerecord),
        ])
    func modeFromEnvironment(environment: [String: String], mode: HTTPReplayMode) throws {
        #expect(try HTTPReplayMode.fromEnvironment(environment) == mode)
    }

    @Test("a test's own mode wins over SEAMS_HTTP_REPLAY, even an invalid one")
    func explicitModeWins() throws {
        #expect(try HTTPReplayMode.resolved(.replay, environment: ["SEAMS_HTTP_REPLAY": "rerecord"]) == .replay)
        #expect(try HTTPReplayMode.resolved(.rerecord, environment: ["SEAMS_HTTP_REPLAY": "nonsense"]) == .rerecord)
        #expect(
            try HTTPReplayMode.resolved(nil, environment: ["SEAMS_HTTP_REPLAY": "record-missing"]) == .recordMissing)
    }

    @Test("an unknown mode name is invalidMode")
    func invalidMode() {
        let error = #expect(throws: HTTPReplayError(.invalidMode)) {
            try HTTPReplayMode.fromEnvironment(["SEAMS_HTTP_REPLAY": "record"])
        }
        #expect(error?.detail == "SEAMS_HTTP_REPLAY=record; expected one of replay, record-missing, rerecord")
    }

    @Test("replay mode without a fixture is fixtureMissing, and the body never runs")
    func replayMissing() async throws {
        let file = try Fixtures.temporaryFolder().appending(path: "none.har")
        let ran = LockedValue(false)
        await #expect(throws: HTTPReplayError(.fixtureMissing, path: file.path)) {
            try await HTTPReplay.withSession(fixture: file, mode: .replay, live: UnimplementedHTTPTransport()) { _ in
                ran.withLock { $0 = true }
            }
        }
        #expect(ran.withLock { $0 } == false)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a damaged fixture is never overwritten, even in record-missing mode")
    func corruptNotOverwritten() async throws {
        let file = try Fixtures.temporaryFolder().appending(path: "bad.har")
        try Data("{".utf8).write(to: file)
        await #expect(throws: HTTPReplayError(.corruptFixture, path: file.path)) {
            try await HTTPReplay.withSession(fixture: file, mode: .recordMissing, live: UnimplementedHTTPTransport()) {
                _ in
            }
        }
        #expect(try Data(contentsOf: file) == Data("{".utf8))
    }

    @Test("record-missing records a missing fixture, then replays it and adds only what it lacks")
    func recordMissing() async throws {
        let file = try Fixtures.temporaryFolder().appending(path: "echo.har")
        try await ContractHarness.with(.urlSession) { harness in
            try await HTTPReplay.withSession(fixture: file, mode: .recordMissing, live: harness.transport) { session in
                #expect(session.transport is ReplayHTTPTransport)
                _ = try await HTTPReplay.transport.send(
                    Self.echo(harness.authority, "/echo?n=1"), body: nil, timeout: Self.loopbackTimeout)
            }
            #expect(try HTTPArchive(contentsOf: file).log.entries.count == 1)

            try await HTTPReplay.withSession(fixture: file, mode: .recordMissing, live: harness.transport) { _ in
                _ = try await HTTPReplay.transport.send(
                    Self.echo(harness.authority, "/echo?n=1"), body: nil, timeout: Self.loopbackTimeout)  // replayed
                _ = try await HTTPReplay.transport.send(
                    Self.echo(harness.authority, "/echo?n=2"), body: nil, timeout: Self.loopbackTimeout)  // recorded
            }
        }
        let targets = try HTTPArchive(contentsOf: file).log.entries.map { ReplayEntryURL.target($0.request.url) }
        #expect(targets == ["/echo?n=1", "/echo?n=2"])

        // Replay mode needs no server for either.
        try await HTTPReplay.withSession(fixture: file, mode: .replay, live: UnimplementedHTTPTransport()) { session in
            _ = try await HTTPReplay.transport.send(Self.echo("127.0.0.1:1", "/echo?n=2"))
            _ = try await HTTPReplay.transport.send(Self.echo("127.0.0.1:1", "/echo?n=1"))
            session.replay?.verifyAllEntriesUsed()
        }
    }

    @Test("rerecord replaces the fixture, and a session that sent nothing still leaves one")
    func rerecord() async throws {
        let file = try Fixtures.temporaryFolder().appending(path: "fresh.har")
        try HTTPArchive(entries: [Fixtures.entry("GET", "/stale")]).write(to: file)
        try await ContractHarness.with(.asyncHTTPClient) { harness in
            try await HTTPReplay.withSession(fixture: file, mode: .rerecord, live: harness.transport) { session in
                #expect(session.replay == nil)
                _ = try await HTTPReplay.transport.send(
                    Self.echo(harness.authority, "/status/201"), body: nil, timeout: Self.loopbackTimeout)
            }
        }
        let entries = try HTTPArchive(contentsOf: file).log.entries
        #expect(entries.map(\.response.status) == [201])

        let empty = file.deletingLastPathComponent().appending(path: "empty.har")
        try await HTTPReplay.withSession(fixture: empty, mode: .rerecord, live: UnimplementedHTTPTransport()) { _ in }
        #expect(try HTTPArchive(contentsOf: empty).log.entries.isEmpty)
    }

    @Test("parallel sessions never see each other's fixture or transport")
    func parallelSessions() async throws {
        let folder = try Fixtures.temporaryFolder()
        for index in 0..<8 {
            try HTTPArchive(entries: [Fixtures.entry("GET", "/who", body: "session \(index)")])
                .write(to: folder.appending(path: "s\(index).har"))
        }
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await HTTPReplay.withSession(fixture: folder.appending(path: "s\(index).har"), mode: .replay) {
                        _ in
                        await Task.yield()
                        let body = try await HTTPReplay.transport.send(Fixtures.request(.get, "/who")).1
                        return (index, String(decoding: body, as: UTF8.self))
                    }
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(answers == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, "session \($0)") }))
        #expect(HTTPReplay.current == nil)
    }

    @Test("outside a session, HTTPReplay.transport fails the test when used")
    func outsideSession() async throws {
        await withKnownIssue {
            await #expect(throws: HTTPTransportError.other) {
                try await HTTPReplay.transport.send(Fixtures.request(.get, "/x"))
            }
        }
    }

    @Test("the trait on a parameterized test records an issue and runs no session", arguments: [1])
    func traitOnParameterizedTest(argument: Int) async throws {
        let trait: HTTPReplayTrait = .httpReplay("shared", mode: .replay)
        let test = try #require(Test.current)
        let ran = LockedValue(false)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.withLock { $0 = true } }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix(#".httpReplay("shared") on a parameterized test"#) }
        }
        #expect(ran.withLock { $0 } == false)
    }

    /// The fixture `HTTPFixtures/trait-echo.har` was recorded against the loopback server with
    /// `SEAMS_HTTP_REPLAY=record-missing`; in the default mode the server is started but never used.
    @Test("the .httpReplay trait gives the test its fixture and transport", .httpReplay("trait-echo"))
    func trait() async throws {
        let session = try #require(HTTPReplay.current)
        #expect(session.fixture.lastPathComponent == "trait-echo.har")
        let server = try await LoopbackServer.start()
        let (response, body) = try await HTTPReplay.transport.send(
            HTTPRequest(method: .post, scheme: "http", authority: server.authority, path: "/echo?from=trait"),
            body: Data("hello".utf8))
        try await server.close()
        #expect(response.status == .ok)
        #expect(response.headerFields[HTTPField.Name("x-echo-uri")!] == "/echo?from=trait")
        #expect(String(decoding: body, as: UTF8.self) == "hello")
    }

    /// A built test run where the sources are not (as on a CI service that ships the test
    /// binaries): the fixtures folder is absent, and the trait replays the bundle's copy of
    /// `HTTPFixtures/trait-echo.har` (the folder is a resource of this target).
    @Test(
        "without the fixtures folder, the trait replays the fixture from the test bundle; recordings still go to the sources"
    )
    func traitFromBundle() async throws {
        let absent = FileManager.default.temporaryDirectory.appending(
            path: "seams-no-sources-\(UUID().uuidString)", directoryHint: .isDirectory)
        let test = try #require(Test.current)
        let bundled: HTTPReplayTrait = .httpReplay("trait-echo", mode: .replay, directory: absent, bundle: .module)
        let fixture = bundled.fixture(for: test)
        #expect(
            fixture.standardizedFileURL.path.hasPrefix(Bundle.module.bundleURL.standardizedFileURL.path),
            "\(fixture.path)")
        #expect(FileManager.default.fileExists(atPath: fixture.path))
        let server = try await LoopbackServer.start()
        let answered = LockedValue<String?>(nil)
        try await bundled.provideScope(for: test, testCase: nil) {
            let (response, body) = try await HTTPReplay.transport.send(
                HTTPRequest(method: .post, scheme: "http", authority: server.authority, path: "/echo?from=trait"),
                body: Data("hello".utf8))
            #expect(response.status == .ok)
            answered.withLock { $0 = String(decoding: body, as: UTF8.self) }
        }
        try await server.close()
        #expect(answered.withLock { $0 } == "hello", "replayed from the bundle, not sent")
        // Without a bundle the fixture is the missing file, and the replay says so.
        let unbundled: HTTPReplayTrait = .httpReplay("trait-echo", mode: .replay, directory: absent)
        #expect(unbundled.fixture(for: test) == absent.appending(path: "trait-echo.har"))
        await #expect(throws: HTTPReplayError(.fixtureMissing, path: absent.appending(path: "trait-echo.har").path)) {
            try await unbundled.provideScope(for: test, testCase: nil) {}
        }
        // A recording mode writes to the sources, never into the bundle.
        let recording: HTTPReplayTrait = .httpReplay(
            "trait-echo", mode: .recordMissing, directory: absent, bundle: .module)
        #expect(recording.fixture(for: test) == absent.appending(path: "trait-echo.har"))
        // Where the folder is there, a fixture missing from it is missing: never a stale copy.
        let present = FileManager.default.temporaryDirectory.appending(
            path: "seams-sources-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: present, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: present) }
        let notInFolder: HTTPReplayTrait = .httpReplay("trait-echo", mode: .replay, directory: present, bundle: .module)
        #expect(notInFolder.fixture(for: test) == present.appending(path: "trait-echo.har"))
        // Where the folder is there, its file wins over the bundle's.
        let inSources: HTTPReplayTrait = .httpReplay("trait-echo", mode: .replay, bundle: .module)
        #expect(inSources.fixture(for: test).path.hasSuffix("HTTPReplay/HTTPFixtures/trait-echo.har"))
        #expect(
            !inSources.fixture(for: test).standardizedFileURL.path.hasPrefix(
                Bundle.module.bundleURL.standardizedFileURL.path))
    }
}

/// The target of a recorded URL, for assertions.
enum ReplayEntryURL {
    static func target(_ url: String) -> String {
        guard let range = url.range(of: "://"), let slash = url[range.upperBound...].firstIndex(of: "/") else {
            return url
        }
        return String(url[slash...])
    }
}
