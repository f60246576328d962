import Foundation
import SeamsCore

/// One side's tree in path order (``SyncPath``'s `<`: a folder's items right after it, before
/// the folder's next sibling), an item at a time, each folder listed when the walk reaches it:
/// how a first sync reads a tree in passes. It holds the listings of the folders it is in, never
/// the tree, so a million files cost what their deepest chain of folders costs.
///
/// Items are sorted out as ``Scanner`` sorts them (the tool's own names, the ignore rules and
/// each folder's `.seamsignore`, read when the folder is listed); what is set aside is noted
/// until ``takeNoted(before:)``.
struct TreeWalker {
    private let root: URL
    private let directories: any DirectoryAccessorProviding
    private let files: (any FileAccessorProviding)?
    /// The run's rules and those of every `.seamsignore` read so far.
    private(set) var rules: IgnoreRules
    /// The leftovers, reserved and ignored paths and the unreadable folders met so far.
    private var noted = Snapshot()
    private var stack: [Frame] = []
    /// The item ``peek()`` found, until it is taken.
    private var current: (path: SyncPath, item: FileMetadata)?
    /// Items listed so far.
    private(set) var listedCount = 0

    private struct Frame {
        let path: SyncPath?
        let entries: [DirectoryEntry]
        let rules: IgnoreRules.InFolder?
        var index = 0
    }

    /// A walk of the tree at `root`, its top folder listed.
    ///
    /// - Throws: What listing the top folder throws, or a ``SyncError/badIgnoreRule(source:line:pattern:reason:)``
    ///   of its `.seamsignore`.
    @available(*, noasync, message: "lists folders on the calling thread")
    init(
        root: URL, directories: any DirectoryAccessorProviding, files: (any FileAccessorProviding)?,
        rules: IgnoreRules
    ) throws {
        self.root = root
        self.directories = directories
        self.files = files
        self.rules = rules
        try push(nil, try directories.contentsOfDirectory(at: root))
    }

    /// The next item to sync, the items set aside before it noted; `nil` at the end of the tree.
    mutating func peek() -> (path: SyncPath, item: FileMetadata)? {
        if let current { return current }
        while let top = stack.last {
            guard top.index < top.entries.count else {
                stack.removeLast()
                continue
            }
            let entry = top.entries[top.index]
            guard Scanner.isUsersItem(entry, under: top.path, rules: top.rules, noting: &noted) else {
                stack[stack.count - 1].index += 1
                continue
            }
            current = (top.path?.appending(entry.name) ?? SyncPath(entry.name), entry.metadata)
            return current
        }
        return nil
    }

    /// Takes the item ``peek()`` found; a folder is listed now, so that its items come next (one
    /// that cannot be listed is noted as unreadable, and walked past).
    ///
    /// - Throws: A ``SyncError/badIgnoreRule(source:line:pattern:reason:)`` of the folder's `.seamsignore`.
    @available(*, noasync, message: "lists folders on the calling thread")
    mutating func take() throws {
        guard let (path, item) = current else { return }
        current = nil
        stack[stack.count - 1].index += 1
        guard item.kind == .directory else { return }
        do {
            let entries = try directories.contentsOfDirectory(at: path.url(in: root))
            try push(path, entries)
        } catch let error as SyncError {
            throw error
        } catch {
            noted.unreadableFolders[path] = UnderlyingError(error)
        }
    }

    /// What the walk set aside at paths before `end` (all of it when `nil`), kept out of the walk's
    /// notes: leftovers, reserved and ignored paths. The unreadable folders are every one met so
    /// far, as the other side's items under them may come in any later pass. The rules are the walk's.
    mutating func takeNoted(before end: SyncPath?) -> Snapshot {
        var taken = Snapshot()
        taken.rules = rules
        func split(_ paths: inout [SyncPath]) -> [SyncPath] {
            guard let end else { return paths.sorted() }
            let before = paths.filter { $0 < end }
            paths.removeAll { $0 < end }
            return before.sorted()
        }
        taken.leftovers = split(&noted.leftovers)
        taken.reserved = split(&noted.reserved)
        taken.ignored = split(&noted.ignored)
        taken.unreadableFolders = noted.unreadableFolders
        return taken
    }

    private mutating func push(_ path: SyncPath?, _ listing: [DirectoryEntry]) throws {
        try Scanner.readRules(in: listing, under: path, root: root, files: files, into: &rules)
        listedCount += listing.count
        let sorted = listing.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        stack.append(Frame(path: path, entries: sorted, rules: rules.isEmpty ? nil : rules.inFolder(path)))
    }
}
