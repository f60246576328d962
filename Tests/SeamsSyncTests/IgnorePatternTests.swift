import Foundation
import Testing

@testable import SeamsSync

/// `.gitignore` patterns as git reads them (gitignore(5)), one case a row.
struct IgnorePatternTests {
    /// A pattern, a path relative to the pattern's folder, whether it is a folder, and whether
    /// the pattern matches it.
    struct Case: CustomTestStringConvertible, Sendable {
        let pattern: String
        let path: String
        let isFolder: Bool
        let matches: Bool

        init(_ pattern: String, _ path: String, folder: Bool = false, _ matches: Bool) {
            (self.pattern, self.path, self.isFolder, self.matches) = (pattern, path, folder, matches)
        }

        var testDescription: String {
            "\(pattern) \(matches ? "matches" : "does not match") \(path)\(isFolder ? "/" : "")"
        }
    }

    static let cases: [Case] = [
        // A name without a slash matches at any depth.
        Case("node_modules", "node_modules", folder: true, true),
        Case("node_modules", "web/app/node_modules", folder: true, true),
        Case("node_modules", "node_modules_old", folder: true, false),
        Case("*.log", "a.log", true),
        Case("*.log", "deep/er/b.log", true),
        Case("*.log", "a.log.txt", false),
        Case("._*", "._photo.jpg", true),
        Case("._*", "x._photo.jpg", false),
        Case("~$*", "~$report.docx", true),
        // A trailing slash: folders only.
        Case("build/", "build", folder: true, true),
        Case("build/", "build", folder: false, false),
        Case("build/", "src/build", folder: true, true),
        // A leading or middle slash anchors to the pattern's folder.
        Case("/build", "build", folder: true, true),
        Case("/build", "src/build", folder: true, false),
        Case("doc/*.txt", "doc/notes.txt", true),
        Case("doc/*.txt", "doc/server/notes.txt", false),
        Case("doc/*.txt", "other/doc/notes.txt", false),
        // `**`.
        Case("**/foo", "foo", true),
        Case("**/foo", "a/b/foo", true),
        Case("**/foo/bar", "x/foo/bar", true),
        Case("abc/**", "abc/x", true),
        Case("abc/**", "abc/x/y", true),
        Case("abc/**", "abc", folder: true, false),
        Case("a/**/b", "a/b", true),
        Case("a/**/b", "a/x/b", true),
        Case("a/**/b", "a/x/y/b", true),
        Case("a/**/b", "a/x/y/c", false),
        Case("a**b", "axyb", true),  // `**` inside a name is `*`
        Case("a**b", "ax/yb", false),
        // `?` and sets.
        Case("file?.txt", "file1.txt", true),
        Case("file?.txt", "file10.txt", false),
        Case("[abc].md", "b.md", true),
        Case("[abc].md", "d.md", false),
        Case("[!abc].md", "d.md", true),
        Case("[^abc].md", "a.md", false),
        Case("[a-c]x", "bx", true),
        Case("[a-c]x", "dx", false),
        Case("v[[:digit:]]", "v7", true),
        Case("v[[:digit:]]", "vx", false),
        Case("[]]", "]", true),
        // Escapes and spaces.
        Case("\\#notes", "#notes", true),
        Case("\\!important", "!important", true),
        Case("star\\*", "star*", true),
        Case("star\\*", "stars", false),
        Case("trailing   ", "trailing", true),
        Case("kept\\ ", "kept ", true),
        Case("é.txt", "é.txt", true),
        Case("**", "a/b", true),
        Case("**/", "a", folder: true, true),
    ]

    @Test(arguments: cases)
    func matches(_ row: Case) throws {
        let pattern = try #require(try IgnorePattern.parse(row.pattern))
        let names = row.path.split(separator: "/")
        #expect(pattern.matches(names.dropLast(), names.last!, isFolder: row.isFolder) == row.matches)
    }

    @Test("blank lines and comments are no pattern; a leading ! negates")
    func linesThatAreNotPatterns() throws {
        #expect(try IgnorePattern.parse("") == nil)
        #expect(try IgnorePattern.parse("   ") == nil)
        #expect(try IgnorePattern.parse("# a comment") == nil)
        let negated = try #require(try IgnorePattern.parse("!keep.log"))
        #expect(negated.negated)
        #expect(negated.matches([], "keep.log", isFolder: false))
    }

    @Test(
        "a line that cannot mean what it says is a problem that says why",
        arguments: [
            ("[abc", IgnorePattern.Problem.unclosedBracket),
            ("ends\\", .trailingBackslash),
            ("!", .emptyNegation),
            ("[[:nope:]]", .unknownClass("nope")),
        ])
    func problems(line: String, problem: IgnorePattern.Problem) {
        #expect(throws: problem) { try IgnorePattern.parse(line) }
    }

    @Test("the last matching pattern decides; --exclude wins over a file's !; a deeper file wins over the root's")
    func precedence() throws {
        var rules = try IgnoreRules(defaults: false, excludes: [])
        try rules.addFile(Data("*.log\n!keep.log\n".utf8), in: nil, at: URL(filePath: "/r/.seamsignore"))
        #expect(rules.ignores("a.log", in: nil, isFolder: false))
        #expect(!rules.ignores("keep.log", in: nil, isFolder: false))
        #expect(!rules.ignores("keep.log", in: SyncPath("sub"), isFolder: false))
        try rules.addFile(
            Data("keep.log\n/local.txt\n".utf8), in: SyncPath("sub"), at: URL(filePath: "/r/sub/.seamsignore"))
        #expect(rules.ignores("keep.log", in: SyncPath("sub"), isFolder: false), "the deeper file wins")
        #expect(rules.ignores("local.txt", in: SyncPath("sub"), isFolder: false), "anchored to its own folder")
        #expect(!rules.ignores("local.txt", in: nil, isFolder: false))
        #expect(!rules.ignores("local.txt", in: SyncPath("sub/deeper"), isFolder: false))

        var overriding = try IgnoreRules(defaults: false, excludes: ["keep.log"])
        try overriding.addFile(Data("!keep.log\n".utf8), in: nil, at: URL(filePath: "/r/.seamsignore"))
        #expect(overriding.ignores("keep.log", in: nil, isFolder: false))
    }

    @Test(
        "the first-byte pass over a folder's patterns never hides a match: literal starts, a wildcard start, a non-ASCII start, a trailing **"
    )
    func firstBytePass() throws {
        let literal = try IgnoreRules(defaults: false, excludes: ["._*", "build/", "/dist"])
        #expect(literal.inFolder(nil).firstBytes != nil)
        #expect(literal.ignores("._x", in: SyncPath("a"), isFolder: false))
        #expect(literal.ignores("build", in: SyncPath("a"), isFolder: true))
        #expect(literal.ignores("dist", in: nil, isFolder: true))
        #expect(!literal.ignores("x._", in: nil, isFolder: false))
        for (pattern, name) in [("*.log", "a.log"), ("é*", "été"), ("keep/**", "anything")] {
            let rules = try IgnoreRules(defaults: true, excludes: [pattern])
            #expect(rules.inFolder(SyncPath("keep")).firstBytes == nil, "\(pattern)")
            let parent: SyncPath? = pattern.hasPrefix("keep") ? SyncPath("keep") : nil
            #expect(rules.ignores(name, in: parent, isFolder: false), "\(pattern) \(name)")
        }
    }

    @Test("a file saved on Windows (CRLF) or with a byte-order mark reads as the same lines")
    func lineEnds() throws {
        var rules = IgnoreRules()
        try rules.addFile(
            Data("\u{FEFF}# rules\r\n*.log\r\n!keep.log\r\n\r\nbuild/\n".utf8), in: nil,
            at: URL(filePath: "/r/.seamsignore"))
        #expect(rules.ignores("a.log", in: nil, isFolder: false))
        #expect(!rules.ignores("keep.log", in: nil, isFolder: false))
        #expect(rules.ignores("build", in: nil, isFolder: true))
        #expect(SyncOptions.ignoreFileLines("a\r\nb\n\nc") == ["a", "b", "", "c"])
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "/r/.seamsignore", line: 3, pattern: "[x",
                reason: IgnorePattern.Problem.unclosedBracket.description)
        ) {
            var other = IgnoreRules()
            try other.addFile(Data("a\r\nb\r\n[x\r\n".utf8), in: nil, at: URL(filePath: "/r/.seamsignore"))
        }
    }

    @Test(".seamsignore and its conflict copies are the user's; every other .seams name is the tool's")
    func ownNames() {
        #expect(!OwnNames.isOwn(".seamsignore"))
        #expect(!OwnNames.isOwn(".seamsignore.sync-conflict-20261126-101500-local"))
        #expect(OwnNames.isOwn(".seamsignored"))
        #expect(OwnNames.isOwn(".seams-trash"))
        #expect(!OwnNames.isOwn("notes.seams"))
    }

    @Test("platform junk is a default pattern's file name")
    func junk() {
        for name in [".DS_Store", "Thumbs.db", "desktop.ini", "._IMG.JPG", "~$Budget.xlsx"] {
            #expect(IgnoreRules.isPlatformJunk(name), "\(name)")
        }
        for name in ["notes.txt", "DS_Store", "node_modules"] { #expect(!IgnoreRules.isPlatformJunk(name), "\(name)") }
    }

    @Test("the defaults leave platform junk alone, and only when asked")
    func defaults() throws {
        let on = try IgnoreRules(defaults: true, excludes: [])
        for name in [".DS_Store", "._IMG_0001.JPG", "Thumbs.db", "desktop.ini", ".Trash-1000", "~$Budget.xlsx"] {
            #expect(on.ignores(name, in: SyncPath("Photos"), isFolder: name.hasPrefix(".Trash")), "\(name)")
        }
        #expect(!on.ignores("photo.jpg", in: nil, isFolder: false))
        #expect(!on.ignores("DS_Store", in: nil, isFolder: false))
        let off = try IgnoreRules(defaults: false, excludes: [])
        #expect(!off.ignores(".DS_Store", in: nil, isFolder: false))
        #expect(off.isEmpty)
    }

    @Test(
        "a bad --exclude or file line is SyncError.badIgnoreRule with its source and line; a file that is not UTF-8 too"
    )
    func badRules() throws {
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "--exclude", line: 2, pattern: "[x", reason: IgnorePattern.Problem.unclosedBracket.description)
        ) {
            try IgnoreRules(defaults: true, excludes: ["ok", "[x"])
        }
        var rules = IgnoreRules()
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "/r/.seamsignore", line: 3, pattern: "a\\",
                reason: IgnorePattern.Problem.trailingBackslash.description)
        ) {
            try rules.addFile(Data("# fine\nfine\na\\\n".utf8), in: nil, at: URL(filePath: "/r/.seamsignore"))
        }
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "/r/.seamsignore", line: 0, pattern: "", reason: "it is not UTF-8 text")
        ) {
            try rules.addFile(Data([0xFF, 0xFE, 0x00]), in: nil, at: URL(filePath: "/r/.seamsignore"))
        }
        #expect(rules.isEmpty, "a file that failed adds nothing")
    }
}
