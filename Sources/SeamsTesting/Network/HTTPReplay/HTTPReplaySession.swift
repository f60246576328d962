public import Foundation
public import Seams
import Testing

/// One test's fixture and the transport that serves it in the chosen mode: made by
/// ``HTTPReplay/withSession(fixture:mode:live:matching:redaction:sourceLocation:_:)`` and the
/// `.httpReplay(_:)` trait, never shared between tests.
///
/// ```swift
/// @Test(.httpReplay("notes-list")) func listsNotes() async throws {
///     let client = NotesClient(transport: HTTPReplay.transport)   // this test's session
///     #expect(try await client.notes().count == 3)
/// }
/// ```
public final class HTTPReplaySession: Sendable {
    /// The fixture file.
    public let fixture: URL
    /// The mode the session runs in.
    public let mode: HTTPReplayMode
    /// What the code under test sends through.
    public let transport: any HTTPTransportProviding
    /// The replay, in modes ``HTTPReplayMode/replay`` and ``HTTPReplayMode/recordMissing``.
    public let replay: ReplayHTTPTransport?
    /// The recorder, in modes ``HTTPReplayMode/recordMissing`` and ``HTTPReplayMode/rerecord``.
    public let recorder: RecordingHTTPTransport?

    private let fixtureExisted: Bool
    private let recordedAtStart: Int

    /// Opens `fixture` in `mode`.
    ///
    /// - Throws: ``HTTPReplayError/Kind/fixtureMissing`` in replay mode without a file;
    ///   ``HTTPReplayError/Kind/corruptFixture`` when the file cannot be replayed (in every mode
    ///   but rerecord, so a damaged fixture is never overwritten by accident).
    init(
        fixture: URL,
        mode: HTTPReplayMode,
        live: any HTTPTransportProviding,
        matching: HTTPReplayMatching,
        redaction: HTTPRedaction,
        sourceLocation: SourceLocation
    ) throws(HTTPReplayError) {
        self.fixture = fixture
        self.mode = mode
        switch mode {
        case .replay:
            let replay: ReplayHTTPTransport
            do throws(HTTPReplayError) {
                replay = try ReplayHTTPTransport(
                    contentsOf: fixture, matching: matching, redaction: redaction, sourceLocation: sourceLocation)
            } catch let error where error.kind == .fixtureMissing {
                throw HTTPReplayError(
                    .fixtureMissing, path: fixture.path,
                    detail: "no fixture to replay; record it with \(HTTPReplayMode.environmentVariable)=record-missing")
            }
            self.replay = replay
            recorder = nil
            transport = replay
            fixtureExisted = true
            recordedAtStart = 0
        case .recordMissing:
            var existing = HTTPArchive()
            var existed = true
            do throws(HTTPReplayError) {
                existing = try HTTPArchive(contentsOf: fixture)
            } catch let error where error.kind == .fixtureMissing {
                existed = false
            }
            let recorder = RecordingHTTPTransport(
                wrapping: live, file: fixture, startingWith: existing, redaction: redaction,
                sourceLocation: sourceLocation)
            let replay = try ReplayHTTPTransport(
                archive: existing, path: fixture.path, matching: matching, redaction: redaction, fallback: recorder,
                sourceLocation: sourceLocation)
            self.recorder = recorder
            self.replay = replay
            transport = replay
            fixtureExisted = existed
            recordedAtStart = existing.log.entries.count
        case .rerecord:
            let recorder = RecordingHTTPTransport(
                wrapping: live, file: fixture, redaction: redaction, sourceLocation: sourceLocation)
            self.recorder = recorder
            replay = nil
            transport = recorder
            fixtureExisted = false
            recordedAtStart = 0
        }
    }

    /// Writes the fixture when this session made or changed it; a session that recorded
    /// nothing still leaves a (possibly empty) fixture, so the next replay finds one.
    func finish() throws(HTTPReplayError) {
        guard let recorder else { return }
        if !fixtureExisted || recorder.archive.log.entries.count != recordedAtStart {
            try recorder.write()
        }
    }
}
