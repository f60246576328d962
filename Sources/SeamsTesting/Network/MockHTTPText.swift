import Foundation
import HTTPTypes

/// How the HTTP mock shows requests and bodies in its messages.
enum MockHTTPText {
    /// The longest body shown whole.
    static let bodyLimit = 300

    /// A body as text when it is short UTF-8, else its size.
    static func body(_ data: Data) -> String {
        if data.isEmpty { return "empty" }
        guard data.count <= bodyLimit, let text = String(data: data, encoding: .utf8),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" || $0 == "\t" })
        else {
            return "<\(data.count) bytes>"
        }
        return "'" + text + "'"
    }

    /// Splits `/a/b?x=1&y=2` into its path and query items.
    static func split(_ target: String) -> (path: String, items: [URLQueryItem]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, []) }
        let path = String(target[..<mark])
        let components = URLComponents(string: "http://host/" + "?" + target[target.index(after: mark)...])
        return (path, components?.queryItems ?? [])
    }

    /// A request as several lines: the request line, the header fields, the body.
    static func request(_ request: HTTPRequest, body: Data?) -> String {
        var lines = ["  \(request.method.rawValue) \(request.path ?? "/")"]
        for field in request.headerFields {
            lines.append("    \(field.name): \(field.value)")
        }
        lines.append("    body: \(MockHTTPText.body(body ?? Data()))")
        return lines.joined(separator: "\n")
    }

    /// The message of an unmatched request: the request, then the nearest rules (fewest misses
    /// first, at most `limit`) with why each missed.
    ///
    /// The wording defaults to the mock's; the replay transport passes its own (entries, not rules).
    static func unmatched(
        _ request: HTTPRequest,
        body: Data?,
        candidates: [(rule: String, reasons: [String])],
        limit: Int = 3,
        headline: String = "MockHTTPTransport: no rule matches the request",
        noCandidates: String = "No rules are registered.",
        nearestLabel: String = "Nearest rules"
    ) -> String {
        var lines = [headline, MockHTTPText.request(request, body: body)]
        if candidates.isEmpty {
            lines.append(noCandidates)
            return lines.joined(separator: "\n")
        }
        let nearest = candidates.enumerated()
            .sorted { ($0.element.reasons.count, $0.offset) < ($1.element.reasons.count, $1.offset) }
            .prefix(limit)
        lines.append("\(nearestLabel) (\(nearest.count) of \(candidates.count)):")
        for (number, candidate) in nearest.enumerated() {
            lines.append("  \(number + 1). \(candidate.element.rule)")
            for reason in candidate.element.reasons {
                lines.append("     - \(reason)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
