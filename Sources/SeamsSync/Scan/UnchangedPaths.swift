/// The paths a scan found as the archive recorded them: a bit for each entry of the archive's
/// table (a million paths in 125 KiB), and a set for paths given by hand.
///
/// It answers like a `Set<SyncPath>` (`contains`, `insert`, `remove`, `count`, iteration in
/// ``SyncPath`` order); the reconciler and ``Snapshot/complete(_:_:read:)`` also work
/// on the bits directly when both scans were compared with the same table.
struct UnchangedPaths: Sequence, Hashable, Sendable, ExpressibleByArrayLiteral {
    /// The table whose entries the bits stand for (`nil`: none).
    private(set) var table: ArchiveTable?
    /// Bit `i` of word `i / 64` set: the table's entry `i` was found unchanged.
    private(set) var bits: [UInt64] = []
    /// Paths given by hand or not in the table.
    private var loose: Set<SyncPath> = []
    /// How many paths.
    private(set) var count = 0

    /// No paths, over `table`'s entries.
    init(table: ArchiveTable) {
        self.table = table
        bits = [UInt64](repeating: 0, count: (table.count + 63) / 64)
    }

    /// Every entry of `table`: what a scan that lists only changed folders starts from.
    init(everyEntryOf table: ArchiveTable) {
        self.table = table
        bits = [UInt64](repeating: ~0, count: (table.count + 63) / 64)
        if table.count % 64 != 0 { bits[bits.count - 1] = (1 << UInt64(table.count % 64)) - 1 }
        count = table.count
    }

    /// Creates the set of `paths`.
    init(_ paths: some Sequence<SyncPath>) {
        loose = Set(paths)
        count = loose.count
    }

    /// Creates the set of the listed paths.
    init(arrayLiteral elements: SyncPath...) {
        self.init(elements)
    }

    /// Whether there are none.
    var isEmpty: Bool { count == 0 }

    /// Whether the paths are all bits of `table` (none given by hand).
    func isBits(of table: ArchiveTable) -> Bool {
        loose.isEmpty
            && (self.table?.identity === table.identity || (count == 0 && self.table == nil && table.count == 0))
    }

    /// Whether `path` is one of them.
    func contains(_ path: SyncPath) -> Bool {
        if loose.contains(path) { return true }
        guard let table, count > loose.count, let (ordinal, _) = table.find(path) else { return false }
        return isSet(ordinal)
    }

    /// Whether the table's entry `ordinal` is one of them.
    func isSet(_ ordinal: Int) -> Bool {
        bits[ordinal >> 6] & (1 << UInt64(ordinal & 63)) != 0
    }

    /// Adds the table's entry `ordinal`.
    mutating func insert(ordinal: Int) {
        let mask: UInt64 = 1 << UInt64(ordinal & 63)
        guard bits[ordinal >> 6] & mask == 0 else { return }
        bits[ordinal >> 6] |= mask
        count += 1
    }

    /// Adds `path`.
    mutating func insert(_ path: SyncPath) {
        if let table, let (ordinal, _) = table.find(path) {
            insert(ordinal: ordinal)
        } else if loose.insert(path).inserted {
            count += 1
        }
    }

    /// Removes `path`.
    ///
    /// - Returns: The path, if it was there.
    @discardableResult
    mutating func remove(_ path: SyncPath) -> SyncPath? {
        if loose.remove(path) != nil {
            count -= 1
            return path
        }
        guard let table, let (ordinal, _) = table.find(path), isSet(ordinal) else { return nil }
        remove(ordinal: ordinal)
        return path
    }

    /// Removes the table's entry `ordinal`.
    mutating func remove(ordinal: Int) {
        let mask: UInt64 = 1 << UInt64(ordinal & 63)
        guard bits[ordinal >> 6] & mask != 0 else { return }
        bits[ordinal >> 6] &= ~mask
        count -= 1
    }

    /// Removes the table's entries `ordinals`.
    mutating func remove(ordinals: Range<Int>) {
        var ordinal = ordinals.lowerBound
        while ordinal < ordinals.upperBound {
            let word = ordinal >> 6
            let low = ordinal & 63
            let high = Swift.min(64, low + (ordinals.upperBound - ordinal))
            let mask: UInt64 = high - low == 64 ? ~0 : ((1 << UInt64(high - low)) - 1) << UInt64(low)
            count -= (bits[word] & mask).nonzeroBitCount
            bits[word] &= ~mask
            ordinal += high - low
        }
    }

    /// The word of bits `64 × index…` (0 past the end).
    func word(_ index: Int) -> UInt64 {
        index < bits.count ? bits[index] : 0
    }

    /// The paths in path order (made into an array first: for a few paths, or tests).
    func makeIterator() -> IndexingIterator<[SyncPath]> {
        var paths: [SyncPath] = []
        paths.reserveCapacity(count)
        table?.forEach(where: word) { _, path, _ in paths.append(SyncPath(String(decoding: path, as: UTF8.self))) }
        if !loose.isEmpty {
            paths.append(contentsOf: loose)
            paths.sort()
        }
        return paths.makeIterator()
    }

    /// Equal when they hold the same paths.
    static func == (lhs: UnchangedPaths, rhs: UnchangedPaths) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the paths.
    func hash(into hasher: inout Hasher) {
        for path in self { hasher.combine(path) }
    }
}
