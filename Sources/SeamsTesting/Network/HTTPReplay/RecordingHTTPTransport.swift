public import Foundation
public import HTTPTypes
public import Seams
public import Testing

/// An `HTTPTransportProviding` that sends each request through a live transport and keeps the
/// exchange in a HAR 1.2 archive, redacted, written to its file after every exchange.
///
/// ```swift
/// let recorder = RecordingHTTPTransport(
///     wrapping: URLSessionHTTPTransport.shared,
///     file: fixturesFolder.appending(path: "notes.har"),
///     redaction: HTTPRedaction(jsonFields: ["password"]))
/// let client = NotesClient(transport: recorder)
/// _ = try await client.notes()                  // a real request; notes.har now holds it
/// // later, in every test run: ReplayHTTPTransport(contentsOf: …/notes.har)
/// ```
///
/// Bodies are kept as text when their content type is textual and as base64 otherwise; the
/// exchange's duration is kept as its `time` (and `timings.wait`). A transport error is kept as
/// status 0 with `_error` (the `HTTPTransportError.Kind` name) and thrown again by a replay;
/// a cancelled request is not kept. The file is written atomically, pretty-printed with sorted
/// keys. Entries are in the order the exchanges finished.
///
/// When the file cannot be written, `send` records an issue at the line that made the recorder
/// and throws kind `.other` with an ``HTTPReplayError`` of kind `.cannotWrite`: a test must not
/// pass while its fixture was not saved.
public final class RecordingHTTPTransport: HTTPTransportProviding {
    /// The transport that makes the real requests.
    public let live: any HTTPTransportProviding
    /// Where the archive is written after each exchange, or `nil` to keep it in memory.
    public let file: URL?
    /// What is replaced before anything is kept.
    public let redaction: HTTPRedaction

    private let sourceLocation: SourceLocation
    private let state: LockedValue<HTTPArchive>

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - live: The transport that makes the real requests.
    ///   - file: Where to write the archive after each exchange, or `nil` to keep it in memory.
    ///   - archive: Entries the file starts with (a fixture being extended); none unless given.
    ///   - redaction: What to replace; the standard header fields unless given.
    ///   - sourceLocation: Where a write failure is reported; the caller's line by default.
    public init(
        wrapping live: any HTTPTransportProviding,
        file: URL? = nil,
        startingWith archive: HTTPArchive = HTTPArchive(),
        redaction: HTTPRedaction = .standard,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.live = live
        self.file = file
        self.redaction = redaction
        self.sourceLocation = sourceLocation
        var archive = archive
        archive.log.version = "1.2"
        archive.log.creator = HTTPArchive().log.creator
        state = LockedValue(archive)
    }

    /// What has been recorded so far (with the entries it started with).
    public var archive: HTTPArchive {
        state.withLock { $0 }
    }

    /// Writes the archive to ``file`` now, even when it has no entries (a test that made no
    /// request still leaves a fixture to replay). Does nothing without a file.
    ///
    /// - Throws: ``HTTPReplayError/Kind/cannotWrite``.
    public func write() throws(HTTPReplayError) {
        guard let file else { return }
        try state.withLock { (archive) throws(HTTPReplayError) in try archive.write(to: file) }
    }

    /// Sends `request` through ``live``, keeps the exchange, writes the file, and returns what
    /// ``live`` returned.
    ///
    /// - Throws: What ``live`` throws; kind `.other` with an ``HTTPReplayError`` of kind
    ///   `.cannotWrite` (after recording an issue) when the file could not be written.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<(HTTPResponse, Data), HTTPTransportError>
        do throws(HTTPTransportError) {
            outcome = .success(try await live.send(request, body: body, timeout: timeout))
        } catch {
            outcome = .failure(error)
        }
        if case .failure(let error) = outcome, error.kind == .cancelled {
            throw error
        }
        let entry = HTTPArchive.Entry(
            recording: request, body: body, outcome: outcome, started: started, duration: start.duration(to: clock.now),
            redaction: redaction)
        let file = file
        let written = state.withLock { (archive) -> Result<Void, HTTPReplayError> in
            archive.log.entries.append(entry)
            guard let file else { return .success(()) }
            return Result { () throws(HTTPReplayError) in try archive.write(to: file) }
        }
        if case .failure(let error) = written {
            Issue.record(
                Comment(rawValue: "RecordingHTTPTransport: could not write the fixture\n\(error)"),
                sourceLocation: sourceLocation)
            throw HTTPTransportError(.other, underlying: error)
        }
        return try outcome.get()
    }
}
