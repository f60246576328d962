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
    /// Whether the server sent the item's properties: `false` for a response whose own `status`
    /// is not 200 (a `Depth: infinity` answer cut short names what it left out with 507) or
    /// without a `propstat` of 200.
    var isComplete = true
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
    ///
    /// The body is read as bytes, in place: a listing of 100,000 items is 32 to 60 MB of XML,
    /// and a `String` per tag, or a copy of the body, cost more than the rest of a poll.
    static func parse(_ body: Data) throws(Malformed) -> [WebDAVResource] {
        let result = body.withUnsafeBytes { raw in
            Result { () throws(Malformed) -> [WebDAVResource] in
                var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
                return try reader.read()
            }
        }
        return try result.get()
    }

    /// Reads a body it does not own: used only inside ``parse(_:)``'s access to the bytes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var resources: [WebDAVResource] = []
        var current: Response?
        var propstat = Propstat()
        /// The open elements' local names, as ranges of `bytes`, innermost last.
        var stack: [Range<Int>] = []
        /// The text since the last tag, when it is one run of `bytes` (the usual case).
        var textRun: Range<Int> = 0..<0
        /// The text since the last tag, when comments or CDATA sections cut it in several runs.
        var textPieces: [UInt8]?
        /// Whether an open element is a `resourcetype`.
        var inResourceType = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func read() throws(Malformed) -> [WebDAVResource] {
            var index = 0
            let count = bytes.count
            while index < count {
                if bytes[index] != UInt8(ascii: "<") {
                    let end = find(UInt8(ascii: "<"), from: index) ?? count
                    addText(index..<end)
                    index = end
                    continue
                }
                if matches("<!--", at: index) {
                    guard let end = find("-->", from: index + 4) else {
                        throw Malformed(reason: "a comment is not closed")
                    }
                    index = end + 3
                    continue
                }
                if matches("<![CDATA[", at: index) {
                    guard let end = find("]]>", from: index + 9) else {
                        throw Malformed(reason: "a CDATA section is not closed")
                    }
                    addCharacterData((index + 9)..<end)
                    index = end + 3
                    continue
                }
                guard let end = find(UInt8(ascii: ">"), from: index + 1) else {
                    throw Malformed(reason: "a tag is not closed")
                }
                let tagStart = index + 1
                index = end + 1
                if tagStart < end, bytes[tagStart] == UInt8(ascii: "?") || bytes[tagStart] == UInt8(ascii: "!") {
                    continue
                }
                if tagStart < end, bytes[tagStart] == UInt8(ascii: "/") {
                    try close(localName(in: (tagStart + 1)..<end))
                } else {
                    let selfClosing = end > tagStart && bytes[end - 1] == UInt8(ascii: "/")
                    open(localName(in: tagStart..<(selfClosing ? end - 1 : end)), selfClosing: selfClosing)
                }
            }
            guard stack.isEmpty else {
                throw Malformed(reason: "the body ends inside <\(string(stack[stack.count - 1]))>")
            }
            return resources
        }

        private mutating func addText(_ run: Range<Int>) {
            guard !run.isEmpty else { return }
            if textPieces == nil, textRun.isEmpty {
                textRun = run
                return
            }
            if textPieces == nil { textPieces = Array(bytes[textRun]) }
            textPieces!.append(contentsOf: bytes[run])
        }

        /// Adds a CDATA section's text, which holds no entities: an ampersand in it is added as
        /// `&amp;`, so that the entities of the text around it are decoded and it is not.
        private mutating func addCharacterData(_ run: Range<Int>) {
            guard bytes[run].contains(UInt8(ascii: "&")) else { return addText(run) }
            if textPieces == nil { textPieces = Array(bytes[textRun]) }
            for byte in bytes[run] {
                if byte == UInt8(ascii: "&") {
                    textPieces!.append(contentsOf: "&amp;".utf8)
                } else {
                    textPieces!.append(byte)
                }
            }
        }

        private mutating func clearText() {
            textRun = 0..<0
            textPieces = nil
        }

        private mutating func open(_ name: Range<Int>, selfClosing: Bool) {
            clearText()
            if equals(name, "response") { current = Response() }
            if inResourceType > 0, equals(name, "collection") { propstat.isCollection = true }
            guard !selfClosing else { return }
            if equals(name, "resourcetype") { inResourceType += 1 }
            stack.append(name)
        }

        private mutating func close(_ name: Range<Int>) throws(Malformed) {
            guard let open = stack.last, same(open, name) else {
                throw Malformed(reason: "</\(string(name))> does not close <\(stack.last.map(string) ?? "")>")
            }
            stack.removeLast()
            defer { clearText() }
            let parent = stack.last
            switch name.count {
            case 4 where equals(name, "href") && parent.map({ equals($0, "response") }) == true:
                let href = try value()
                current?.href = href
            case 6 where equals(name, "status") && parent.map({ equals($0, "propstat") }) == true:
                propstat.ok = withTrimmedText(Self.isOK)
            case 6 where equals(name, "status") && parent.map({ equals($0, "response") }) == true:
                if !withTrimmedText(Self.isOK) { current?.failed = true }
            case 16 where equals(name, "getcontentlength"):
                propstat.size = withTrimmedText(Self.integer)
            case 15 where equals(name, "getlastmodified"):
                propstat.modified = withTrimmedText { text in
                    HTTPDate.parse(fixdate: text) ?? HTTPDate.parse(String(decoding: text, as: UTF8.self))
                }
            case 7 where equals(name, "getetag"):
                let etag = try value()
                propstat.etag = etag.isEmpty ? nil : etag
            case 12 where equals(name, "resourcetype"):
                inResourceType -= 1
            case 8 where equals(name, "propstat"):
                if propstat.ok { current?.merge(propstat) }
                propstat = Propstat()
            case 8 where equals(name, "response"):
                guard let response = current, let href = response.href else {
                    throw Malformed(reason: "a response has no href")
                }
                resources.append(try response.resource(href: href))
                current = nil
            default: break
            }
        }

        /// Whether `text` is a status line of 200 (`HTTP/1.1 200 OK`: the second word).
        private static func isOK(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            let words = text.split(separator: UInt8(ascii: " "), maxSplits: 2)
            return words.count >= 2 && words[1].elementsEqual("200".utf8)
        }

        /// `text` as a decimal number without sign, or `nil`.
        private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
            guard !text.isEmpty, text.count <= 18 else {
                // Longer: digits only still (no sign), and `nil` past `Int64.max`.
                guard !text.isEmpty, text.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
                return Int64(String(decoding: text, as: UTF8.self))
            }
            var value: Int64 = 0
            for byte in text {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }

        /// Whether `byte` is XML white space (space, tab, line feed, carriage return).
        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        /// Calls `body` with the text since the last tag, without XML white space at either end.
        private func withTrimmedText<T, Failure: Error>(
            _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> T
        ) throws(Failure) -> T {
            func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
                var start = 0
                var end = text.count
                while start < end, Self.isSpace(text[start]) { start += 1 }
                while end > start, Self.isSpace(text[end - 1]) { end -= 1 }
                return UnsafeBufferPointer(rebasing: text[start..<end])
            }
            guard let pieces = textPieces else {
                return try body(trimmed(UnsafeBufferPointer(rebasing: bytes[textRun])))
            }
            let result = pieces.withUnsafeBufferPointer { buffer in
                Result { () throws(Failure) -> T in try body(trimmed(buffer)) }
            }
            return try result.get()
        }

        /// The trimmed text with its entities replaced.
        private func value() throws(Malformed) -> String {
            try withTrimmedText { text throws(Malformed) -> String in
                let string = String(decoding: text, as: UTF8.self)
                guard text.contains(UInt8(ascii: "&")) else { return string }
                do throws(XMLEntities.Failure) {
                    return try XMLEntities.decode(string)
                } catch {
                    throw Malformed(reason: error.reason)
                }
            }
        }

        /// The element's name in a tag's bytes, without namespace prefix or attributes.
        private func localName(in tag: Range<Int>) -> Range<Int> {
            var end = tag.lowerBound
            var start = tag.lowerBound
            while end < tag.upperBound {
                let byte = bytes[end]
                if Self.isSpace(byte) { break }
                if byte == UInt8(ascii: ":") { start = end + 1 }
                end += 1
            }
            return start..<end
        }

        /// Whether two ranges of `bytes` hold the same bytes.
        private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count
                && (a.isEmpty
                    || memcmp(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, a.count) == 0)
        }

        private func equals(_ name: Range<Int>, _ literal: StaticString) -> Bool {
            guard name.count == literal.utf8CodeUnitCount else { return false }
            return name.isEmpty || memcmp(bytes.baseAddress! + name.lowerBound, literal.utf8Start, name.count) == 0
        }

        private func matches(_ literal: StaticString, at index: Int) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard index + length <= bytes.count else { return false }
            return memcmp(bytes.baseAddress! + index, literal.utf8Start, length) == 0
        }

        /// Where `byte` next is at or after `start`.
        private func find(_ byte: UInt8, from start: Int) -> Int? {
            guard start < bytes.count, let base = bytes.baseAddress,
                let found = memchr(base + start, Int32(byte), bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }

        /// Where `literal` next starts at or after `start`.
        private func find(_ literal: StaticString, from start: Int) -> Int? {
            let first = literal.utf8Start.pointee
            var index = start
            while let candidate = find(first, from: index) {
                if matches(literal, at: candidate) { return candidate }
                index = candidate + 1
            }
            return nil
        }

        private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
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
        /// Whether a `propstat` of 200 came.
        var found = false
        /// Whether the response's own status was not 200.
        var failed = false

        mutating func merge(_ propstat: Propstat) {
            found = true
            isCollection = isCollection || propstat.isCollection
            if let size = propstat.size { self.size = size }
            if let modified = propstat.modified { self.modified = modified }
            if let etag = propstat.etag { self.etag = etag }
        }

        func resource(href: String) throws(Malformed) -> WebDAVResource {
            // An href is an absolute path or a full URL (RFC 4918 §8.3); either way its path counts.
            var path = href
            if !href.hasPrefix("/"), let schemeEnd = href.range(of: "://") {
                let afterAuthority = href[schemeEnd.upperBound...].firstIndex(of: "/") ?? href.endIndex
                path = String(href[afterAuthority...])
            }
            guard var trimmed = Self.percentDecoded(path) else {
                throw Malformed(reason: "the href \(href) is not percent-encoded UTF-8")
            }
            while trimmed.utf8.count > 1, trimmed.utf8.last == UInt8(ascii: "/") { trimmed.removeLast() }
            return WebDAVResource(
                path: trimmed, isCollection: isCollection, size: isCollection ? 0 : size, modified: modified,
                etag: etag,
                isComplete: found && !failed)
        }

        /// `text` with its `%XX` escapes replaced, or `nil` when an escape is cut short or the
        /// bytes are not UTF-8 (as `removingPercentEncoding`, without Foundation's cost per call).
        static func percentDecoded(_ text: String) -> String? {
            guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
            func hex(_ byte: UInt8) -> UInt8? {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                default: nil
                }
            }
            let input = Array(text.utf8)
            var output: [UInt8] = []
            output.reserveCapacity(input.count)
            var index = 0
            while index < input.count {
                guard input[index] == UInt8(ascii: "%") else {
                    output.append(input[index])
                    index += 1
                    continue
                }
                guard index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2]) else {
                    return nil
                }
                output.append(high << 4 | low)
                index += 3
            }
            return String(validating: output, as: UTF8.self)
        }
    }
}
