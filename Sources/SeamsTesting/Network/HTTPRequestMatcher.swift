public import Foundation
public import HTTPTypes

/// What a ``MockHTTPTransport`` rule expects of a request: each criterion left `nil` or empty
/// matches anything.
///
/// ```swift
/// mock.on(.post, "/v1/notes", query: ["draft": "true"], headers: [.contentType: "application/json"],
///         body: .json(#"{"title": "Hi"}"#))
/// ```
public struct HTTPRequestMatcher: Sendable, CustomStringConvertible {
    /// How a request body is compared.
    public enum Body: Sendable, CustomStringConvertible {
        /// The bytes must be equal.
        case exact(Data)
        /// Both must be JSON and equal in structure: key order, spacing and `1` vs `1.0` don't
        /// matter.
        case json(String)
        /// No body, or an empty one.
        case empty

        /// The expected body, for messages.
        public var description: String {
            switch self {
            case .exact(let data): "bytes " + MockHTTPText.body(data)
            case .json(let text): "JSON " + (JSONValue(parsing: Data(text.utf8))?.description ?? text)
            case .empty: "no body"
            }
        }
    }

    /// The method, or `nil` for any.
    public var method: HTTPRequest.Method?
    /// The path without its query, or `nil` for any.
    public var path: String?
    /// Query items that must be present with these values; others may be present too.
    public var query: [String: String]
    /// Header fields that must be present with these values; others may be present too.
    public var headers: HTTPFields
    /// The body, or `nil` for any.
    public var body: Body?

    /// Creates a matcher.
    ///
    /// - Parameters:
    ///   - method: The method, or `nil` for any.
    ///   - path: The path without query, or `nil` for any.
    ///   - query: Query items that must be present.
    ///   - headers: Header fields that must be present.
    ///   - body: The body, or `nil` for any.
    public init(
        method: HTTPRequest.Method? = nil,
        path: String? = nil,
        query: [String: String] = [:],
        headers: HTTPFields = [:],
        body: Body? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// "POST /v1/notes?draft=true [content-type: application/json] JSON {…}".
    public var description: String {
        var text = "\(method?.rawValue ?? "ANY") \(path ?? "*")"
        if !query.isEmpty {
            text += "?" + query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        }
        if !headers.isEmpty {
            text += " [" + headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
        }
        if let body { text += " " + body.description }
        return text
    }

    /// Why `request` does not match, one reason per criterion missed; empty when it matches.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - requestBody: Its body.
    /// - Returns: The reasons, such as `method is GET, expected POST`.
    public func mismatches(_ request: HTTPRequest, body requestBody: Data?) -> [String] {
        var reasons: [String] = []
        if let method, method != request.method {
            reasons.append("method is \(request.method.rawValue), expected \(method.rawValue)")
        }
        let (requestPath, items) = MockHTTPText.split(request.path ?? "/")
        if let path, path != requestPath {
            reasons.append("path is \(requestPath), expected \(path)")
        }
        for (name, value) in query.sorted(by: { $0.key < $1.key }) {
            let actual = items.filter { $0.name == name }.map { $0.value ?? "" }
            if !actual.contains(value) {
                let got = actual.isEmpty ? "missing" : "is \(actual.joined(separator: ", "))"
                reasons.append("query item \(name) \(got), expected \(value)")
            }
        }
        for field in headers {
            let actual = request.headerFields[values: field.name]
            if !actual.contains(field.value) {
                let got = actual.isEmpty ? "missing" : "is \(actual.joined(separator: ", "))"
                reasons.append("header \(field.name) \(got), expected \(field.value)")
            }
        }
        if let body, let reason = Self.mismatch(body, requestBody ?? Data()) {
            reasons.append(reason)
        }
        return reasons
    }

    private static func mismatch(_ expected: Body, _ actual: Data) -> String? {
        switch expected {
        case .empty:
            return actual.isEmpty ? nil : "body is \(MockHTTPText.body(actual)), expected none"
        case .exact(let data):
            return actual == data ? nil : "body is \(MockHTTPText.body(actual)), expected \(MockHTTPText.body(data))"
        case .json(let text):
            guard let wanted = JSONValue(parsing: Data(text.utf8)) else {
                return "the rule's expected body is not JSON: \(text)"
            }
            guard let got = JSONValue(parsing: actual) else {
                return "body is not JSON: \(MockHTTPText.body(actual))"
            }
            return wanted.firstDifference(from: got).map { "JSON body differs: \($0)" }
        }
    }
}
