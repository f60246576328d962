import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// Version 6 keeps the archive's entries in the state file's compact sorted form, in memory too:
/// paths that share their first bytes, numbers as varints, a restart every 16 entries.
@Suite struct ArchiveTableTests {
    typealias Entry = Archive.Entry

    /// A tree of files and folders with names that test the order: NFC and NFD, bytes below and
    /// above `/`, spaces, emoji, deep folders; random stamps, some with tags.
    static func tree(_ count: Int, seed: UInt64) -> [SyncPath: Entry] {
        var random = SplitMix64(seed: seed)
        let names = [
            "a", "a b", "a-c", "a.d", "ab", "caf\u{E9}", "cafe\u{301}", "z", "\u{1F600}", "x\u{1}y",
            "long-name-of-thirty-bytes.txt",
        ]
        var entries: [SyncPath: Entry] = [:]
        var folders: [SyncPath] = []
        while entries.count < count {
            let name = names.randomElement(using: &random)! + String(Int.random(in: 0..<40, using: &random))
            let parent =
                folders.isEmpty || Bool.random(using: &random) && folders.count < 3
                ? nil : folders.randomElement(using: &random)
            let path = parent?.appending(name) ?? SyncPath(name)
            guard entries[path] == nil else { continue }
            if Int.random(in: 0..<5, using: &random) == 0 {
                entries[path] = Entry(
                    kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
                folders.append(path)
            } else {
                let size = Int64.random(in: 0..<5_000_000, using: &random)
                let date = Int64.random(in: 0..<2_000_000_000_000_000_000, using: &random)
                let other = Bool.random(using: &random)
                entries[path] = Entry(
                    kind: Int.random(in: 0..<10, using: &random) == 0 ? .symbolicLink : .file,
                    local: Stamp(size: size, modified: date),
                    container: Stamp(size: other ? size + 1 : size, modified: other ? date - 7 : date),
                    containerTag: Bool.random(using: &random) ? UInt32.random(in: 1...UInt32.max, using: &random) : 0)
            }
        }
        return entries
    }

    @Test("two thousand entries round-trip; each is found, paths between them are not, and they iterate in path order")
    func roundTripAndLookUp() throws {
        let entries = Self.tree(2_000, seed: 6)
        let archive = Archive(localRoot: "/a", containerRoot: "/b", entries: ArchiveEntries(entries))
        let decoded = try ArchiveCodec.decode(ArchiveCodec.encode(archive))
        #expect(decoded == archive)
        #expect(decoded.entries.count == 2_000)
        #expect(decoded.entries.map(\.key) == entries.keys.sorted())
        for (path, entry) in entries {
            #expect(decoded.entries[path] == entry, "\(path)")
            #expect(decoded.entries[SyncPath(path.rawValue + "~")] == nil)
            #expect(decoded.entries[path.appending("inside")] == nil)
        }
        #expect(decoded.entries[SyncPath("\u{1}")] == nil && decoded.entries[SyncPath("\u{10FFFF}")] == nil)
    }

    @Test(
        "identities round-trip, none, close, far apart both ways and the largest, across restarts; close ones take a byte"
    )
    func identities() throws {
        var entries = Self.tree(300, seed: 11)
        var random = SplitMix64(seed: 12)
        var previous: UInt64 = 1_000_000
        for path in entries.keys.sorted() {
            let local: UInt64
            switch Int.random(in: 0..<6, using: &random) {
            case 0: local = 0
            case 1: local = UInt64.max
            case 2: local = UInt64.random(in: 1...UInt64.max, using: &random)
            default: local = previous &+ UInt64.random(in: 1...3, using: &random)
            }
            if local != 0 { previous = local }
            entries[path]!.localID = local
            entries[path]!.containerID = Bool.random(using: &random) ? 0 : local ^ 0xFFFF
        }
        let archive = Archive(localRoot: "/a", containerRoot: "/b", entries: ArchiveEntries(entries))
        let decoded = try ArchiveCodec.decode(ArchiveCodec.encode(archive))
        #expect(decoded == archive)
        for (path, entry) in entries { #expect(decoded.entries[path] == entry, "\(path)") }
        // Inodes of one folder's files, one after another: one byte each beyond the entry without.
        let file = Entry(kind: .file, local: Stamp(size: 1, modified: 1), container: Stamp(size: 1, modified: 1))
        var bare: [SyncPath: Entry] = [:]
        var numbered: [SyncPath: Entry] = [:]
        for index in 0..<1_000 {
            let path = SyncPath("f" + String(1_000 + index))
            bare[path] = file
            numbered[path] = file
            numbered[path]!.localID = 5_000_000 + UInt64(index)
        }
        let sizes = [bare, numbered].map { ArchiveEntries($0).compacted().end }
        #expect(sizes[1] - sizes[0] < 1_000 + 1_000 / 16 * 4, "\(sizes)")
    }

    @Test("a walk of a range of ordinals gives those entries, in order, and a folder's range holds what is below it")
    func walkOfARange() throws {
        let entries = Self.tree(2_000, seed: 8)
        let decoded = try ArchiveCodec.decode(
            ArchiveCodec.encode(Archive(localRoot: "/a", containerRoot: "/b", entries: ArchiveEntries(entries))))
        let table = decoded.entries.table
        let all = entries.sorted { $0.key < $1.key }
        var random = SplitMix64(seed: 9)
        for _ in 0..<50 {
            let lower = Int(random.next() % 2_010)
            let upper = lower + Int(random.next() % 300)
            var walked: [(Int, SyncPath, Archive.Entry)] = []
            table.forEach(in: lower..<upper) { ordinal, bytes, entry in
                walked.append((ordinal, SyncPath(String(decoding: bytes, as: UTF8.self)), entry))
            }
            let expected = Array(all.enumerated().filter { (lower..<upper).contains($0.offset) })
            #expect(walked.map(\.0) == expected.map(\.offset), "\(lower)..<\(upper)")
            #expect(walked.map(\.1) == expected.map(\.element.key))
            #expect(walked.map(\.2) == expected.map(\.element.value))
        }
        for folder in entries.filter({ $0.value.kind == .directory }).map(\.key) {
            let below = all.map(\.key).filter { $0.isDescendant(of: folder) }
            #expect(decoded.entries.tablePaths(below: folder) == below, "\(folder)")
        }
    }

    @Test("a folder's children are found in one walk, sorted or not, past the contents of its subfolders")
    func children() throws {
        let entries = Self.tree(1_500, seed: 7)
        let table = ArchiveTable(entries.map { ($0.key, $0.value) })
        var random = SplitMix64(seed: 8)
        let folders: [SyncPath?] = [nil] + entries.filter { $0.value.kind == .directory }.map(\.key)
        for folder in folders {
            let children = entries.keys.filter { $0.parent == folder }.map(\.name)
            let absent = ["", "0", "a", "zz", "\u{1}", "\u{10FFFF}"].filter { name in
                !children.contains(name) && !name.isEmpty
            }
            let sorted = (children + absent).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for names in [sorted, sorted.shuffled(using: &random)] {
                let found = table.children(names, of: folder)
                for (name, result) in zip(names, found) {
                    let path = folder?.appending(name) ?? SyncPath(name)
                    #expect(result?.entry == entries[path], "\(path)")
                    if let result { #expect(table.find(path)?.ordinal == result.ordinal) }
                }
            }
        }
    }

    @Test("changes sit beside the table: set, replace, remove, re-add; count, order and equality follow")
    func changes() throws {
        let base: ArchiveEntries = [
            SyncPath("b"): Fixtures.entry(1), SyncPath("d"): Fixtures.entry(2), SyncPath("f"): Fixtures.entry(3),
        ]
        var entries = try ArchiveCodec.decode(
            ArchiveCodec.encode(Archive(localRoot: "/a", containerRoot: "/b", entries: base))
        ).entries
        #expect(entries.updateValue(Fixtures.entry(4), forKey: SyncPath("a")) == nil)
        #expect(entries.updateValue(Fixtures.entry(5), forKey: SyncPath("d")) == Fixtures.entry(2))
        #expect(entries.removeValue(forKey: SyncPath("f")) == Fixtures.entry(3))
        #expect(entries.removeValue(forKey: SyncPath("f")) == nil)
        #expect(entries.removeValue(forKey: SyncPath("nothing")) == nil)
        entries[SyncPath("e")] = Fixtures.entry(6)
        entries[SyncPath("e")] = nil
        entries[SyncPath("c")] = Fixtures.entry(7)
        #expect(entries.count == 4)
        #expect(entries.map(\.key) == ["a", "b", "c", "d"].map(SyncPath.init))
        #expect(
            entries[SyncPath("d")] == Fixtures.entry(5) && entries[SyncPath("f")] == nil
                && entries[SyncPath("e")] == nil)
        let same: ArchiveEntries = [
            SyncPath("a"): Fixtures.entry(4), SyncPath("b"): Fixtures.entry(1), SyncPath("c"): Fixtures.entry(7),
            SyncPath("d"): Fixtures.entry(5),
        ]
        #expect(entries == same && entries.hashValue == same.hashValue)
        #expect(!entries.changesKeepPaths)
        entries[SyncPath("f")] = Fixtures.entry(3)
        #expect(entries.count == 5 && entries.map(\.key).last == SyncPath("f"))
        // Committed and read again: one table, no changes.
        let reread = try ArchiveCodec.decode(
            ArchiveCodec.encode(Archive(localRoot: "/a", containerRoot: "/b", entries: entries)))
        #expect(reread.entries == entries && reread.entries.changes.isEmpty)
    }

    @Test("entries share their paths' first bytes: the bench tree's entries take 13 bytes each, not 55")
    func compact() {
        var entries: [SyncPath: Entry] = [:]
        var date: Int64 = 1_763_782_345_000_000_000
        for index in 0..<10_000 {
            date += 37_000
            let stamp = Stamp(size: Int64(index % 65), modified: date)
            entries[SyncPath("d\(String(format: "%04d", index / 100))/f\(String(format: "%02d", index % 100)).txt")] =
                Entry(kind: .file, local: stamp, container: stamp)
        }
        let data = ArchiveCodec.encode(Archive(localRoot: "/a", containerRoot: "/b", entries: ArchiveEntries(entries)))
        #expect(data.count < 10_000 * 14, "\(data.count) bytes")
    }

    /// An archive of entries "a" and "b" whose bytes are altered by `alter` (given the offset
    /// where entry "a" starts) and sealed with a fresh checksum.
    private func altered(_ alter: (inout [UInt8], Int) -> Void) throws -> Data {
        let archive: ArchiveEntries = [SyncPath("a"): Fixtures.entry(1), SyncPath("b"): Fixtures.entry(2)]
        var bytes = Array(ArchiveCodec.encode(Archive(localRoot: "/l", containerRoot: "/c", entries: archive)))
        let start = try #require(bytes.firstRange(of: [0, 1, UInt8(ascii: "a")])).lowerBound
        bytes.removeLast(8)
        alter(&bytes, start)
        withUnsafeBytes(of: Checksum.xxh64(bytes).littleEndian) { bytes += $0 }
        return Data(bytes)
    }

    @Test(
        "entries out of order, twice, sharing more than there is, or with unknown flags are damage even with a valid checksum"
    )
    func damagedEntries() throws {
        #expect(try ArchiveCodec.decode(altered { _, _ in }).entries.count == 2, "the unaltered file reads")
        let entrySize = 6  // shared, length, "a", flags, size, date of Fixtures.entry(1)
        let cases: [(String, (inout [UInt8], Int) -> Void)] = [
            ("b before a", { bytes, at in bytes[at + entrySize + 2] = UInt8(ascii: "0") }),
            ("a twice", { bytes, at in bytes[at + entrySize + 2] = UInt8(ascii: "a") }),
            ("shares 2 bytes of a 1-byte path", { bytes, at in bytes[at + entrySize] = 2 }),
            ("shares at a restart", { bytes, at in bytes[at] = 1 }),
            ("unknown flags", { bytes, at in bytes[at + 3] |= 0x80 }),
            ("unknown kind", { bytes, at in bytes[at + 3] |= 3 }),
            ("a path with a slash at its end", { bytes, at in bytes[at + entrySize + 2] = UInt8(ascii: "/") }),
            ("one entry counted", { bytes, at in bytes[at - 12] = 1 }),
            ("three entries counted", { bytes, at in bytes[at - 12] = 3 }),
            ("no restart interval", { bytes, at in bytes[at - 4] = 0 }),
        ]
        for (name, alter) in cases {
            let data = try altered(alter)
            do {
                let archive = try ArchiveCodec.decode(data)
                Issue.record("\(name): read \(archive.entries.count) entries")
            } catch {
                guard case .corrupt = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
            }
        }
    }

    @Test("a restart's whole path must come after the entry before it too")
    func orderAcrossRestart() throws {
        var entries: [SyncPath: Entry] = [:]
        for index in 0...16 { entries[SyncPath("p" + String(format: "%02d", index))] = Fixtures.entry(Int64(index)) }
        var bytes = Array(
            ArchiveCodec.encode(Archive(localRoot: "/l", containerRoot: "/c", entries: ArchiveEntries(entries))))
        #expect(try ArchiveCodec.decode(Data(bytes)).entries.count == 17)
        // Entry 16 starts the second run of 16: nothing shared, its whole path.
        let at = try #require(bytes.firstRange(of: [0, 3] + Array("p16".utf8))).lowerBound
        bytes[at + 3] = UInt8(ascii: "0")
        bytes[at + 4] = UInt8(ascii: "9")
        bytes.removeLast(8)
        withUnsafeBytes(of: Checksum.xxh64(bytes).littleEndian) { bytes += $0 }
        #expect(throws: ArchiveCodec.DecodeFailure.corrupt("entries out of order at byte \(at)")) {
            try ArchiveCodec.decode(Data(bytes))
        }
    }

    @Test("a version 5 file (fixed-size entries) is read with its tags, and written again as version 8")
    func version5() throws {
        var bytes = Array("SEAMSARC".utf8)
        func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8)
        }
        append(UInt32(5))
        append(UInt32(0))
        append("/a")
        append("/b")
        append("id")
        append(UInt64(3))
        append(UInt64(2))
        append("d")
        bytes.append(1)
        append(UInt32(0))
        for value: Int64 in [0, 0, 0, 0] { append(UInt64(bitPattern: value)) }
        append("d/f")
        bytes.append(0)
        append(UInt32(0xCAFE))
        for value: Int64 in [5, 6, 5, 7] { append(UInt64(bitPattern: value)) }
        append(Checksum.fnv1a(bytes))
        let archive = try ArchiveCodec.decode(Data(bytes))
        #expect(archive.replica == ReplicaIdentity(id: "id", generation: 3))
        #expect(
            archive.entries[SyncPath("d/f")]
                == Entry(
                    kind: .file, local: Stamp(size: 5, modified: 6), container: Stamp(size: 5, modified: 7),
                    containerTag: 0xCAFE))
        let again = ArchiveCodec.encode(archive)
        #expect(Array(again[8..<12]) == [UInt8(ArchiveCodec.currentVersion), 0, 0, 0])
        #expect(try ArchiveCodec.decode(again) == archive)
    }
}

/// The scans' unchanged paths are bits of the archive's table; the reconciler and the completing
/// reads work on the bits, and must decide exactly what they decide from plain sets of paths.
@Suite struct UnchangedBitsTests {
    /// An archive, and two scans of it where each entry is unchanged, changed or gone on each
    /// side, plus new items: once as bits of the archive's table, once as plain sets.
    struct Case {
        var archive: Archive
        var bits: (Snapshot, Snapshot)
        var sets: (Snapshot, Snapshot)
        /// What a read of a path finds on a side now.
        var now: [Side: [SyncPath: FileMetadata]]
    }

    static func makeCase(seed: UInt64) throws -> Case {
        var random = SplitMix64(seed: seed)
        let entries = ArchiveTableTests.tree(400, seed: seed)
        let archive = try ArchiveCodec.decode(
            ArchiveCodec.encode(Archive(localRoot: "/l", containerRoot: "/c", entries: ArchiveEntries(entries))))
        let table = archive.entries.table
        var bits = (Snapshot(), Snapshot())
        bits.0.unchanged = UnchangedPaths(table: table)
        bits.1.unchanged = UnchangedPaths(table: table)
        var now: [Side: [SyncPath: FileMetadata]] = [.local: [:], .container: [:]]
        for side in Side.allCases {
            var snapshot = side == .local ? bits.0 : bits.1
            for (path, entry) in entries {
                let stamp = entry.stamp(on: side)
                let item = FileMetadata(
                    kind: entry.kind, size: stamp.size,
                    modificationDate: Date(timeIntervalSince1970: Double(stamp.modified) / 1e9),
                    permissions: 0o644, fileIdentifier: 1)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<7:
                    snapshot.unchanged.insert(ordinal: try #require(table.find(path)).ordinal)
                    // A read after the scan finds it as it was, changed since, or gone.
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0: now[side]![path] = Fixtures.file(stamp.size + 3, at: 5)
                    case 1: break
                    default: now[side]![path] = item
                    }
                case 7, 8:
                    snapshot.items[path] = Fixtures.file(
                        stamp.size + 1, at: Double(Int.random(in: 1...9, using: &random)))
                default:
                    break
                }
            }
            for index in 0..<Int.random(in: 0..<20, using: &random) {
                snapshot.items[SyncPath("new\(index)")] = Fixtures.file(Int64(index), at: Double(index))
            }
            if side == .local { bits.0 = snapshot } else { bits.1 = snapshot }
        }
        var sets = bits
        sets.0.unchanged = UnchangedPaths(Array(bits.0.unchanged))
        sets.1.unchanged = UnchangedPaths(Array(bits.1.unchanged))
        return Case(archive: archive, bits: bits, sets: sets, now: now)
    }

    @Test("rows from bits equal rows from sets: in sync, unchanged on one side, gone, changed, new", arguments: 1...12)
    func rows(seed: Int) throws {
        let scenario = try Self.makeCase(seed: UInt64(seed))
        #expect(Reconciler.usesBits(archive: scenario.archive, local: scenario.bits.0, container: scenario.bits.1))
        #expect(!Reconciler.usesBits(archive: scenario.archive, local: scenario.sets.0, container: scenario.sets.1))
        let fromBits = Reconciler.rows(archive: scenario.archive, local: scenario.bits.0, container: scenario.bits.1)
        let fromSets = Reconciler.rows(archive: scenario.archive, local: scenario.sets.0, container: scenario.sets.1)
        #expect(fromBits.inSync == fromSets.inSync)
        #expect(fromBits.rows == fromSets.rows)
        #expect(fromBits.inSync + fromBits.rows.count > 400)
    }

    @Test(
        "the completing reads from bits are the reads from sets, in the same order, and leave the same plan",
        arguments: 1...12)
    func complete(seed: Int) throws {
        var scenario = try Self.makeCase(seed: UInt64(seed) + 100)
        do {
            var reads: [[String]] = []
            var results: [(Snapshot, Snapshot)] = []
            for var (local, container) in [scenario.bits, scenario.sets] {
                var log: [String] = []
                let count = Snapshot.complete(&local, &container) { path, side in
                    log.append("\(side) \(path)")
                    return scenario.now[side]![path]
                }
                #expect(count == log.count)
                reads.append(log)
                results.append((local, container))
            }
            #expect(reads[0] == reads[1])
            #expect(!reads[0].isEmpty)
            #expect(results[0].0.items == results[1].0.items && results[0].1.items == results[1].1.items)
            #expect(Set(results[0].0.unchanged) == Set(results[1].0.unchanged))
            #expect(Set(results[0].1.unchanged) == Set(results[1].1.unchanged))
            let plans = results.map { Reconciler().plan(archive: scenario.archive, local: $0.0, container: $0.1) }
            #expect(plans[0].entries == plans[1].entries && plans[0].inSync == plans[1].inSync)
        }
        // A learned tag replaces an entry: the bits still hold, and the row shows the new entry.
        let path = try #require(scenario.archive.entries.first { $0.value.kind == .file }?.key)
        scenario.archive.entries[path]?.containerTag = 0xABCD
        #expect(scenario.archive.entries.changesKeepPaths)
        let fromBits = Reconciler.rows(archive: scenario.archive, local: scenario.bits.0, container: scenario.bits.1)
        let fromSets = Reconciler.rows(archive: scenario.archive, local: scenario.sets.0, container: scenario.sets.1)
        #expect(fromBits.rows == fromSets.rows && fromBits.inSync == fromSets.inSync)
    }

    @Test("unchanged paths answer as a set: bits and paths given by hand")
    func setLike() throws {
        let archive = try ArchiveCodec.decode(
            ArchiveCodec.encode(
                Archive(
                    localRoot: "/l", containerRoot: "/c",
                    entries: [
                        SyncPath("a"): Fixtures.entry(1), SyncPath("a/b"): Fixtures.entry(2),
                        SyncPath("c"): Fixtures.entry(3),
                    ])))
        var paths = UnchangedPaths(table: archive.entries.table)
        #expect(paths.isEmpty && !paths.contains(SyncPath("a")))
        paths.insert(SyncPath("c"))
        paths.insert(SyncPath("a"))
        paths.insert(SyncPath("elsewhere"))
        paths.insert(SyncPath("a"))
        #expect(paths.count == 3 && Array(paths) == ["a", "c", "elsewhere"].map(SyncPath.init))
        #expect(
            paths.contains(SyncPath("a")) && !paths.contains(SyncPath("a/b")) && paths.contains(SyncPath("elsewhere")))
        #expect(!paths.isBits(of: archive.entries.table), "a path given by hand is not a bit")
        #expect(paths.remove(SyncPath("elsewhere")) != nil && paths.isBits(of: archive.entries.table))
        #expect(paths.remove(SyncPath("a")) == SyncPath("a") && paths.remove(SyncPath("a")) == nil)
        #expect(paths == [SyncPath("c")])
    }
}

extension Fixtures {
    /// An entry whose stamps are `n` on both sides.
    static func entry(_ n: Int64) -> Archive.Entry {
        Archive.Entry(kind: .file, local: Stamp(size: n, modified: n), container: Stamp(size: n, modified: n))
    }
}
