import Foundation

/// Replaces the values of named members of a JSON document, wherever they are nested, and leaves
/// every other byte as it was (key order, spacing and number spelling included), so a recorded
/// body differs from the live one only where a secret was.
struct JSONFieldRedactor {
    /// Member names, lowercased: matched without regard to case.
    let fields: Set<String>
    /// The JSON text a redacted value becomes.
    let replacement: [UInt8]

    private static let maximumDepth = 512

    init(fields: Set<String>, placeholder: String) {
        self.fields = Set(fields.map { $0.lowercased() })
        replacement = Array(((try? JSONEncoder().encode(placeholder)) ?? Data(#""REDACTED""#.utf8)))
    }

    /// `data` with the named members' values replaced, or `nil` when it is not JSON or names none.
    func redact(_ data: Data) -> Data? {
        guard !fields.isEmpty else { return nil }
        var scanner = Scanner(bytes: Array(data), fields: fields)
        guard scanner.skipValue(depth: 0), scanner.atEndAfterSpace(), !scanner.spans.isEmpty else { return nil }
        var bytes = scanner.bytes
        for span in scanner.spans.reversed() {
            bytes.replaceSubrange(span, with: replacement)
        }
        return Data(bytes)
    }

    /// A JSON scanner that validates as it goes and notes the byte ranges of named members' values.
    private struct Scanner {
        let bytes: [UInt8]
        let fields: Set<String>
        var index = 0
        var spans: [Range<Int>] = []

        init(bytes: [UInt8], fields: Set<String>) {
            self.bytes = bytes
            self.fields = fields
        }

        mutating func atEndAfterSpace() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func skipValue(depth: Int) -> Bool {
            guard depth < JSONFieldRedactor.maximumDepth else { return false }
            skipSpace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"): return skipObject(depth: depth)
            case UInt8(ascii: "["): return skipArray(depth: depth)
            case UInt8(ascii: "\""): return skipString() != nil
            default: return skipScalar()
            }
        }

        private mutating func skipObject(depth: Int) -> Bool {
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return true
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let keyRange = skipString() else {
                    return false
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
                skipSpace()
                let start = index
                let before = spans.count
                guard skipValue(depth: depth + 1) else { return false }
                let key = (try? JSONDecoder().decode(String.self, from: Data(bytes[keyRange]))) ?? ""
                if fields.contains(key.lowercased()) {
                    spans.removeSubrange(before...)  // the whole value goes, nested secrets with it
                    spans.append(start..<index)
                }
                skipSpace()
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return true
                } else {
                    return false
                }
            }
        }

        private mutating func skipArray(depth: Int) -> Bool {
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return true
            }
            while true {
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return true
                } else {
                    return false
                }
            }
        }

        /// Skips a string starting at its opening quote; returns its range, quotes included.
        private mutating func skipString() -> Range<Int>? {
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                case 0x00..<0x20: return nil
                default: index += 1
                }
            }
            return nil
        }

        private mutating func skipScalar() -> Bool {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                let isScalarByte =
                    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "E")
                guard isScalarByte else { break }
                index += 1
            }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            return ["true", "false", "null"].contains(word)
                || (Double(word) != nil && !word.contains { $0.isLetter && $0 != "e" && $0 != "E" })
        }
    }
}
