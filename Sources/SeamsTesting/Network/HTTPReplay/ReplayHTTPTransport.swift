public import Foundation
public import HTTPTypes
public import Seams
public import Testing

/// An `HTTPTransportProviding` that answers from a HAR file and never opens a socket: each
/// request is answered by the first recorded entry that matches it and has not answered yet, so
/// identical requests get their responses in the recorded order.
///
/// ```swift
/// let replay = try ReplayHTTPTransport(contentsOf: fixturesFolder.appending(path: "notes.har"))
/// let client = NotesClient(transport: replay)
/// #expect(try await client.notes().count == 3)
/// replay.verifyAllEntriesUsed()
/// ```
///
/// A request no entry matches fails the test at the line that made the transport, with the
/// request (redacted) and the nearest entries with why each missed, as ``MockHTTPTransport``
/// does, and throws kind `.other` with an ``HTTPReplayError`` of kind `.unmatchedRequest`.
/// A recorded transport error (status 0 with `_error`) is thrown again. Answers come at once,
/// whatever the recorded timings.
///
/// Files from browsers, Charles or Proxyman replay too: their pages, cache, cookies and
/// `_`-prefixed fields are ignored, HTTP/2 pseudo-header fields (`:status`) are dropped, and a
/// body a browser kept decoded loses its `content-encoding`. One instance per test; its state
/// sits behind a lock.
public final class ReplayHTTPTransport: HTTPTransportProviding {
    private struct State {
        var used: [Bool]
    }

    /// How requests are matched to entries.
    public let matching: HTTPReplayMatching
    /// What is redacted from requests before matching and in messages.
    public let redaction: HTTPRedaction
    /// The file the entries came from, if any.
    public let path: String?

    private let entries: [ReplayEntry]
    private let fallback: (any HTTPTransportProviding)?
    private let sourceLocation: SourceLocation
    private let state: LockedValue<State>

    /// Creates a replay of `archive`'s entries.
    ///
    /// - Parameters:
    ///   - archive: The recorded exchanges.
    ///   - path: Where they came from, for messages.
    ///   - matching: How requests are matched; method, path, query and body unless given.
    ///   - redaction: Applied to requests before matching (the recording's redaction).
    ///   - sourceLocation: Where an unmatched request is reported; the caller's line by default.
    /// - Throws: ``HTTPReplayError/Kind/corruptFixture`` when an entry cannot be replayed.
    public convenience init(
        archive: HTTPArchive,
        path: String? = nil,
        matching: HTTPReplayMatching = .standard,
        redaction: HTTPRedaction = .standard,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws(HTTPReplayError) {
        try self.init(
            archive: archive, path: path, matching: matching, redaction: redaction, fallback: nil,
            sourceLocation: sourceLocation)
    }

    /// Creates a replay of the HAR file at `url`.
    ///
    /// - Parameters:
    ///   - url: The HAR file.
    ///   - matching: How requests are matched; method, path, query and body unless given.
    ///   - redaction: Applied to requests before matching (the recording's redaction).
    ///   - sourceLocation: Where an unmatched request is reported; the caller's line by default.
    /// - Throws: ``HTTPReplayError/Kind/fixtureMissing`` or ``HTTPReplayError/Kind/corruptFixture``.
    public convenience init(
        contentsOf url: URL,
        matching: HTTPReplayMatching = .standard,
        redaction: HTTPRedaction = .standard,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws(HTTPReplayError) {
        try self.init(
            archive: try HTTPArchive(contentsOf: url), path: url.path, matching: matching, redaction: redaction,
            fallback: nil, sourceLocation: sourceLocation)
    }

    /// Creates a replay that sends the requests no entry matches to `fallback` (a recorder).
    init(
        archive: HTTPArchive,
        path: String?,
        matching: HTTPReplayMatching,
        redaction: HTTPRedaction,
        fallback: (any HTTPTransportProviding)?,
        sourceLocation: SourceLocation
    ) throws(HTTPReplayError) {
        var entries: [ReplayEntry] = []
        for (offset, entry) in archive.log.entries.enumerated() {
            do throws(ReplayEntryProblem) {
                entries.append(try ReplayEntry(entry, number: offset + 1, matching: matching, redaction: redaction))
            } catch {
                throw HTTPReplayError(.corruptFixture, path: path, detail: "log.entries[\(offset)]: \(error.reason)")
            }
        }
        self.entries = entries
        self.matching = matching
        self.redaction = redaction
        self.path = path
        self.fallback = fallback
        self.sourceLocation = sourceLocation
        state = LockedValue(State(used: Array(repeating: false, count: entries.count)))
    }

    /// The entries no request has used yet, as `#3 GET /v1/notes`.
    public var unusedEntries: [String] {
        state.withLock { state in entries.indices.filter { !state.used[$0] }.map { entries[$0].title } }
    }

    /// Records an issue naming each entry no request used: the code under test now makes fewer
    /// requests than when the fixture was recorded.
    ///
    /// - Parameter sourceLocation: Where the issue is reported; the caller's line by default.
    public func verifyAllEntriesUsed(sourceLocation: SourceLocation = #_sourceLocation) {
        let unused = unusedEntries
        guard !unused.isEmpty else { return }
        let lines =
            ["ReplayHTTPTransport: \(unused.count) recorded entr\(unused.count == 1 ? "y" : "ies") never used:"]
            + unused.map { "  - \($0)" }
        Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    /// Answers from the first unused entry that matches.
    ///
    /// - Throws: The recorded `HTTPTransportError`; `HTTPTransportError.cancelled` when the
    ///   task is cancelled; kind `.other` with an ``HTTPReplayError`` of kind `.unmatchedRequest`
    ///   (after recording an issue) when no unused entry matches.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        if Task.isCancelled { throw HTTPTransportError(.cancelled, underlying: CancellationError()) }
        let incoming = IncomingRequest(request, body: body, matching: matching, redaction: redaction)
        let found = state.withLock { state -> Result<ReplayEntry, HTTPReplayError> in
            var candidates: [(rule: String, reasons: [String])] = []
            for index in entries.indices {
                var reasons = entries[index].mismatches(incoming, matching: matching)
                if reasons.isEmpty && !state.used[index] {
                    state.used[index] = true
                    return .success(entries[index])
                }
                if reasons.isEmpty { reasons.append("matches, but has already answered an earlier request") }
                candidates.append((entries[index].title, reasons))
            }
            let message = MockHTTPText.unmatched(
                incoming.shown, body: incoming.body, candidates: candidates,
                headline: "ReplayHTTPTransport: no recorded entry matches the request",
                noCandidates: "The fixture has no entries\(path.map { " (\($0))" } ?? "").",
                nearestLabel:
                    "Nearest recorded entries\(path.map { " in \(($0 as NSString).lastPathComponent)" } ?? "")")
            return .failure(HTTPReplayError(.unmatchedRequest, path: path, detail: message))
        }
        switch found {
        case .success(let entry):
            return try entry.answer.get()
        case .failure(let unmatched):
            if let fallback {
                return try await fallback.send(request, body: body, timeout: timeout)
            }
            Issue.record(Comment(rawValue: unmatched.detail), sourceLocation: sourceLocation)
            throw HTTPTransportError(.other, underlying: unmatched)
        }
    }
}
