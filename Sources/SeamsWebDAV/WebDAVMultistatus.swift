import Foundation
import SeamsCore

/// One item of a `PROPFIND` answer: its path and the live properties a sync needs.
struct WebDAVResource: Hashable, Sendable {
    /// The item's path on the server, percent-decoded, without a trailing slash (`/dav/a b.txt`).
    var path: String
    /// Whether the item is a collection (a folder).
    var isCollection: Bool
    /// `getcontentlength`, 0 when absent (collections).
    var size: Int64
    /// `getlastmodified`, whole seconds; the epoch when absent.
    var modified: Date
    /// `getetag` as sent, quotes included; `nil` when the server sent none.
    var etag: String?
}

/// Reads a `207 Multi-Status` body (RFC 4918 §14.16) into ``WebDAVResource``s.
///
/// A small tolerant reader, not a general XML parser: it needs element names (any namespace
/// prefix, or none), text and the five predefined entities plus numeric references, which is
/// all a `PROPFIND` answer holds. Properties of a `propstat` whose status is not 200 are ignored.
enum WebDAVMultistatus {
    /// A multistatus body that could not be read.
    struct Malformed: Error, Hashable {
        /// What was wrong.
        var reason: String
    }

    /// The items of `body`, in the order the server sent them.
    static func parse(_ body: Data) throws(Malformed) -> [WebDAVResource] {
        var resources: [WebDAVResource] = []
        var current: Response?
        var propstat = Propstat()
        var stack: [String] = []
        var text = ""
        let bytes = [UInt8](body)
        var index = 0
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                text += String(decoding: bytes[start..<index], as: UTF8.self)
                continue
            }
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                throw Malformed(reason: "a tag is not closed")
            }
            let tag = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            if tag.hasPrefix("?") || tag.hasPrefix("!") {
                if tag.hasPrefix("![CDATA[") { text += tag.dropFirst(8).dropLast(2) }
                continue
            }
            if tag.hasPrefix("/") {
                let name = localName(tag.dropFirst())
                guard stack.last == name else {
                    throw Malformed(reason: "</\(name)> does not close <\(stack.last ?? "")>")
                }
                stack.removeLast()
                let value = try decodeEntities(text.trimmingCharacters(in: .whitespacesAndNewlines))
                text = ""
                switch name {
                case "href" where stack.last == "response": current?.href = value
                case "status" where stack.last == "propstat":
                    propstat.ok = value.split(separator: " ").dropFirst().first == "200"
                case "getcontentlength": propstat.size = Int64(value)
                case "getlastmodified": propstat.modified = HTTPDate.parse(value)
                case "getetag": propstat.etag = value.isEmpty ? nil : value
                case "propstat":
                    if propstat.ok { current?.merge(propstat) }
                    propstat = Propstat()
                case "response":
                    guard let response = current, let href = response.href else {
                        throw Malformed(reason: "a response has no href")
                    }
                    resources.append(try response.resource(href: href))
                    current = nil
                default: break
                }
                continue
            }
            let selfClosing = tag.hasSuffix("/")
            let name = localName(selfClosing ? tag.dropLast() : tag[...])
            text = ""
            if name == "response" { current = Response() }
            if name == "collection", stack.contains("resourcetype") { propstat.isCollection = true }
            if !selfClosing { stack.append(name) }
        }
        guard stack.isEmpty else { throw Malformed(reason: "the body ends inside <\(stack.last ?? "")>") }
        return resources
    }

    private struct Propstat {
        var ok = false
        var isCollection = false
        var size: Int64?
        var modified: Date?
        var etag: String?
    }

    private struct Response {
        var href: String?
        var isCollection = false
        var size: Int64 = 0
        var modified = Date(timeIntervalSince1970: 0)
        var etag: String?

        mutating func merge(_ propstat: Propstat) {
            isCollection = isCollection || propstat.isCollection
            if let size = propstat.size { self.size = size }
            if let modified = propstat.modified { self.modified = modified }
            if let etag = propstat.etag { self.etag = etag }
        }

        func resource(href: String) throws(Malformed) -> WebDAVResource {
            // An href is an absolute path or a full URL (RFC 4918 §8.3); either way its path counts.
            var path = href
            if let schemeEnd = href.range(of: "://") {
                let afterAuthority = href[schemeEnd.upperBound...].firstIndex(of: "/") ?? href.endIndex
                path = String(href[afterAuthority...])
            }
            guard let decoded = path.removingPercentEncoding else {
                throw Malformed(reason: "the href \(href) is not percent-encoded UTF-8")
            }
            var trimmed = decoded
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            return WebDAVResource(
                path: trimmed, isCollection: isCollection, size: isCollection ? 0 : size, modified: modified, etag: etag
            )
        }
    }

    /// The element's name without namespace prefix or attributes.
    private static func localName(_ tag: Substring) -> String {
        let name = tag.prefix { !$0.isWhitespace }
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return String(name)
    }

    private static func decodeEntities(_ text: String) throws(Malformed) -> String {
        do throws(XMLEntities.Failure) {
            return try XMLEntities.decode(text)
        } catch {
            throw Malformed(reason: error.reason)
        }
    }
}
