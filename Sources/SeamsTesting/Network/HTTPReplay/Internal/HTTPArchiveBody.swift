import Foundation

/// How bodies are kept in a HAR file: as text when their media type is textual and their bytes
/// are UTF-8 that comes back byte for byte, else as base64.
enum HTTPArchiveBody {
    /// Whether a body of `mimeType` is stored as text (when its bytes allow).
    static func isTextual(_ mimeType: String) -> Bool {
        let type =
            mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if type.hasPrefix("text/") { return true }
        if type.hasSuffix("+json") || type.hasSuffix("+xml") { return true }
        return [
            "application/json", "application/xml", "application/javascript", "application/x-www-form-urlencoded",
            "application/graphql", "application/x-ndjson", "application/problem+json",
        ].contains(type)
    }

    /// `data` as `(text, encoding)`: text when `mimeType` is textual and the bytes are UTF-8
    /// that encodes back to the same bytes; else base64 and `"base64"`.
    static func encode(_ data: Data, mimeType: String) -> (text: String, encoding: String?) {
        if isTextual(mimeType), let text = String(validating: data, as: UTF8.self), Data(text.utf8) == data {
            return (text, nil)
        }
        return (data.base64EncodedString(), "base64")
    }

    /// The bytes of a stored body, or `nil` when `encoding` is `base64` and `text` is not base64.
    static func decode(_ text: String, encoding: String?) -> Data? {
        guard encoding?.lowercased() == "base64" else { return Data(text.utf8) }
        return Data(base64Encoded: text.filter { !$0.isWhitespace })
    }

    /// A form's fields as `application/x-www-form-urlencoded` text.
    static func formText(_ fields: [(String, String)]) -> String {
        fields.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
