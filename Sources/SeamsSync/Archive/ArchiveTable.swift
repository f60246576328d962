import Foundation
import SeamsCore

/// An archive's entries in ``SyncPath`` order, held in the compact form the state file stores
/// them in (version 7): a million entries take about a dozen megabytes, where a hash table of
/// them took more than a hundred.
///
/// Each entry shares the first bytes of its path with the entry before it and stores the rest;
/// every `interval`-th entry (a restart) stores its whole path, so a path is found by a binary
/// search over the restarts and a walk of at most `interval` entries, and a folder's children by
/// one such search and a walk along them. The bytes are checked once, when the table is made
/// (``init(validating:start:end:count:interval:)``), or written by ``Builder``.
///
/// One entry:
/// ```text
/// shared      varint   how many bytes of the previous entry's path this one starts with (0 at a restart)
/// suffix      varint   a byte count, then that many bytes: the rest of the path
/// flags       UInt8    kind in bits 0-1 (0 file, 1 folder, 2 symbolic link); bit 2: a container
///                      tag follows; bit 3: the container's size follows; bit 4: its date follows;
///                      bit 5: a local identity follows; bit 6: a container identity follows
/// tag         UInt32   the container tag, when bit 2 (else 0)
/// local size  varint   zigzag
/// local date  varint   zigzag, minus the previous entry's local date (minus 0 at a restart)
/// size        varint   zigzag, the container's size, when bit 3 (else the local size)
/// date        varint   zigzag, the container's date minus the local date, when bit 4 (else the same)
/// local id    varint   zigzag, minus the last local identity written (0 at a restart), when bit 5 (else 0)
/// other id    varint   zigzag, minus the last container identity written likewise, when bit 6 (else 0)
/// ```
/// Identities (inodes) of one folder's items are often close, so most take a byte or two.
/// A varint holds seven bits a byte, low bits first, the high bit set on every byte but the
/// last; zigzag maps 0, -1, 1, -2… to 0, 1, 2, 3…
struct ArchiveTable: Sendable {
    /// Entries from one restart to the next, for tables this build writes.
    static let restartInterval = 16

    /// The bytes that hold the entries (a state file's whole bytes, or a table built in memory).
    let data: Data
    /// Where the entries start in `data`.
    let start: Int
    /// Where they end.
    let end: Int
    /// How many entries.
    let count: Int
    /// Entries from one restart to the next.
    let interval: Int
    /// The offset in `data` of each restart (entry 0, `interval`, 2 × `interval`…).
    let restarts: [Int]
    /// Tells tables apart: a scan's unchanged paths are bits of the table it was compared with.
    let identity = Identity()

    /// A table's identity: the same object for every copy of one table.
    final class Identity: Sendable {}

    /// A table without entries.
    static let empty = ArchiveTable(data: Data(), start: 0, end: 0, count: 0, interval: restartInterval, restarts: [])

    private init(data: Data, start: Int, end: Int, count: Int, interval: Int, restarts: [Int]) {
        self.data = data
        self.start = start
        self.end = end
        self.count = count
        self.interval = interval
        self.restarts = restarts
    }

    /// Checks the entries in `data[start..<end]` and makes the table: every field inside the
    /// bounds, every path valid UTF-8, relative, without `.` or `..`, and after the one before
    /// it in path order (so no path twice), exactly `count` entries filling the range.
    ///
    /// - Throws: ``ArchiveCodec/DecodeFailure/corrupt(_:)`` for the first fault found.
    init(validating data: Data, start: Int, end: Int, count: Int, interval: Int) throws(ArchiveCodec.DecodeFailure) {
        guard interval > 0, interval <= 1 << 16 else { throw .corrupt("restart interval \(interval)") }
        // The shortest entry takes 6 bytes: a count the range cannot hold is damage.
        guard count >= 0, count <= (end - start) / 6 else { throw .corrupt("entry count \(count) too large") }
        var restarts: [Int] = []
        restarts.reserveCapacity((count + interval - 1) / interval)
        let result = data.withUnsafeBytes { raw in
            Result { () throws(ArchiveCodec.DecodeFailure) -> Int in
                var offset = start
                var path: [UInt8] = []
                var carry = Carry()
                for ordinal in 0..<count {
                    let restart = ordinal % interval == 0
                    if restart { restarts.append(offset) }
                    _ = try Self.decode(
                        raw, at: &offset, end: end, restart: restart, path: &path, carry: &carry, check: true)
                }
                return offset
            }
        }
        guard try result.get() == end else { throw .corrupt("\(end - (try result.get())) bytes after the entries") }
        self.init(data: data, start: start, end: end, count: count, interval: interval, restarts: restarts)
    }

    // MARK: - Reading

    /// A walk along the table: the current entry, its path and its ordinal.
    struct Cursor {
        /// Where the next entry starts.
        fileprivate var next: Int
        /// The current entry's ordinal (`-1` before the first, `count` past the last).
        fileprivate(set) var ordinal: Int
        /// The current entry's path bytes.
        fileprivate(set) var path: [UInt8] = []
        /// The current entry.
        fileprivate(set) var entry = Archive.Entry(
            kind: .file, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
        /// What the next entry is stored against.
        fileprivate var carry = Carry()
        /// Whether the cursor is on an entry.
        fileprivate(set) var isValid = false
    }

    /// A cursor before the entry at restart `index`.
    private func cursor(atRestart index: Int) -> Cursor {
        guard index < restarts.count else { return Cursor(next: end, ordinal: count) }
        return Cursor(next: restarts[index], ordinal: index * interval - 1)
    }

    /// Moves `cursor` to the next entry (or past the end).
    func advance(_ cursor: inout Cursor, _ raw: UnsafeRawBufferPointer) {
        let ordinal = cursor.ordinal + 1
        guard ordinal < count else {
            cursor.isValid = false
            cursor.ordinal = count
            return
        }
        var offset = cursor.next
        // The bytes were checked when the table was made; a failure here cannot happen, and would
        // end the walk rather than read past the entries.
        guard
            let entry = try? Self.decode(
                raw, at: &offset, end: end, restart: ordinal % interval == 0, path: &cursor.path, carry: &cursor.carry,
                check: false)
        else {
            cursor.isValid = false
            cursor.ordinal = count
            return
        }
        cursor.entry = entry
        cursor.next = offset
        cursor.ordinal = ordinal
        cursor.isValid = true
    }

    /// The bytes of the whole block of entries from restart `index` to the next (`interval`
    /// entries, the first stored whole): `nil` when the block is the last and not full.
    func block(_ index: Int) -> Range<Int>? {
        guard index < restarts.count, (index + 1) * interval <= count else { return nil }
        return restarts[index]..<(index + 1 < restarts.count ? restarts[index + 1] : end)
    }

    /// The blocks from restart `index` on that are whole (``block(_:)``) and hold no path at or
    /// after `key` (all of them when `key` is `nil`), at most `limit` of them: the restarts
    /// `index..<end` and their bytes' range in `data`, or `nil` when there are none.
    func unchangedBlocks(
        from index: Int, before key: UnsafeRawBufferPointer?, limit: Int, _ raw: UnsafeRawBufferPointer
    )
        -> (end: Int, bytes: Range<Int>)?
    {
        // Whole blocks end where the last, partial one starts.
        var end = min(count / interval, restarts.count)
        if let key {
            // The first restart whose path comes after `key`: the block before it may hold `key`,
            // so blocks end one before it (block k holds nothing at or after `key` when restart k + 1
            // is not after it).
            var low = index + 1
            var high = end + 1
            while low < high {
                let middle = (low + high) / 2
                if middle < restarts.count, Self.order(restartPath(middle, raw), key) <= 0 {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            end = min(end, low - 1)
        }
        guard end > index else { return nil }
        end = index + min(end - index, max(limit, 1))
        return (end, restarts[index]..<(end < restarts.count ? restarts[end] : self.end))
    }

    /// The offsets of restarts `range` in `data`.
    func restartOffsets(_ range: Range<Int>) -> ArraySlice<Int> { restarts[range] }

    /// A cursor before the first entry of the block at restart `index`.
    func cursor(beforeBlock index: Int) -> Cursor { cursor(atRestart: index) }

    /// The whole path of restart `index`, in place.
    private func restartPath(_ index: Int, _ raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var offset = restarts[index]
        _ = try? Self.varint(raw, at: &offset, end: end)  // shared: 0 at a restart
        let length = Int((try? Self.varint(raw, at: &offset, end: end)) ?? 0)
        return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length])
    }

    /// A cursor on the first entry whose path is not below `key` in path order (past the end
    /// when there is none).
    func seek(_ key: UnsafeRawBufferPointer, _ raw: UnsafeRawBufferPointer) -> Cursor {
        var low = 0
        var high = restarts.count
        while low < high {
            let middle = (low + high) / 2
            if Self.order(restartPath(middle, raw), key) <= 0 { low = middle + 1 } else { high = middle }
        }
        var cursor = self.cursor(atRestart: max(low - 1, 0))
        advance(&cursor, raw)
        while cursor.isValid, cursor.path.withUnsafeBytes({ Self.order($0, key) }) < 0 {
            advance(&cursor, raw)
        }
        return cursor
    }

    /// A cursor on the entry at `ordinal`.
    func cursor(at ordinal: Int, _ raw: UnsafeRawBufferPointer) -> Cursor {
        var cursor = self.cursor(atRestart: ordinal / interval)
        repeat { advance(&cursor, raw) } while cursor.isValid && cursor.ordinal < ordinal
        return cursor
    }

    /// The ordinal and entry of `path`, if the table has it.
    func find(_ path: SyncPath) -> (ordinal: Int, entry: Archive.Entry)? {
        guard count > 0 else { return nil }
        var text = path.rawValue
        return text.withUTF8 { key in
            data.withUnsafeBytes { raw in
                let cursor = seek(UnsafeRawBufferPointer(key), raw)
                guard cursor.isValid, cursor.path.elementsEqual(key) else { return nil }
                return (cursor.ordinal, cursor.entry)
            }
        }
    }

    /// Calls `body` with each entry whose ordinal's bit is set in `mask(word)` (bits `64 × word`
    /// to `64 × word + 63`), in order: a walk that jumps to the nearest restart over long gaps.
    ///
    /// - Parameters:
    ///   - mask: The bits of ordinals `64 × word…`; bits past the last entry are ignored.
    ///   - body: Called with the ordinal, the path's bytes and the entry.
    func forEach(
        where mask: (Int) -> UInt64, _ body: (Int, UnsafeRawBufferPointer, Archive.Entry) throws -> Void
    ) rethrows {
        guard count > 0 else { return }
        try data.withUnsafeBytes { raw in
            var cursor = Cursor(next: end, ordinal: count)
            var started = false
            let words = (count + 63) / 64
            for word in 0..<words {
                var bits = mask(word)
                if word == words - 1, count % 64 != 0 { bits &= (1 << UInt64(count % 64)) - 1 }
                while bits != 0 {
                    let ordinal = word * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    if !started || ordinal >= (cursor.ordinal / interval + 1) * interval {
                        cursor = self.cursor(atRestart: ordinal / interval)
                        started = true
                    }
                    while cursor.ordinal < ordinal { advance(&cursor, raw) }
                    guard cursor.isValid else { return }
                    try cursor.path.withUnsafeBytes { try body(ordinal, $0, cursor.entry) }
                }
            }
        }
    }

    /// Calls `body` for each entry of `ordinals`, in order: one seek to the nearest restart, then
    /// a walk of the range only.
    ///
    /// - Parameter body: Called with the ordinal, the path's bytes and the entry.
    func forEach(
        in ordinals: Range<Int>, _ body: (Int, UnsafeRawBufferPointer, Archive.Entry) throws -> Void
    ) rethrows {
        let range = ordinals.clamped(to: 0..<count)
        guard !range.isEmpty else { return }
        try data.withUnsafeBytes { raw in
            var cursor = self.cursor(atRestart: range.lowerBound / interval)  // before that restart's entry
            repeat { advance(&cursor, raw) } while cursor.isValid && cursor.ordinal < range.lowerBound
            while cursor.isValid, cursor.ordinal < range.upperBound {
                try cursor.path.withUnsafeBytes { try body(cursor.ordinal, $0, cursor.entry) }
                advance(&cursor, raw)
            }
        }
    }

    /// Looks up a folder's listed names among its children in the table, in one walk when the
    /// names come sorted by their bytes (as every listing does); out of order, a name is found by
    /// a search of its own.
    ///
    /// - Parameters:
    ///   - names: The names found in the folder.
    ///   - parent: The folder (`nil`: the root).
    /// - Returns: For each name, the ordinal and entry of `parent/name`, or `nil`.
    func children(_ names: [String], of parent: SyncPath?) -> [(ordinal: Int, entry: Archive.Entry)?] {
        var found = [(ordinal: Int, entry: Archive.Entry)?](repeating: nil, count: names.count)
        guard count > 0, !names.isEmpty else { return found }
        var prefix = Array((parent?.rawValue ?? "").utf8)
        if parent != nil { prefix.append(UInt8(ascii: "/")) }
        let prefixCount = prefix.count
        data.withUnsafeBytes { raw in
            var key = prefix
            var cursor = prefix.withUnsafeBytes { seek($0, raw) }
            var previous: String?
            for (index, name) in names.enumerated() {
                var name = name
                if let previous, !previous.utf8.lexicographicallyPrecedes(name.utf8) {
                    key.removeSubrange(prefixCount...)
                    key.append(contentsOf: name.utf8)
                    cursor = key.withUnsafeBytes { seek($0, raw) }
                }
                previous = name
                name.withUTF8 { wanted in
                    while cursor.isValid {
                        switch place(of: cursor, prefix: prefix, comparedWith: UnsafeRawBufferPointer(wanted)) {
                        case .outside:
                            cursor.isValid = false  // past the folder's children
                            return
                        case .inside(let child):
                            // Inside a child folder: jump past that folder's contents (after
                            // `child/…` in path order comes `child` followed by any byte but `/`).
                            key.removeAll(keepingCapacity: true)
                            key.append(contentsOf: cursor.path[..<child])
                            key.append(1)
                            cursor = key.withUnsafeBytes { seek($0, raw) }
                        case .child(let order) where order < 0:
                            advance(&cursor, raw)
                        case .child(let order):
                            if order == 0 { found[index] = (cursor.ordinal, cursor.entry) }
                            return
                        }
                    }
                }
            }
        }
        return found
    }

    /// Where a cursor's entry lies from a folder's point of view.
    private enum Place {
        /// Not in the folder (past its contents).
        case outside
        /// Deeper inside one of its child folders, whose path is the first `Int` bytes.
        case inside(Int)
        /// A child, ordered against a wanted name by ``order(_:_:)``.
        case child(Int)
    }

    private func place(of cursor: Cursor, prefix: [UInt8], comparedWith name: UnsafeRawBufferPointer) -> Place {
        cursor.path.withUnsafeBufferPointer { path in
            guard path.count > prefix.count, prefix.withUnsafeBufferPointer({ path.starts(with: $0) }) else {
                return .outside
            }
            let rest = UnsafeBufferPointer(rebasing: path[prefix.count...])
            if let slash = rest.firstIndex(of: UInt8(ascii: "/")) { return .inside(prefix.count + slash) }
            return .child(Self.order(UnsafeRawBufferPointer(rest), name))
        }
    }

    // MARK: - The entry format

    /// Path order of two byte strings: compared byte by byte with `/` below every other byte,
    /// the shorter first on a common prefix (``SyncPath``'s `<`).
    static func order(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        var index = 0
        while index < common {
            let x = a[index]
            let y = b[index]
            if x != y { return (x == 0x2F ? -1 : Int(x)) - (y == 0x2F ? -1 : Int(y)) }
            index += 1
        }
        return a.count - b.count
    }

    static func varint(_ raw: UnsafeRawBufferPointer, at offset: inout Int, end: Int) throws(ArchiveCodec.DecodeFailure)
        -> UInt64
    {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end, shift < 64 else { throw .corrupt("a damaged number at byte \(offset)") }
            let byte = raw[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    private static func zigzag(_ raw: UnsafeRawBufferPointer, at offset: inout Int, end: Int) throws(ArchiveCodec
        .DecodeFailure) -> Int64
    {
        let value = try varint(raw, at: &offset, end: end)
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    private static let tagFlag: UInt8 = 1 << 2
    private static let sizeFlag: UInt8 = 1 << 3
    private static let dateFlag: UInt8 = 1 << 4
    private static let localIDFlag: UInt8 = 1 << 5
    private static let containerIDFlag: UInt8 = 1 << 6

    /// What an entry is stored against: the previous entry's local date and the last identities
    /// written (all 0 at a restart).
    struct Carry {
        var date: Int64 = 0
        var localID: UInt64 = 0
        var containerID: UInt64 = 0
    }

    /// Decodes the entry at `offset`, moving past it; `path` and `carry` hold the previous
    /// entry's path and what it is stored against, and become this one's. With `check`, the path is also
    /// validated and must come after the previous one.
    static func decode(
        _ raw: UnsafeRawBufferPointer, at offset: inout Int, end: Int, restart: Bool,
        path: inout [UInt8], carry: inout Carry, check: Bool
    ) throws(ArchiveCodec.DecodeFailure) -> Archive.Entry {
        let entryStart = offset
        let shared = try varint(raw, at: &offset, end: end)
        let length = try varint(raw, at: &offset, end: end)
        guard shared <= UInt64(path.count), !restart || shared == 0, length <= UInt64(end - offset) else {
            throw .corrupt("a damaged entry at byte \(entryStart)")
        }
        let suffix = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + Int(length)])
        offset += Int(length)
        if check {  // at a restart too: the whole previous path against the whole new one
            let before = path.withUnsafeBytes {
                Self.order(UnsafeRawBufferPointer(rebasing: $0[Int(shared)...]), suffix)
            }
            guard before < 0 else { throw .corrupt("entries out of order at byte \(entryStart)") }
        }
        path.removeSubrange(Int(shared)...)
        path.append(contentsOf: suffix)
        if check { try validate(path) }
        guard offset < end else { throw .corrupt("truncated at byte \(offset)") }
        let flags = raw[offset]
        offset += 1
        let kind: FileMetadata.Kind
        switch flags & 3 {
        case 0: kind = .file
        case 1: kind = .directory
        case 2: kind = .symbolicLink
        default: throw .corrupt("unknown kind at byte \(entryStart)")
        }
        guard flags & ~(3 | tagFlag | sizeFlag | dateFlag | localIDFlag | containerIDFlag) == 0 else {
            throw .corrupt("unknown flags at byte \(entryStart)")
        }
        var tag: UInt32 = 0
        if flags & tagFlag != 0 {
            guard end - offset >= 4 else { throw .corrupt("truncated at byte \(offset)") }
            tag = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
        }
        let localSize = try zigzag(raw, at: &offset, end: end)
        if restart { carry = Carry() }
        let localDate = carry.date &+ (try zigzag(raw, at: &offset, end: end))
        let containerSize = flags & sizeFlag != 0 ? try zigzag(raw, at: &offset, end: end) : localSize
        let containerDate = flags & dateFlag != 0 ? localDate &+ (try zigzag(raw, at: &offset, end: end)) : localDate
        carry.date = localDate
        var localID: UInt64 = 0
        if flags & localIDFlag != 0 {
            localID = carry.localID &+ UInt64(bitPattern: try zigzag(raw, at: &offset, end: end))
            carry.localID = localID
        }
        var containerID: UInt64 = 0
        if flags & containerIDFlag != 0 {
            containerID = carry.containerID &+ UInt64(bitPattern: try zigzag(raw, at: &offset, end: end))
            carry.containerID = containerID
        }
        return Archive.Entry(
            kind: kind, local: Stamp(size: localSize, modified: localDate),
            container: Stamp(size: containerSize, modified: containerDate), containerTag: tag,
            localID: localID, containerID: containerID)
    }

    /// Refuses a path that could reach outside the synced folder or name nothing, or that is not
    /// UTF-8.
    private static func validate(_ path: [UInt8]) throws(ArchiveCodec.DecodeFailure) {
        var component = 0
        var dots = 0
        var ascii = true
        for byte in path {
            if byte == UInt8(ascii: "/") {
                guard component > 0, !(dots == component && dots <= 2) else { throw invalid(path) }
                component = 0
                dots = 0
            } else {
                guard byte != 0 else { throw invalid(path) }
                component += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
                if byte >= 0x80 { ascii = false }
            }
        }
        guard component > 0, !(dots == component && dots <= 2) else { throw invalid(path) }
        guard ascii || String(validating: path, as: UTF8.self) != nil else {
            throw .corrupt("a name that is not UTF-8 in '\(String(decoding: path, as: UTF8.self))'")
        }
    }

    private static func invalid(_ path: [UInt8]) -> ArchiveCodec.DecodeFailure {
        .corrupt("invalid entry '\(String(decoding: path, as: UTF8.self))'")
    }

    // MARK: - Writing

    /// Writes entries in the table's form, in path order.
    struct Builder {
        /// Entries from one restart to the next.
        let interval = ArchiveTable.restartInterval
        /// The offset of each restart: in the writer, plus ``base``.
        private(set) var restarts: [Int] = []
        /// What is added to a writer's offsets in ``restarts``: the bytes written before it, for
        /// a table written through several writers (a file written in pieces).
        var base = 0
        /// How many entries are written.
        private(set) var count = 0
        private var previous: [UInt8] = []
        private var carry = Carry()

        /// Appends an entry; `path` must come after the previous one in path order.
        mutating func append(_ path: SyncPath, _ entry: Archive.Entry, to writer: inout ByteWriter) {
            let restart = count % interval == 0
            if restart { restarts.append(base + writer.count) }
            var text = path.rawValue
            text.withUTF8 { bytes in
                var shared = 0
                if !restart {
                    let limit = min(bytes.count, previous.count)
                    while shared < limit, bytes[shared] == previous[shared] { shared += 1 }
                }
                assert(
                    restart || previous.withUnsafeBytes { Self.orderIsIncreasing($0, UnsafeRawBufferPointer(bytes)) })
                writer.append(varint: UInt64(shared))
                writer.append(varint: UInt64(bytes.count - shared))
                writer.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[shared...]))
                previous.removeSubrange(shared...)
                previous.append(contentsOf: bytes[shared...])
            }
            var flags: UInt8 = entry.kind == .directory ? 1 : entry.kind == .symbolicLink ? 2 : 0
            if entry.containerTag != 0 { flags |= ArchiveTable.tagFlag }
            if entry.container.size != entry.local.size { flags |= ArchiveTable.sizeFlag }
            if entry.container.modified != entry.local.modified { flags |= ArchiveTable.dateFlag }
            if entry.localID != 0 { flags |= ArchiveTable.localIDFlag }
            if entry.containerID != 0 { flags |= ArchiveTable.containerIDFlag }
            writer.append(flags)
            if restart { carry = Carry() }
            if entry.containerTag != 0 { writer.append(entry.containerTag) }
            writer.append(zigzag: entry.local.size)
            writer.append(zigzag: entry.local.modified &- carry.date)
            if entry.container.size != entry.local.size { writer.append(zigzag: entry.container.size) }
            if entry.container.modified != entry.local.modified {
                writer.append(zigzag: entry.container.modified &- entry.local.modified)
            }
            carry.date = entry.local.modified
            if entry.localID != 0 {
                writer.append(zigzag: Int64(bitPattern: entry.localID &- carry.localID))
                carry.localID = entry.localID
            }
            if entry.containerID != 0 {
                writer.append(zigzag: Int64(bitPattern: entry.containerID &- carry.containerID))
                carry.containerID = entry.containerID
            }
            count += 1
        }

        /// Appends the whole blocks `blocks` of `table` (``ArchiveTable/block(_:)``), written with
        /// the same interval, byte for byte, in one copy: each block's first entry is stored whole
        /// and stores nothing against the entry before, so it reads the same here, its restart
        /// moved by where it lands; the next entry appended is a restart too.
        mutating func appendBlocks(
            _ blocks: Range<Int>, of table: ArchiveTable, bytes: UnsafeRawBufferPointer, to writer: inout ByteWriter
        ) {
            precondition(count % interval == 0 && table.interval == interval, "blocks start at a restart")
            let shift = base + writer.count - table.restartOffsets(blocks).first!
            restarts.append(contentsOf: table.restartOffsets(blocks).lazy.map { $0 + shift })
            writer.append(bytes)
            count += interval * blocks.count
        }

        private static func orderIsIncreasing(_ before: UnsafeRawBufferPointer, _ after: UnsafeRawBufferPointer) -> Bool
        {
            ArchiveTable.order(before, after) < 0
        }
    }

    /// A table of `entries` (sorted here), built in memory.
    init(_ entries: some Sequence<(key: SyncPath, value: Archive.Entry)>) {
        let sorted = entries.sorted { $0.key < $1.key }
        var writer = ByteWriter(capacity: sorted.count * 16)
        var builder = Builder()
        for (path, entry) in sorted { builder.append(path, entry, to: &writer) }
        self.init(writer.finish(), builder: builder)
    }

    /// The table `builder` wrote into `data[start..<end]` (`data` is its writer's bytes).
    init(_ data: Data, start: Int = 0, end: Int? = nil, builder: Builder) {
        self.init(
            data: data, start: start, end: end ?? data.count, count: builder.count, interval: builder.interval,
            restarts: builder.restarts)
    }
}
