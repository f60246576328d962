public import Foundation
public import HTTPTypes
public import Seams
public import Testing

/// An `HTTPTransportProviding` for tests that answers by rules, records every request, and
/// never makes up an answer: a request no rule matches fails the test with a message that shows
/// the request and the nearest rules with why each missed.
///
/// ```swift
/// let mock = MockHTTPTransport()
/// mock.on(.get, "/v1/forecast", query: ["city": "Oslo"]).respond(.json(#"{"celsius": 4.5}"#))
/// mock.on(.post, "/v1/reports", body: .json(#"{"city": "Oslo"}"#)).respond(status: .created)
///
/// let client = ForecastClient(transport: mock)
/// #expect(try await client.forecast(for: "Oslo").celsius == 4.5)
/// #expect(mock.requests.map(\.request.path) == ["/v1/forecast?city=Oslo"])
/// mock.verifyAllRulesUsed()
/// ```
///
/// Rules are tried in the order they were added; the first that matches and has an answer left
/// answers. Delays run on the injected clock (an ``ImmediateClock`` unless given), so tests never
/// sleep. One instance per test: it holds no global state, and all of its state sits behind a
/// `Mutex`, so any number of tasks may use it at once.
public final class MockHTTPTransport: HTTPTransportProviding {
    /// A request the mock received.
    public struct RecordedRequest: Hashable, Sendable {
        /// The request.
        public let request: HTTPRequest
        /// Its body.
        public let body: Data?
    }

    /// What the mock throws (inside `HTTPTransportError.underlying`, kind `.other`) when no
    /// rule matches; ``message`` shows the request and the nearest rules.
    public struct UnmatchedRequestError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The request and the nearest rules, with why each missed.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    struct Rule {
        let id: Int
        let matcher: HTTPRequestMatcher
        let sourceLocation: SourceLocation
        var answers: [MockHTTPAnswer] = []
        var repeatsLast = true
        var delay: Duration = .zero
        var uses = 0

        var hasAnswer: Bool { repeatsLast ? !answers.isEmpty : uses < answers.count }

        var description: String {
            "\(matcher) (rule at \(sourceLocation.fileName):\(sourceLocation.line))"
        }
    }

    private struct State {
        var rules: [Rule] = []
        var requests: [RecordedRequest] = []
    }

    /// The clock that delays run on.
    public let clock: any Clock<Duration>
    private let sourceLocation: SourceLocation
    private let state = LockedValue(State())

    /// Creates a mock with no rules.
    ///
    /// - Parameters:
    ///   - clock: The clock delays run on; an ``ImmediateClock`` unless given.
    ///   - sourceLocation: Where an unmatched request is reported; the caller's line by default.
    public init(clock: any Clock<Duration> = ImmediateClock(), sourceLocation: SourceLocation = #_sourceLocation) {
        self.clock = clock
        self.sourceLocation = sourceLocation
    }

    /// Adds a rule for requests that match; say how it answers on the returned rule.
    ///
    /// - Parameters:
    ///   - method: The method, or `nil` for any.
    ///   - path: The path without its query, or `nil` for any.
    ///   - query: Query items that must be present with these values.
    ///   - headers: Header fields that must be present with these values.
    ///   - body: How the body must look, or `nil` for any.
    ///   - sourceLocation: Where the rule is shown to come from in messages.
    /// - Returns: The rule, to give it an answer.
    @discardableResult
    public func on(
        _ method: HTTPRequest.Method? = nil,
        _ path: String? = nil,
        query: [String: String] = [:],
        headers: HTTPFields = [:],
        body: HTTPRequestMatcher.Body? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MockHTTPRule {
        let matcher = HTTPRequestMatcher(method: method, path: path, query: query, headers: headers, body: body)
        return on(matcher, sourceLocation: sourceLocation)
    }

    /// Adds a rule for requests that `matcher` accepts.
    ///
    /// - Parameters:
    ///   - matcher: What the request must look like.
    ///   - sourceLocation: Where the rule is shown to come from in messages.
    /// - Returns: The rule, to give it an answer.
    @discardableResult
    public func on(_ matcher: HTTPRequestMatcher, sourceLocation: SourceLocation = #_sourceLocation) -> MockHTTPRule {
        let id = state.withLock { state in
            state.rules.append(Rule(id: state.rules.count, matcher: matcher, sourceLocation: sourceLocation))
            return state.rules.count - 1
        }
        return MockHTTPRule(id: id, transport: self)
    }

    func updateRule(_ id: Int, _ change: (inout Rule) -> Void) {
        state.withLock { change(&$0.rules[id]) }
    }

    /// Every request received, in order, matched or not.
    public var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// The rules that have not answered any request, as text.
    public var unusedRules: [String] {
        state.withLock { $0.rules.filter { $0.uses == 0 }.map(\.description) }
    }

    /// Records an issue naming each rule that answered no request.
    ///
    /// - Parameter sourceLocation: Where the issue is reported; the caller's line by default.
    public func verifyAllRulesUsed(sourceLocation: SourceLocation = #_sourceLocation) {
        let unused = unusedRules
        guard !unused.isEmpty else { return }
        let lines = ["MockHTTPTransport: \(unused.count) rule(s) never used:"] + unused.map { "  - \($0)" }
        Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    /// Records the request, finds the first matching rule with an answer left, waits its delay on
    /// ``clock``, and answers.
    ///
    /// - Throws: The rule's `HTTPTransportError`; `HTTPTransportError.timedOut` when the delay
    ///   is longer than `timeout`; `HTTPTransportError.cancelled` when the task is cancelled; and
    ///   kind `.other` with an ``UnmatchedRequestError`` (after recording an issue) when no rule
    ///   matches.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let chosen = state.withLock { state -> Result<(MockHTTPAnswer, Duration), UnmatchedRequestError> in
            state.requests.append(RecordedRequest(request: request, body: body))
            var candidates: [(rule: String, reasons: [String])] = []
            for index in state.rules.indices {
                var reasons = state.rules[index].matcher.mismatches(request, body: body)
                let rule = state.rules[index]
                if reasons.isEmpty && rule.hasAnswer {
                    state.rules[index].uses += 1
                    return .success((rule.answers[rule.repeatsLast ? rule.answers.count - 1 : rule.uses], rule.delay))
                }
                if reasons.isEmpty {
                    reasons.append(
                        rule.answers.isEmpty
                            ? "matches, but has no answer: call respond(…) or fail(with:) on it"
                            : "matches, but its \(rule.answers.count) answer(s) are used up")
                }
                candidates.append((rule.description, reasons))
            }
            return .failure(
                UnmatchedRequestError(
                    message: MockHTTPText.unmatched(request, body: body, candidates: candidates)))
        }
        let answer: MockHTTPAnswer
        let delay: Duration
        switch chosen {
        case .success(let found):
            (answer, delay) = found
        case .failure(let unmatched):
            Issue.record(Comment(rawValue: unmatched.message), sourceLocation: sourceLocation)
            throw HTTPTransportError(.other, underlying: unmatched)
        }
        try await wait(delay, timeout: timeout)
        let result = try await answer.answer(request, body: body)
        if Task.isCancelled { throw HTTPTransportError(.cancelled, underlying: CancellationError()) }
        return result
    }

    private func wait(_ delay: Duration, timeout: Duration) async throws(HTTPTransportError) {
        if Task.isCancelled { throw HTTPTransportError(.cancelled, underlying: CancellationError()) }
        guard delay > .zero else { return }
        do {
            try await clock.sleep(for: min(delay, timeout))
        } catch {
            throw HTTPTransportError(.cancelled, underlying: error)
        }
        if delay > timeout { throw HTTPTransportError(.timedOut) }
    }
}
