import Foundation
import SeamsCore

/// An archive's entries by path: a dictionary in use (look up, set, remove, iterate), kept as
/// the state file's compact sorted table plus the changes made since it was read.
///
/// A no-change run reads a million entries and changes none: they stay in the file's own bytes
/// (about a dozen bytes an entry), looked up by a binary search, never put in a hash table.
/// What a run changes goes into a small dictionary beside them, and the next commit writes the
/// two merged. Iteration is in ``SyncPath`` order.
///
/// ```swift
/// var entries: ArchiveEntries = [SyncPath("a.txt"): entry]
/// entries[SyncPath("b.txt")] = other
/// entries.count                      // 2
/// entries.map(\.key)                 // [a.txt, b.txt]
/// ```
struct ArchiveEntries: Sequence, Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// The entries as read (or built), unchanged since.
    private(set) var table: ArchiveTable
    /// What changed since: a new or replaced entry, or `nil` for one removed from `table`.
    private(set) var changes: [SyncPath: Archive.Entry?] = [:]
    /// How many entries there are.
    private(set) var count: Int

    /// Entries over a table, unchanged.
    init(table: ArchiveTable) {
        self.table = table
        self.count = table.count
    }

    /// Creates the entries of a dictionary.
    ///
    /// - Parameter entries: The entries by path.
    init(_ entries: [SyncPath: Archive.Entry] = [:]) {
        self.init(table: entries.isEmpty ? .empty : ArchiveTable(entries))
    }

    /// Creates entries from a literal; a path given twice keeps its last entry.
    init(dictionaryLiteral elements: (SyncPath, Archive.Entry)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Whether there are none.
    var isEmpty: Bool { count == 0 }

    /// How many entries are at one of `paths` or under one of them: one lookup per path, and one
    /// walk of the entries only when a recorded folder is among them.
    func count(atOrUnder paths: [SyncPath]) -> Int {
        let recorded = paths.compactMap { path in self[path].map { (path, $0.kind) } }
        guard !recorded.isEmpty else { return 0 }
        let folders = Set(recorded.filter { $0.1 == .directory }.map(\.0))
        guard !folders.isEmpty else { return recorded.count }
        var count = recorded.count
        for (path, _) in self {
            var above = path.parent
            while let folder = above {
                if folders.contains(folder) {
                    count += 1
                    break
                }
                above = folder.parent
            }
        }
        return count
    }

    /// The paths the table (the entries as read) holds below `folder`, in path order, whether
    /// changed since or not: one seek, then a walk of that range only. Entries added since are
    /// not among them.
    func tablePaths(below folder: SyncPath) -> [SyncPath] {
        var paths: [SyncPath] = []
        table.forEach(in: table.ordinals(below: folder)) { _, bytes, _ in
            paths.append(SyncPath(String(decoding: bytes, as: UTF8.self)))
        }
        return paths
    }

    /// The entry of `path`, or `nil`; setting `nil` removes it.
    subscript(path: SyncPath) -> Archive.Entry? {
        get {
            if let change = changes[path] { return change }
            return table.find(path)?.entry
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: path)
            } else {
                removeValue(forKey: path)
            }
        }
    }

    /// Sets the entry of `path`.
    ///
    /// - Returns: The entry it replaced, if any.
    @discardableResult
    mutating func updateValue(_ entry: Archive.Entry, forKey path: SyncPath) -> Archive.Entry? {
        let old = self[path]
        changes[path] = .some(entry)
        if old == nil { count += 1 }
        return old
    }

    /// Removes the entry of `path`.
    ///
    /// - Returns: The entry removed, if any.
    @discardableResult
    mutating func removeValue(forKey path: SyncPath) -> Archive.Entry? {
        if let change = changes[path] {
            guard let old = change else { return nil }
            if table.find(path) != nil {
                changes[path] = .some(nil)
            } else {
                changes.removeValue(forKey: path)
            }
            count -= 1
            return old
        }
        guard let old = table.find(path)?.entry else { return nil }
        changes[path] = .some(nil)
        count -= 1
        return old
    }

    /// The paths, in path order.
    var keys: LazyMapSequence<ArchiveEntries, SyncPath> { lazy.map(\.key) }

    /// The entries, in path order of their paths.
    var values: LazyMapSequence<ArchiveEntries, Archive.Entry> { lazy.map(\.value) }

    /// The entries with no change since the table was read or built, or a new table of them all.
    ///
    /// - Returns: A table holding exactly these entries.
    func compacted() -> ArchiveTable {
        changes.isEmpty ? table : ArchiveTable(self.map { $0 })
    }

    /// Whether the changes since the table only replace entries it has (none added or removed):
    /// then the table's paths are exactly these entries' paths.
    var changesKeepPaths: Bool {
        changes.allSatisfy { $0.value != nil && table.find($0.key) != nil }
    }

    /// Iterates in path order.
    func makeIterator() -> Iterator {
        Iterator(table: table, changes: changes.sorted { $0.key < $1.key })
    }

    /// Walks the table and the sorted changes side by side.
    struct Iterator: IteratorProtocol {
        /// The table walked.
        let table: ArchiveTable
        private let changes: [(key: SyncPath, value: Archive.Entry?)]
        private var change = 0
        private var cursor: ArchiveTable.Cursor?
        private var current: (path: SyncPath, entry: Archive.Entry)?

        fileprivate init(table: ArchiveTable, changes: [(key: SyncPath, value: Archive.Entry?)]) {
            self.table = table
            self.changes = changes
        }

        /// The next entry in path order.
        mutating func next() -> (key: SyncPath, value: Archive.Entry)? {
            begin()
            while true {
                let pending = change < changes.count ? changes[change] : nil
                if let (path, entry) = current {
                    if let pending, pending.key <= path {
                        change += 1
                        if pending.key == path { step() }
                        if let changed = pending.value { return (pending.key, changed) }
                        continue  // removed
                    }
                    step()
                    return (path, entry)
                }
                guard let pending else { return nil }
                change += 1
                if let added = pending.value { return (pending.key, added) }
            }
        }

        /// When the next entries are whole blocks of the table that no change falls inside,
        /// written with `interval`: steps past as many as fit in `bytes` bytes (one at least) and
        /// returns their restarts and their bytes' range in the table's data, to be copied as
        /// they are. Else `nil`, and nothing moves.
        mutating func nextUnchangedBlocks(interval: Int, bytes limit: Int) -> (blocks: Range<Int>, bytes: Range<Int>)? {
            begin()
            guard table.interval == interval, let cursor, cursor.isValid, cursor.ordinal % interval == 0 else {
                return nil
            }
            let index = cursor.ordinal / interval
            guard let first = table.block(index) else { return nil }
            // Blocks are alike in size: as many as fit, by the first one's.
            let most = Swift.max(1, limit / Swift.max(first.count, 1))
            let found: (end: Int, bytes: Range<Int>)? = table.data.withUnsafeBytes { raw in
                guard change < changes.count else {
                    return table.unchangedBlocks(from: index, before: nil, limit: most, raw)
                }
                var key = changes[change].key.rawValue
                return key.withUTF8 { key in
                    table.unchangedBlocks(from: index, before: UnsafeRawBufferPointer(key), limit: most, raw)
                }
            }
            guard let found else { return nil }
            var moving = table.cursor(beforeBlock: found.end)
            table.data.withUnsafeBytes { raw in table.advance(&moving, raw) }
            self.cursor = moving
            readCurrent()
            return (index..<found.end, found.bytes)
        }

        private mutating func begin() {
            guard cursor == nil else { return }
            cursor = table.data.withUnsafeBytes { raw in table.cursor(at: 0, raw) }
            readCurrent()
        }

        private mutating func step() {
            guard var moving = cursor else { return }
            table.data.withUnsafeBytes { raw in table.advance(&moving, raw) }
            cursor = moving
            readCurrent()
        }

        private mutating func readCurrent() {
            guard let cursor, cursor.isValid else {
                current = nil
                return
            }
            current = (SyncPath(String(decoding: cursor.path, as: UTF8.self)), cursor.entry)
        }
    }

    /// Equal when they hold the same entries.
    static func == (lhs: ArchiveEntries, rhs: ArchiveEntries) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes every entry, in path order.
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for (path, entry) in self {
            hasher.combine(path)
            hasher.combine(entry)
        }
    }
}
