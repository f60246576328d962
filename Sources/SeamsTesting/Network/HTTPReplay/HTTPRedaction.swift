import Foundation

/// What a recording replaces by a placeholder before anything is written: `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie` always, plus the header fields, query items
/// and JSON members you name.
///
/// ```swift
/// let redaction = HTTPRedaction(headers: ["x-api-key"], queryItems: ["api_key"], jsonFields: ["password", "access_token"])
/// let recorder = RecordingHTTPTransport(wrapping: .live, file: fixtureURL, redaction: redaction)
/// // the file holds "authorization": "REDACTED", ?api_key=REDACTED, "password": "REDACTED"
/// ```
///
/// Redaction applies to requests and responses alike (a token the server returns in a JSON body
/// is removed too). JSON members are found at any depth by name, without regard to case, and the
/// rest of the body keeps its exact bytes; a form body (`application/x-www-form-urlencoded`) and
/// the URL of a `Location` are redacted like a query. A replay applies the same redaction to each request before matching, so
/// a request with a real token matches the entry that holds the placeholder.
public struct HTTPRedaction: Hashable, Sendable {
    /// The header fields always redacted.
    public static let standardHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Redacts only ``standardHeaders``.
    public static let standard = HTTPRedaction()

    /// Header field names redacted, lowercased.
    public let headers: Set<String>
    /// Query item (and form field) names redacted, as written.
    public let queryItems: Set<String>
    /// JSON member names redacted, at any depth, without regard to case.
    public let jsonFields: Set<String>
    /// What a secret becomes.
    public let placeholder: String

    /// Creates a redaction of ``standardHeaders`` and the names given.
    ///
    /// - Parameters:
    ///   - headers: More header fields to redact (any case).
    ///   - queryItems: Query items and form fields to redact.
    ///   - jsonFields: JSON members to redact.
    ///   - placeholder: What each secret becomes; `REDACTED` unless given.
    public init(
        headers: Set<String> = [],
        queryItems: Set<String> = [],
        jsonFields: Set<String> = [],
        placeholder: String = "REDACTED"
    ) {
        self.headers = Self.standardHeaders.union(headers.map { $0.lowercased() })
        self.queryItems = queryItems
        self.jsonFields = jsonFields
        self.placeholder = placeholder
    }

    /// Header fields with the named ones' values replaced, and the named query items of a
    /// `Location` or `Content-Location` URL.
    func redact(headers fields: [HTTPArchive.NameValue]) -> [HTTPArchive.NameValue] {
        fields.map { field in
            let name = field.name.lowercased()
            if headers.contains(name) { return HTTPArchive.NameValue(name: field.name, value: placeholder) }
            if name == "location" || name == "content-location" {
                return HTTPArchive.NameValue(name: field.name, value: redact(target: field.value))
            }
            return field
        }
    }

    /// A request target (`/path?a=1&token=x`) or an absolute URL with the named query items'
    /// values replaced; everything else keeps its bytes.
    func redact(target: String) -> String {
        guard !queryItems.isEmpty, let mark = target.firstIndex(of: "?") else { return target }
        let rest = target[target.index(after: mark)...]
        let fragmentStart = rest.firstIndex(of: "#") ?? rest.endIndex
        let query = redact(form: String(rest[..<fragmentStart]))
        return String(target[...mark]) + query + rest[fragmentStart...]
    }

    /// `name=value&…` with the named fields' values replaced.
    func redact(form: String) -> String {
        form.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name =
                pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
            guard queryItems.contains(decoded) else { return String(pair) }
            return name + "=" + placeholder
        }.joined(separator: "&")
    }

    /// A body with named JSON members (or form fields, for a form) replaced.
    func redact(body: Data, contentType: String?) -> Data {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded"), !queryItems.isEmpty,
            let text = String(validating: body, as: UTF8.self)
        {
            return Data(redact(form: text).utf8)
        }
        return JSONFieldRedactor(fields: jsonFields, placeholder: placeholder).redact(body) ?? body
    }
}
