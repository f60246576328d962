public import Foundation
public import HTTPTypes
public import Seams

/// One rule of a ``MockHTTPTransport``, returned by ``MockHTTPTransport/on(_:_:query:headers:body:sourceLocation:)``
/// to say how it answers. Each call replaces the rule's answers.
///
/// ```swift
/// mock.on(.get, "/items").respond(.json(#"[]"#))                     // every time
/// mock.on(.get, "/flaky").respond(with: [.failure(.timedOut), .json("{}")])  // once each, in order
/// mock.on(.post, "/echo").respond { request, body in (HTTPResponse(status: .ok), body ?? Data()) }
/// mock.on(.get, "/down").fail(with: .cannotConnect)
/// mock.on(.get, "/slow").delayed(by: .seconds(5)).respond(.json("{}"))   // on the mock's clock
/// ```
public struct MockHTTPRule: Sendable {
    let id: Int
    let transport: MockHTTPTransport

    /// Answers every matching request with `answer`.
    ///
    /// - Parameter answer: The answer.
    /// - Returns: The rule, for chaining.
    @discardableResult
    public func respond(_ answer: MockHTTPAnswer) -> MockHTTPRule {
        transport.updateRule(id) {
            $0.answers = [answer]
            $0.repeatsLast = true
        }
        return self
    }

    /// Answers matching requests with `answers`, one each, in order; once they are used up the
    /// rule matches nothing more, so an extra request is reported instead of answered.
    ///
    /// - Parameter answers: The answers.
    /// - Returns: The rule, for chaining.
    @discardableResult
    public func respond(with answers: [MockHTTPAnswer]) -> MockHTTPRule {
        transport.updateRule(id) {
            $0.answers = answers
            $0.repeatsLast = false
        }
        return self
    }

    /// Answers every matching request with a response of `status`.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - headers: The header fields.
    ///   - body: The body; empty unless given.
    /// - Returns: The rule, for chaining.
    @discardableResult
    public func respond(status: HTTPResponse.Status, headers: HTTPFields = [:], body: Data = Data()) -> MockHTTPRule {
        respond(.status(status, headers: headers, body: body))
    }

    /// Answers every matching request by calling `handler`.
    ///
    /// - Parameter handler: Computes the response from the request and its body.
    /// - Returns: The rule, for chaining.
    @discardableResult
    public func respond(
        _ handler: @escaping @Sendable (HTTPRequest, Data?) async throws(HTTPTransportError) -> (HTTPResponse, Data)
    ) -> MockHTTPRule {
        respond(.handler(handler))
    }

    /// Fails every matching request with `error`.
    ///
    /// - Parameter error: The transport error.
    /// - Returns: The rule, for chaining.
    @discardableResult
    public func fail(with error: HTTPTransportError) -> MockHTTPRule {
        respond(.failure(error))
    }

    /// Waits `delay` on the mock's clock before answering. A delay longer than the request's
    /// timeout waits the timeout and throws `HTTPTransportError.timedOut`.
    ///
    /// - Parameter delay: The delay.
    /// - Returns: The rule, for chaining.
    @discardableResult
    public func delayed(by delay: Duration) -> MockHTTPRule {
        transport.updateRule(id) { $0.delay = delay }
        return self
    }
}
