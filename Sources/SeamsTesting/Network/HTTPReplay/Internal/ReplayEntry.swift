import Foundation
import HTTPTypes
import Seams

/// A HAR entry made ready to replay: its request redacted and split for matching, its answer
/// decoded. Made once when a replay starts, so a damaged entry is reported before any test runs.
struct ReplayEntry: Sendable {
    /// The entry's position in the file, from 1.
    let number: Int
    let method: String
    /// The path without its query, as written.
    let path: String
    /// The query items, sorted, as `name=value`.
    let query: [String]
    /// Lowercased header name to the values, joined by `, `; only for names the matching compares.
    let headers: [String: String]
    let body: Data
    let answer: Result<(HTTPResponse, Data), HTTPTransportError>

    /// The request line, for messages: `#2 POST /v1/notes?page=1`.
    let title: String

    /// Builds the entry, or explains why it cannot be replayed.
    init(_ entry: HTTPArchive.Entry, number: Int, matching: HTTPReplayMatching, redaction: HTTPRedaction)
        throws(ReplayEntryProblem)
    {
        self.number = number
        let request = entry.request
        guard HTTPRequest.Method(request.method) != nil else {
            throw ReplayEntryProblem("request.method \(request.method) is not a method")
        }
        method = request.method
        guard let target = Self.target(of: request.url) else {
            throw ReplayEntryProblem("request.url \(request.url) is not an absolute URL")
        }
        let redactedTarget = redaction.redact(target: target)
        (path, query) = Self.split(redactedTarget)
        let fields = redaction.redact(headers: request.headers)
        var headers: [String: String] = [:]
        for field in fields where matching.headers.contains(field.name.lowercased()) {
            headers[field.name.lowercased()] =
                headers[field.name.lowercased()].map { $0 + ", " + field.value } ?? field.value
        }
        self.headers = headers
        if let postData = request.postData {
            guard let data = HTTPArchiveBody.decode(postData.text, encoding: postData.encoding) else {
                throw ReplayEntryProblem("request.postData.text is not base64")
            }
            body = redaction.redact(body: data, contentType: postData.mimeType)
        } else {
            body = Data()
        }
        answer = try Self.answer(entry.response)
        title = "#\(number) \(method) \(redactedTarget)"
    }

    /// Why a request differs from this entry; empty when it matches.
    func mismatches(_ request: IncomingRequest, matching: HTTPReplayMatching) -> [String] {
        var reasons: [String] = []
        if request.method != method { reasons.append("method is \(request.method), expected \(method)") }
        if request.path != path { reasons.append("path is \(request.path), expected \(path)") }
        if request.query != query {
            let got = request.query.isEmpty ? "empty" : request.query.joined(separator: "&")
            let wanted = query.isEmpty ? "empty" : query.joined(separator: "&")
            reasons.append("query is \(got), expected \(wanted)")
        }
        for name in matching.headers.sorted() where request.headers[name] != headers[name] {
            let got = request.headers[name].map { "is \($0)" } ?? "missing"
            reasons.append("header \(name) \(got), expected \(headers[name] ?? "none")")
        }
        if matching.comparesBody, let reason = Self.bodyMismatch(expected: body, actual: request.body) {
            reasons.append(reason)
        }
        return reasons
    }

    private static func bodyMismatch(expected: Data, actual: Data) -> String? {
        if expected == actual { return nil }
        if let wanted = JSONValue(parsing: expected), let got = JSONValue(parsing: actual) {
            return wanted.firstDifference(from: got).map { "JSON body differs: \($0)" }
        }
        return "body is \(MockHTTPText.body(actual)), expected \(MockHTTPText.body(expected))"
    }

    /// `/path?query` of an absolute URL, without its fragment; `nil` when `url` is not absolute.
    static func target(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let afterAuthority = url[schemeEnd.upperBound...]
        guard let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        var target = String(afterAuthority[slash...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        return target.hasPrefix("?") ? "/" + target : target
    }

    /// The path and the sorted query items of a target.
    static func split(_ target: String) -> (path: String, query: [String]) {
        let (path, items) = MockHTTPText.split(target)
        return (path, items.map { "\($0.name)=\($0.value ?? "")" }.sorted())
    }

    private static func answer(_ response: HTTPArchive.Response) throws(ReplayEntryProblem) -> Result<
        (HTTPResponse, Data), HTTPTransportError
    > {
        if response.status == 0 {
            return .failure(HTTPTransportError(errorKind(response.error ?? "")))
        }
        guard (100...999).contains(response.status) else {
            throw ReplayEntryProblem("response.status \(response.status) is not an HTTP status and there is no _error")
        }
        var body = Data()
        if let text = response.content.text {
            guard let data = HTTPArchiveBody.decode(text, encoding: response.content.encoding) else {
                throw ReplayEntryProblem("response.content.text is not base64")
            }
            body = data
        }
        // A browser keeps the decoded body as text but the header as sent: the body is not gzip.
        let decodedByRecorder =
            response.content.text != nil && response.content.encoding == nil
            && response.headers.contains { $0.name.lowercased() == "content-encoding" }
        var fields = HTTPFields()
        for header in response.headers where !header.name.hasPrefix(":") {
            guard let name = HTTPField.Name(header.name) else { continue }
            if decodedByRecorder && (name == .contentEncoding || name == .contentLength) { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        let status = HTTPResponse.Status(code: response.status, reasonPhrase: response.statusText)
        return .success((HTTPResponse(status: status, headerFields: fields), body))
    }

    /// The transport error a recorded `_error` stands for: a kind written by this package, or a
    /// browser's `net::ERR_…` code.
    static func errorKind(_ text: String) -> HTTPTransportError.Kind {
        if let kind = HTTPTransportError.Kind(rawValue: text) { return kind }
        let code = text.uppercased()
        if code.contains("CONNECTION_REFUSED") || code.contains("ADDRESS_UNREACHABLE")
            || code.contains("INTERNET_DISCONNECTED")
        {
            return .cannotConnect
        }
        if code.contains("NAME_NOT_RESOLVED") { return .hostNotFound }
        if code.contains("TIMED_OUT") { return .timedOut }
        if code.contains("CONNECTION_RESET") || code.contains("CONNECTION_CLOSED") || code.contains("EMPTY_RESPONSE") {
            return .connectionLost
        }
        if code.contains("ABORTED") { return .cancelled }
        if code.contains("CERT") || code.contains("SSL") { return .tls }
        return .other
    }
}

/// Why an entry cannot be replayed.
struct ReplayEntryProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A request to replay, redacted and split like a ``ReplayEntry``.
struct IncomingRequest: Sendable {
    let method: String
    let path: String
    let query: [String]
    let headers: [String: String]
    let body: Data
    /// The request as shown in messages: redacted.
    let shown: HTTPRequest

    init(_ request: HTTPRequest, body: Data?, matching: HTTPReplayMatching, redaction: HTTPRedaction) {
        method = request.method.rawValue
        let target = redaction.redact(target: request.path ?? "/")
        (path, query) = ReplayEntry.split(target)
        var headers: [String: String] = [:]
        var shownFields = HTTPFields()
        for field in request.headerFields {
            let value = redaction.headers.contains(field.name.canonicalName) ? redaction.placeholder : field.value
            shownFields.append(HTTPField(name: field.name, value: value))
            guard matching.headers.contains(field.name.canonicalName) else { continue }
            headers[field.name.canonicalName] = headers[field.name.canonicalName].map { $0 + ", " + value } ?? value
        }
        self.headers = headers
        self.body = redaction.redact(body: body ?? Data(), contentType: request.headerFields[.contentType])
        var shown = request
        shown.path = target
        shown.headerFields = shownFields
        self.shown = shown
    }
}
