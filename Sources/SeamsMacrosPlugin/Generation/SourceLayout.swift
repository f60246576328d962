/// Lays out generated source: each line indented four spaces per open bracket before it.
///
/// The generators join pieces written at different depths, so their lines carry no reliable
/// indentation. swift-syntax's formatter would fix that, but it needs the text parsed, and the
/// plugin hands its text to the compiler unparsed (``VerbatimSource``); this pass reads the text
/// once, as bytes. Its rules fit what the generators write:
///
/// - a line starting with closing brackets is indented as the depth they close to (`} catch {`);
/// - a `case` or `default:` label sits at its `switch`'s depth;
/// - brackets inside string literals and after `//` do not count; blank lines stay empty, and
///   none is kept right before a line that starts with `}`.
enum SourceLayout {
    /// `text` with every line's leading and trailing whitespace replaced by its indentation.
    static func indented(_ text: String) -> String {
        var depth = 0
        var output = ""
        output.reserveCapacity(text.utf8.count + text.utf8.count / 2)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(\.trimmingSpaces)
        for (index, line) in lines.enumerated() {
            if index > 0 { output += "\n" }
            guard !line.isEmpty else {
                // A piece that wrote nothing leaves a blank line; none is kept before a closing brace.
                let next = lines[(index + 1)...].first { !$0.isEmpty }
                if index > 0, next?.hasPrefix("}") == true { output.removeLast() }
                continue
            }
            let scan = Scan(line)
            var indentation = max(depth - scan.leadingClosers, 0)
            if line.hasPrefix("case ") || line.hasPrefix("default:") { indentation = max(indentation - 1, 0) }
            output += String(repeating: " ", count: 4 * indentation)
            output += line
            depth = max(depth + scan.balance, 0)
        }
        return output
    }

    /// The brackets of one line, outside string literals and comments.
    private struct Scan {
        /// Closing brackets before anything else on the line.
        var leadingClosers = 0
        /// Opened minus closed.
        var balance = 0

        init(_ line: Substring) {
            var inString = false
            var escaped = false
            var leading = true
            var previous: UInt8 = 0
            for byte in line.utf8 {
                defer { previous = byte }
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    leading = false
                case UInt8(ascii: "/") where previous == UInt8(ascii: "/"):
                    return
                case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                    balance += 1
                    leading = false
                case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                    balance -= 1
                    if leading { leadingClosers += 1 }
                default:
                    leading = false
                }
            }
        }
    }
}

extension Substring {
    /// The line without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return self[start...end]
    }
}
