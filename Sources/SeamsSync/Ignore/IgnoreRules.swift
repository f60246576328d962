import Foundation

/// What a run leaves alone: patterns in `.gitignore` syntax, each list scoped to a folder.
///
/// The lists, lowest precedence first: the platform junk no user wants synced
/// (``defaultPatterns``, unless turned off), each `.seamsignore` from the root down (a deeper file
/// wins over a higher one, as in git), and the patterns given to the run (`--exclude`,
/// ``SyncOptions/excludes``), which win over every file. Within that order the last pattern that
/// matches a path decides; a path inside an ignored folder is ignored whatever follows, since
/// the folder is never listed.
struct IgnoreRules: Hashable, Sendable {
    /// The file that holds a folder's rules.
    static let fileName = OwnNames.ignoreFile

    /// Platform junk (``SyncOptions/defaultExcludePatterns``).
    static var defaultPatterns: [String] { SyncOptions.defaultExcludePatterns }

    /// The default patterns compiled once, for ``isPlatformJunk(_:)``.
    private static let junk = defaultPatterns.compactMap { try? IgnorePattern.parse($0) }

    /// Whether a file's name is platform junk (a default pattern matches it): in a folder deleted
    /// on the other side it goes to the trash with the folder, where anything else the rules
    /// leave alone keeps the folder.
    static func isPlatformJunk(_ name: String) -> Bool {
        junk.contains { $0.matches([], Substring(name), isFolder: false) }
    }

    /// Patterns that apply below one folder.
    struct Scoped: Hashable, Sendable {
        /// The folder, `nil` for the root.
        let folder: SyncPath?
        /// The patterns in file order.
        let patterns: [IgnorePattern]
    }

    /// Where a pattern list came from, for its error.
    enum Source: Hashable, Sendable, CustomStringConvertible {
        case option
        case file(String)

        var description: String {
            switch self {
            case .option: "--exclude"
            case .file(let path): path
            }
        }
    }

    /// The defaults and the run's own patterns, both scoped to the root.
    private(set) var base: [IgnorePattern] = []
    private(set) var overriding: [IgnorePattern] = []
    /// The `.seamsignore` files found, by folder (the root's under `nil`).
    private(set) var files: [SyncPath?: [IgnorePattern]] = [:]

    /// No rules at all.
    init() {}

    /// Whether there are no patterns at all (then nothing is looked at).
    var isEmpty: Bool { base.isEmpty && overriding.isEmpty && files.isEmpty }

    /// Rules from the defaults and the run's own patterns.
    ///
    /// - Parameters:
    ///   - defaults: Whether ``defaultPatterns`` apply.
    ///   - excludes: Patterns given to the run, anchored at the root where they hold a `/`.
    /// - Throws: ``SyncError/badIgnoreRule(source:line:pattern:reason:)`` for a pattern that cannot mean what it says.
    init(defaults: Bool, excludes: [String]) throws(SyncError) {
        if defaults { base = Self.defaultPatterns.compactMap { try? IgnorePattern.parse($0) } }
        overriding = try Self.parse(excludes, source: .option)
        runsPatternsAnchored = (base + overriding).contains(where: \.anchored)
        runsFirstBytes = InFolder(folders: [], lists: [(0, base), (0, overriding)]).firstBytes
    }

    /// Whether one of the defaults or the run's own patterns is anchored.
    private var runsPatternsAnchored = false
    /// The first-byte pass of the defaults and the run's own patterns (see ``InFolder/firstBytes``).
    private var runsFirstBytes: [Bool]?

    /// The lines of an ignore file: split at `\n` and at `\r\n` (a file saved on Windows; Swift
    /// reads `\r\n` as one character), a leading byte-order mark dropped, as git does.
    static func lines(of text: String) -> [String] {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        return body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(
            String.init)
    }

    /// Compiles lines, skipping blanks and comments.
    static func parse(_ lines: [String], source: Source) throws(SyncError) -> [IgnorePattern] {
        var patterns: [IgnorePattern] = []
        for (index, line) in lines.enumerated() {
            do {
                if let pattern = try IgnorePattern.parse(line) { patterns.append(pattern) }
            } catch {
                throw SyncError.badIgnoreRule(
                    source: source.description, line: index + 1, pattern: line, reason: error.description)
            }
        }
        return patterns
    }

    /// Adds the rules of the `.seamsignore` in `folder`.
    ///
    /// - Parameters:
    ///   - content: The file's bytes (UTF-8).
    ///   - folder: The folder that holds it, `nil` for the root.
    ///   - url: Where it was read, for the error.
    /// - Throws: ``SyncError/badIgnoreRule(source:line:pattern:reason:)``.
    mutating func addFile(_ content: Data, in folder: SyncPath?, at url: URL) throws(SyncError) {
        guard let text = String(data: content, encoding: .utf8) else {
            throw SyncError.badIgnoreRule(source: url.path, line: 0, pattern: "", reason: "it is not UTF-8 text")
        }
        let patterns = try Self.parse(
            Self.lines(of: text), source: .file(url.isFileURL ? url.path : url.absoluteString))
        if !patterns.isEmpty { files[folder] = patterns }
    }

    /// The patterns that apply to the items of one folder, worked out once per listing.
    struct InFolder {
        /// The folder's names from the root down.
        let folders: [Substring]
        /// The lists that apply, lowest precedence first, each with the depth of its own folder.
        let lists: [(depth: Int, patterns: [IgnorePattern])]
        /// For each byte, whether a name starting with it can match some pattern; `nil` when a
        /// pattern can match a name starting with any byte (`*.log`). Most names start with a
        /// byte no pattern starts with, and are passed at once.
        let firstBytes: [Bool]?

        init(folders: [Substring], lists: [(depth: Int, patterns: [IgnorePattern])], firstBytes: [Bool]?) {
            self.folders = folders
            self.lists = lists
            self.firstBytes = firstBytes
        }

        init(folders: [Substring], lists: [(depth: Int, patterns: [IgnorePattern])]) {
            self.folders = folders
            self.lists = lists
            var table = [Bool](repeating: false, count: 256)
            var bounded = true
            for (_, patterns) in lists {
                for pattern in patterns {
                    guard let byte = pattern.firstByteOfName else {
                        bounded = false
                        break
                    }
                    table[Int(byte)] = true
                }
                if !bounded { break }
            }
            firstBytes = bounded ? table : nil
        }

        /// Whether the item `name` of the folder is ignored (the folders above it are not looked at).
        func ignores(_ name: Substring, isFolder: Bool) -> Bool {
            if let firstBytes, let byte = name.utf8.first, !firstBytes[Int(byte)] { return false }
            var ignored = false
            for (depth, patterns) in lists {
                // The last match decides: only a pattern that would change the answer is tried.
                for pattern in patterns
                where pattern.negated == ignored
                    && pattern.matches(folders[depth...], name, isFolder: isFolder)
                {
                    ignored = !pattern.negated
                }
            }
            return ignored
        }
    }

    /// The patterns for the items of `parent`.
    func inFolder(_ parent: SyncPath?) -> InFolder {
        // The folder's names matter to anchored patterns and to files below the root only.
        let needsFolders = !files.isEmpty || runsPatternsAnchored
        let folders =
            needsFolders ? parent.map { $0.rawValue.split(separator: "/", omittingEmptySubsequences: false) } ?? [] : []
        var lists: [(depth: Int, patterns: [IgnorePattern])] = []
        if !base.isEmpty { lists.append((0, base)) }
        if files.isEmpty {
            // The run's own patterns alone, the same for every folder: their first bytes were worked out once.
            if !overriding.isEmpty { lists.append((0, overriding)) }
            return InFolder(folders: folders, lists: lists, firstBytes: runsFirstBytes)
        }
        if !files.isEmpty {
            // The root's file, then each folder's above the item, the nearest last.
            if let root = files[nil] { lists.append((0, root)) }
            var folder: SyncPath?
            for depth in stride(from: 1, through: folders.count, by: 1) {
                folder = folder?.appending(String(folders[depth - 1])) ?? SyncPath(String(folders[0]))
                if let patterns = files[folder] { lists.append((depth, patterns)) }
            }
        }
        if !overriding.isEmpty { lists.append((0, overriding)) }
        return InFolder(folders: folders, lists: lists)
    }

    /// Whether `name`, an item of `parent`, is ignored (the folders above it are not looked at:
    /// the scan never lists an ignored folder).
    func ignores(_ name: String, in parent: SyncPath?, isFolder: Bool) -> Bool {
        if isEmpty { return false }
        return inFolder(parent).ignores(Substring(name), isFolder: isFolder)
    }

    /// Whether `path` or a folder above it is ignored.
    func ignoresPathOrFolderAbove(_ path: SyncPath, isFolder: Bool) -> Bool {
        if isEmpty { return false }
        var ancestors: [SyncPath] = []
        var current = path.parent
        while let folder = current {
            ancestors.append(folder)
            current = folder.parent
        }
        for folder in ancestors.reversed() where ignores(folder.name, in: folder.parent, isFolder: true) { return true }
        return ignores(path.name, in: path.parent, isFolder: isFolder)
    }
}
