/// Just enough of Swift's lexical structure to find top-level declarations: identifiers,
/// attributes (`@Name` or `@Module.Name`, arguments skipped), braces and `#if`/`#endif`; comments,
/// string literals (raw, multi-line, with interpolations) and everything else are skipped.
/// Regex literals are not recognized (a `"` or a brace inside one at the top level could mislead it).
///
/// ```swift
/// var lexer = SwiftLexer("@Mockable(sendable: false) protocol P { }")
/// lexer.next()   // .attribute("Mockable")
/// lexer.next()   // .identifier("protocol")
/// ```
struct SwiftLexer {
    enum Token: Equatable {
        case identifier(String)
        case attribute(String)
        case directive(String)
        case openBrace
        case closeBrace
        case other
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    /// The next token, or `nil` at the end.
    mutating func next() -> Token? {
        skipTrivia()
        guard let byte = peek() else { return nil }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            return .openBrace
        case UInt8(ascii: "}"):
            index += 1
            return .closeBrace
        case UInt8(ascii: "\""):
            skipString(hashes: 0)
            return .other
        case UInt8(ascii: "#"):
            var hashes = 0
            while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
            if peek(hashes) == UInt8(ascii: "\"") {
                index += hashes
                skipString(hashes: hashes)
                return .other
            }
            index += 1
            return .directive(identifier() ?? "")
        case UInt8(ascii: "@"):
            index += 1
            var name = identifier() ?? ""
            while peek() == UInt8(ascii: "."), Self.startsIdentifier(peek(1)) {
                index += 1
                name += "." + (identifier() ?? "")
            }
            skipTrivia()
            if peek() == UInt8(ascii: "(") { skipBalanced() }
            return .attribute(name)
        default:
            if let word = identifier() { return .identifier(word) }
            index += 1
            return .other
        }
    }

    // MARK: Pieces

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private static func startsIdentifier(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte == UInt8(ascii: "_") || byte == UInt8(ascii: "`") || byte >= 0x80
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func continuesIdentifier(_ byte: UInt8) -> Bool {
        startsIdentifier(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// An identifier or keyword at the current position (backticks removed), or `nil`.
    private mutating func identifier() -> String? {
        guard Self.startsIdentifier(peek()) else { return nil }
        if peek() == UInt8(ascii: "`") {
            let start = index + 1
            index += 1
            while let byte = peek(), byte != UInt8(ascii: "`"), byte != UInt8(ascii: "\n") { index += 1 }
            defer { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let start = index
        while let byte = peek(), Self.continuesIdentifier(byte), byte != UInt8(ascii: "`") { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips whitespace and comments (block comments nest).
    private mutating func skipTrivia() {
        while let byte = peek() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
            {
                index += 1
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let byte = peek(), byte != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                index += 2
                var depth = 1
                while depth > 0, peek() != nil {
                    if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                        depth += 1
                        index += 2
                    } else if peek() == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                }
            } else {
                return
            }
        }
    }

    /// Skips a string literal that starts at the current `"` (after `hashes` `#`s), including
    /// multi-line strings and interpolations, which may hold strings of their own.
    private mutating func skipString(hashes: Int) {
        let multiLine = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        index += multiLine ? 3 : 1
        while let byte = peek() {
            if byte == UInt8(ascii: "\\"), hashesFollow(hashes, from: index + 1) {
                index += 1 + hashes
                if peek() == UInt8(ascii: "(") { skipBalanced() } else { index += 1 }
            } else if byte == UInt8(ascii: "\""),
                !multiLine || (peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")),
                hashesFollow(hashes, from: index + (multiLine ? 3 : 1))
            {
                index += (multiLine ? 3 : 1) + hashes
                return
            } else if byte == UInt8(ascii: "\n"), !multiLine {
                return
            } else {
                index += 1
            }
        }
    }

    private func hashesFollow(_ count: Int, from start: Int) -> Bool {
        (0..<count).allSatisfy { start + $0 < bytes.count && bytes[start + $0] == UInt8(ascii: "#") }
    }

    /// Skips a parenthesized run starting at the current `(`, through strings and comments.
    private mutating func skipBalanced() {
        var depth = 0
        repeat {
            skipTrivia()
            guard let byte = peek() else { return }
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                index += 1
            case UInt8(ascii: ")"):
                depth -= 1
                index += 1
            case UInt8(ascii: "\""), UInt8(ascii: "#"):
                _ = next()
            default:
                index += 1
            }
        } while depth > 0
    }
}
