import Foundation

/// One line of an ignore file, in `.gitignore` syntax, compiled.
///
/// - `#` starts a comment and a blank line is nothing; `\#` and `\!` are those characters.
/// - `!` re-includes what an earlier pattern excluded.
/// - A trailing `/` matches folders only.
/// - A pattern with a `/` at its start or in its middle is anchored: it matches paths relative to
///   the folder of the file that holds it (or the synced root, for rules given on the command line);
///   one without matches a name at any depth.
/// - `*` is any run of characters but `/`, `?` one character but `/`, `[a-z]`, `[!abc]`, `[^abc]`
///   and `[[:digit:]]` one character of (or not of) a set, `\x` the character `x`.
/// - `**/` at the start matches in every folder, `/**` at the end everything inside, `/**/` zero
///   or more folders; `**` elsewhere is `*`.
/// - Trailing spaces are dropped unless escaped with `\`.
struct IgnorePattern: Hashable, Sendable {
    /// Whether a match re-includes the path (`!`).
    let negated: Bool
    /// Whether only folders match (a trailing `/`).
    let foldersOnly: Bool
    /// Whether the pattern matches paths from its file's folder (it held a `/`), not a name at any depth.
    let anchored: Bool
    /// The pattern's `/`-separated parts; `**` is a part of its own.
    let parts: [Part]
    /// The line as written, for messages.
    let text: String

    /// One `/`-separated part.
    enum Part: Hashable, Sendable {
        /// Any number of folders (`**`).
        case anyFolders
        /// A name, matched by ``Glob``.
        case name(Glob)
    }

    /// Why a line is not a pattern.
    enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// `[` with no `]`.
        case unclosedBracket
        /// A `\` with nothing after it.
        case trailingBackslash
        /// `!` with no pattern after it.
        case emptyNegation
        /// `[[:name:]]` with a class name git does not know.
        case unknownClass(String)

        var description: String {
            switch self {
            case .unclosedBracket: "a [ with no closing ]"
            case .trailingBackslash: "a \\ at the end of the pattern escapes nothing"
            case .emptyNegation: "a ! with no pattern after it"
            case .unknownClass(let name):
                "[:\(name):] is not a character class (alpha, digit, alnum, upper, lower, space, punct, xdigit, blank, cntrl, graph, print)"
            }
        }
    }

    /// Compiles one line.
    ///
    /// - Parameter line: A line of an ignore file, without its line end.
    /// - Returns: The pattern, or `nil` for a blank line or a comment.
    /// - Throws: ``Problem`` when the line cannot mean what it says (git would read it and match nothing).
    static func parse(_ line: String) throws(Problem) -> IgnorePattern? {
        var scalars = Array(line.unicodeScalars)
        if scalars.last == "\r" { scalars.removeLast() }
        // Trailing spaces go, unless the last one is escaped.
        while scalars.last == " " {
            let backslashes = scalars.dropLast().reversed().prefix { $0 == "\\" }.count
            if backslashes % 2 == 1 { break }
            scalars.removeLast()
        }
        if scalars.isEmpty || scalars.first == "#" { return nil }
        var negated = false
        if scalars.first == "!" {
            negated = true
            scalars.removeFirst()
            if scalars.isEmpty { throw .emptyNegation }
        }
        var foldersOnly = false
        if scalars.last == "/" {
            foldersOnly = true
            while scalars.last == "/" { scalars.removeLast() }
        }
        if scalars.isEmpty { return nil }  // "/" alone matches nothing
        let anchored = scalars.contains("/")
        while scalars.first == "/" { scalars.removeFirst() }
        var parts: [Part] = []
        for piece in scalars.split(separator: "/", omittingEmptySubsequences: true) {
            if piece.elementsEqual("**".unicodeScalars) {
                if parts.last != .anyFolders { parts.append(.anyFolders) }
            } else {
                parts.append(.name(try Glob(Array(piece))))
            }
        }
        return IgnorePattern(negated: negated, foldersOnly: foldersOnly, anchored: anchored, parts: parts, text: line)
    }

    /// The byte every name this pattern matches starts with, when there is one: the first byte of
    /// its last part when that starts with a literal ASCII character (`.DS_Store`, `/build`, `._*`);
    /// `nil` for one that starts with a wildcard, a set or another character, or ends in `**`.
    var firstByteOfName: UInt8? {
        guard case .name(let glob)? = parts.last, case .literal(let scalar)? = glob.tokens.first, scalar.isASCII else {
            return nil
        }
        return UInt8(scalar.value)
    }

    /// Whether the pattern matches a path, given as its folders relative to the pattern's folder
    /// and its name.
    ///
    /// - Parameters:
    ///   - folders: The folders from the pattern's folder down to the path's own (empty for an
    ///     item of the pattern's folder).
    ///   - name: The path's last name.
    ///   - isFolder: Whether the path is a folder.
    func matches(_ folders: ArraySlice<Substring>, _ name: Substring, isFolder: Bool) -> Bool {
        if foldersOnly && !isFolder { return false }
        if !anchored {
            switch parts.first {
            case .name(let glob)?: return glob.matches(name)
            case .anyFolders?: return true  // `**` alone: everything
            case nil: return false
            }
        }
        // An anchored pattern of one name (`/build`) matches items of its own folder only.
        if parts.count == 1, case .name(let glob) = parts[0] { return folders.isEmpty && glob.matches(name) }
        return Self.match(parts[...], Array(folders) + [name])
    }

    /// Matches parts against names, `**` taking zero or more names (at least one when it ends the pattern).
    private static func match(_ parts: ArraySlice<Part>, _ names: [Substring]) -> Bool {
        match(parts, names[...])
    }

    private static func match(_ parts: ArraySlice<Part>, _ names: ArraySlice<Substring>) -> Bool {
        guard let part = parts.first else { return names.isEmpty }
        switch part {
        case .anyFolders:
            let rest = parts.dropFirst()
            if rest.isEmpty { return !names.isEmpty }
            var remaining = names
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        case .name(let glob):
            guard let name = names.first, glob.matches(name) else { return false }
            return match(parts.dropFirst(), names.dropFirst())
        }
    }
}

/// A name pattern: literal characters, `*`, `?`, bracket sets, escapes.
struct Glob: Hashable, Sendable {
    /// One element of the pattern.
    enum Token: Hashable, Sendable {
        case literal(Unicode.Scalar)
        case any
        case one
        case set(CharacterSet, negated: Bool)
    }

    /// The tokens, consecutive `*` as one.
    let tokens: [Token]
    /// The whole pattern as literal text when it has no wildcard (the common case, compared at once).
    let literal: String?
    /// The literal text before a single trailing `*` (`._*`, `~$*`), compared as a prefix.
    let prefix: String?
    /// The literal text after a single leading `*` (`*.log`), compared as a suffix.
    let suffix: String?

    /// Compiles a name pattern.
    init(_ scalars: [Unicode.Scalar]) throws(IgnorePattern.Problem) {
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\":
                guard index + 1 < scalars.count else { throw .trailingBackslash }
                tokens.append(.literal(scalars[index + 1]))
                index += 2
                continue
            case "*":
                if tokens.last != .any { tokens.append(.any) }
            case "?":
                tokens.append(.one)
            case "[":
                let (set, negated, end) = try Self.bracket(scalars, from: index)
                tokens.append(.set(set, negated: negated))
                index = end
            default:
                tokens.append(.literal(scalar))
            }
            index += 1
        }
        self.tokens = tokens
        func text(_ slice: ArraySlice<Token>) -> String? {
            var result = String.UnicodeScalarView()
            for token in slice {
                guard case .literal(let scalar) = token else { return nil }
                result.append(scalar)
            }
            return String(result)
        }
        literal = text(tokens[...])
        prefix = tokens.count >= 1 && tokens.last == .any ? text(tokens.dropLast()) : nil
        suffix = tokens.count >= 1 && tokens.first == .any ? text(tokens.dropFirst()) : nil
    }

    /// Parses `[...]` starting at `start`; returns the set and the index of its `]`.
    private static func bracket(
        _ scalars: [Unicode.Scalar], from start: Int
    ) throws(IgnorePattern.Problem) -> (CharacterSet, Bool, Int) {
        var index = start + 1
        var negated = false
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
            negated = true
            index += 1
        }
        var set = CharacterSet()
        var first = true
        while index < scalars.count {
            var scalar = scalars[index]
            if scalar == "]" && !first { return (set, negated, index) }
            first = false
            if scalar == "[", index + 1 < scalars.count, scalars[index + 1] == ":" {
                guard
                    let close = (index + 2..<scalars.count).first(where: {
                        scalars[$0] == ":" && $0 + 1 < scalars.count && scalars[$0 + 1] == "]"
                    })
                else {
                    throw .unclosedBracket
                }
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                guard let named = Self.classes[name] else { throw .unknownClass(name) }
                set.formUnion(named)
                index = close + 2
                continue
            }
            if scalar == "\\" {
                guard index + 1 < scalars.count else { throw .trailingBackslash }
                index += 1
                scalar = scalars[index]
            }
            if index + 2 < scalars.count, scalars[index + 1] == "-", scalars[index + 2] != "]" {
                var upper = scalars[index + 2]
                var end = index + 2
                if upper == "\\" {
                    guard end + 1 < scalars.count else { throw .trailingBackslash }
                    end += 1
                    upper = scalars[end]
                }
                if scalar.value <= upper.value { set.insert(charactersIn: scalar...upper) }
                index = end + 1
                continue
            }
            set.insert(scalar)
            index += 1
        }
        throw .unclosedBracket
    }

    private static let classes: [String: CharacterSet] = [
        "alpha": .letters, "digit": CharacterSet(charactersIn: "0123456789"), "alnum": .alphanumerics,
        "upper": .uppercaseLetters, "lower": .lowercaseLetters, "space": .whitespacesAndNewlines,
        "blank": .whitespaces, "punct": .punctuationCharacters.union(.symbols), "cntrl": .controlCharacters,
        "xdigit": CharacterSet(charactersIn: "0123456789abcdefABCDEF"),
        "graph": CharacterSet.whitespacesAndNewlines.union(.controlCharacters).inverted,
        "print": CharacterSet.controlCharacters.union(.newlines).inverted,
    ]

    /// Whether `name` (one path name, no `/`) matches, comparing bytes as git does (a name in
    /// another Unicode normal form is another name).
    func matches(_ name: Substring) -> Bool {
        if let literal { return name.utf8.elementsEqual(literal.utf8) }
        if let prefix { return name.utf8.starts(with: prefix.utf8) }
        if let suffix {
            let bytes = name.utf8
            return bytes.count >= suffix.utf8.count && bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
        }
        return Self.match(tokens[...], Array(name.unicodeScalars)[...])
    }

    private static func match(_ tokens: ArraySlice<Token>, _ name: ArraySlice<Unicode.Scalar>) -> Bool {
        var tokens = tokens
        var name = name
        while let token = tokens.first {
            switch token {
            case .any:
                let rest = tokens.dropFirst()
                if rest.isEmpty { return true }
                var candidate = name
                while true {
                    if match(rest, candidate) { return true }
                    guard !candidate.isEmpty else { return false }
                    candidate = candidate.dropFirst()
                }
            case .one:
                guard !name.isEmpty else { return false }
            case .literal(let scalar):
                guard name.first == scalar else { return false }
            case .set(let set, let negated):
                guard let scalar = name.first, set.contains(scalar) != negated else { return false }
            }
            tokens = tokens.dropFirst()
            name = name.dropFirst()
        }
        return name.isEmpty
    }
}
