/// The five predefined XML entities and numeric character references, replaced in a text: what the
/// small readers of WebDAV's and S3's XML bodies need.
package enum XMLEntities {
    /// Why a text could not be decoded.
    package struct Failure: Error, Hashable, Sendable {
        /// What was wrong.
        package var reason: String
    }

    /// `text` with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xN;` replaced.
    ///
    /// - Throws: ``Failure`` for an entity that is not closed or not known.
    package static func decode(_ text: String) throws(Failure) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else {
                throw Failure(reason: "an entity is not closed")
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number: UInt32? =
                    entity.hasPrefix("#x") || entity.hasPrefix("#X")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw Failure(reason: "unknown entity &\(entity);")
                }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
