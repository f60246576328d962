import Foundation
import Seams
import SeamsCore
import Testing

@testable import SeamsSync

@Suite struct ArchiveCodecTests {
    @Test("an archive survives encoding, NFC and NFD paths kept apart")
    func roundTrip() throws {
        var archive = Archive(localRoot: "/home/me/Notes", containerRoot: "/mnt/sync")
        archive.entries[SyncPath("caf\u{E9}")] = .init(
            kind: .file, local: Stamp(size: 1, modified: 5), container: Stamp(size: 1, modified: 6))
        archive.entries[SyncPath("cafe\u{301}")] = .init(
            kind: .file, local: Stamp(size: 2, modified: 7), container: Stamp(size: 2, modified: 7))
        archive.entries[SyncPath("d")] = .init(
            kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
        let decoded = try ArchiveCodec.decode(ArchiveCodec.encode(archive))
        #expect(decoded == archive)
        #expect(decoded.entries.count == 3)
    }

    @Test("a state made an entry at a time is the file as a whole encoding makes it, and is written without a copy")
    func streamedEncoding() throws {
        var archive = Archive(localRoot: "/home/me/Notes", containerRoot: "/mnt/sync")
        archive.replica = ReplicaIdentity(id: "replica", generation: 4)
        var whole = archive
        var streamed = ArchiveCodec.StreamedEncoding(of: archive)
        // Enough entries for several restarts; folders, links, identities and a container tag.
        for n in 0..<100 {
            let path = SyncPath(String(format: "d%02d/f.txt", n))
            let entry = Archive.Entry(
                kind: n % 7 == 0 ? .symbolicLink : .file, local: Stamp(size: Int64(n), modified: 1_000 + Int64(n)),
                container: Stamp(size: Int64(n), modified: 2_000), containerTag: UInt32(n % 3), localID: UInt64(n))
            let folder = Archive.Entry(
                kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
            streamed.append(path.parent!, folder)
            streamed.append(path, entry)
            whole.entries[path.parent!] = folder
            whole.entries[path] = entry
        }
        archive.entries = ArchiveEntries(table: streamed.finish())
        let bytes = ArchiveCodec.encode(whole)
        #expect(ArchiveCodec.encode(archive) == bytes)
        #expect(try ArchiveCodec.decode(bytes) == whole && archive == whole)
        // The file as it is: the very bytes the table reads.
        let table = archive.entries.table
        #expect(
            table.data.withUnsafeBytes { $0.baseAddress }
                == ArchiveCodec.encode(archive).withUnsafeBytes { $0.baseAddress })
        // Another generation, or an entry changed since: encoded again, and right.
        var later = archive
        later.replica = ReplicaIdentity(id: "replica", generation: 5)
        #expect(try ArchiveCodec.decode(ArchiveCodec.encode(later)) == later)
        var changed = archive
        changed.entries[SyncPath("d00")] = nil
        changed.entries[SyncPath("a.txt")] = Archive.Entry(
            kind: .file, local: Stamp(size: 1, modified: 1), container: Stamp(size: 1, modified: 1))
        let decoded = try ArchiveCodec.decode(ArchiveCodec.encode(changed))
        #expect(decoded == changed && decoded.entries.count == 200 && decoded.entries[SyncPath("d00")] == nil)
    }

    @Test(
        "the file in pieces is the whole file, each piece but the last at least the size asked",
        arguments: [1, 7, 64, 1 << 20])
    func pieces(size: Int) throws {
        var archive = Archive(localRoot: "/home/me/Notes", containerRoot: "/mnt/sync")
        archive.replica = ReplicaIdentity(id: "replica", generation: 4)
        var streamed = ArchiveCodec.StreamedEncoding(of: archive)
        for n in 0..<100 {
            let entry = Archive.Entry(
                kind: .file, local: Stamp(size: Int64(n), modified: 1_000 + Int64(n)),
                container: Stamp(size: Int64(n), modified: 2_000), containerTag: UInt32(n % 3), localID: UInt64(n))
            streamed.append(SyncPath(String(format: "f%03d.txt", n)), entry)
        }
        archive.entries = ArchiveEntries(table: streamed.finish())
        var changed = archive
        changed.entries[SyncPath("f050.txt")] = nil
        changed.entries[SyncPath("a.txt")] = Archive.Entry(
            kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
        for whole in [archive, changed] {
            var pieces = ArchiveCodec.Pieces(whole, pieceSize: size)
            var collected: [Data] = []
            while let piece = pieces.next() { collected.append(piece) }
            #expect(pieces.next() == nil)
            let joined = collected.reduce(into: Data()) { $0.append($1) }
            #expect(joined == ArchiveCodec.encode(whole))
            #expect(try ArchiveCodec.decode(joined) == whole)
            // The header, then pieces of at least `size` bytes; the last may be shorter.
            #expect(collected.dropFirst().dropLast().allSatisfy { $0.count >= size })
            if whole == archive {
                // Unchanged since it was streamed: the file as it is, one piece.
                #expect(collected.count == 1)
            } else {
                #expect(collected.count >= min(3, joined.count / size))
            }
        }
    }

    /// An archive of `count` files read back from its file, as a run starts with it.
    func readArchive(_ count: Int) throws -> Archive {
        var archive = Archive(localRoot: "/home/me/Notes", containerRoot: "/mnt/sync")
        archive.replica = ReplicaIdentity(id: "replica", generation: 2)
        for n in 0..<count {
            archive.entries[SyncPath(String(format: "d%02d/f%04d.txt", n % 7, n))] = Archive.Entry(
                kind: .file, local: Stamp(size: Int64(n * 3), modified: 1_000_000 + Int64(n)),
                container: Stamp(size: Int64(n * 3), modified: n % 5 == 0 ? 2_000 : 1_000_000 + Int64(n)),
                containerTag: UInt32(n % 4), localID: UInt64(5_000 + n), containerID: UInt64(n % 3))
        }
        return try ArchiveCodec.decode(ArchiveCodec.encode(archive))
    }

    /// The file of `archive` with unchanged blocks copied, the blocks copied, and the file with
    /// every entry encoded.
    func bothWays(_ archive: Archive, pieceSize: Int = 1 << 20) -> (Data, Int, Data) {
        var fast = ArchiveCodec.Pieces(archive, pieceSize: pieceSize)
        var copied = Data()
        while let piece = fast.next() { copied.append(piece) }
        var slow = ArchiveCodec.Pieces(archive, pieceSize: pieceSize, copiesBlocks: false)
        var encoded = Data()
        while let piece = slow.next() { encoded.append(piece) }
        return (copied, fast.copiedBlocks, encoded)
    }

    @Test(
        "a commit copies each block of entries it did not change as stored: only the blocks around a change are encoded again"
    )
    func unchangedBlocksCopied() throws {
        let archive = try readArchive(64)  // four blocks of 16
        let paths: [SyncPath] = archive.entries.map(\.key)
        var changed = archive
        changed.entries[paths[20]] = Archive.Entry(
            kind: .file, local: Stamp(size: 1, modified: 1), container: Stamp(size: 1, modified: 1))
        var (copied, blocks, encoded) = bothWays(changed)
        #expect(copied == encoded && blocks == 3, "blocks 0, 2 and 3")
        #expect(try ArchiveCodec.decode(copied) == changed)
        // A change at a block's first entry, and one at the last entry of the last block.
        changed.entries[paths[32]] = nil
        (copied, blocks, encoded) = bothWays(changed)
        #expect(copied == encoded && blocks == 1, "block 0 only: the entries after 32 moved by one")
        var last = archive
        last.entries[paths[63]] = Archive.Entry(
            kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
        (copied, blocks, encoded) = bothWays(last)
        #expect(try copied == encoded && blocks == 3 && ArchiveCodec.decode(copied) == last)
        // An entry added after the last: every block copied, the new one encoded after them.
        var added = archive
        added.entries[SyncPath("z.txt")] = Archive.Entry(
            kind: .file, local: Stamp(size: 9, modified: 9), container: Stamp(size: 9, modified: 9))
        (copied, blocks, encoded) = bothWays(added)
        #expect(copied == encoded && blocks == 3, "the last block is copied only when nothing follows it")
        #expect(try ArchiveCodec.decode(copied) == added)
    }

    @Test(
        "a file with unchanged blocks copied is byte for byte the file with every entry encoded, whatever the changes",
        arguments: 0..<40)
    func copiedBlocksMatchEncoding(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let count = Int.random(in: 0...200, using: &random)
        let archive = try readArchive(count)
        var changed = archive
        let paths: [SyncPath] = archive.entries.map(\.key)
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !paths.isEmpty:
                changed.entries[paths.randomElement(using: &random)!] = nil
            case 1 where !paths.isEmpty:
                let path = paths.randomElement(using: &random)!
                changed.entries[path] = Archive.Entry(
                    kind: .file, local: Stamp(size: 7, modified: Int64.random(in: 0...1 << 40, using: &random)),
                    container: Stamp(size: 7, modified: 3), localID: UInt64.random(in: 0...1 << 20, using: &random))
            default:
                let name = String(format: "d%02d/g%04d.txt", Int.random(in: 0..<9, using: &random), count)
                changed.entries[SyncPath(name)] = Archive.Entry(
                    kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
            }
        }
        for size in [1 << 20, 40, .max] {
            let (copied, _, encoded) = bothWays(changed, pieceSize: size)
            #expect(copied == encoded)
            #expect(try ArchiveCodec.decode(copied) == changed)
        }
    }

    @Test("XXH64 gives the reference implementation's hashes, whole or fed in pieces of any size")
    func xxh64() {
        // From the reference implementation (Python's xxhash 3, xxh64 with seed 0).
        let cases: [([UInt8], UInt64)] = [
            ([], 0xEF46_DB37_51D8_E999),
            (Array("a".utf8), 0xD24E_C4F1_A98C_6E5B),
            (Array("abc".utf8), 0x44BC_2CF5_AD77_0999),
            (Array("seams-sync state".utf8), 0xE348_1A08_A7AF_2A03),
            (Array((0..<3).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8), 0xE921_A1B4_5BD7_79F8),
        ]
        for (bytes, expected) in cases {
            #expect(Checksum.xxh64(bytes) == expected, "\(bytes.count) bytes")
            for size in [1, 3, 8, 31, 32, 33, 100] {
                var hasher = XXH64()
                bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let end = min(offset + size, raw.count)
                        hasher.update(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                        offset = end
                    }
                }
                #expect(hasher.finish() == expected, "\(bytes.count) bytes in pieces of \(size)")
            }
        }
    }

    @Test("a version 7 file (the same bytes, checked by FNV-1a) is read; a version 8 file must carry XXH64")
    func version7() throws {
        let archive = try readArchive(40)
        var bytes = Array(ArchiveCodec.encode(archive))
        #expect(ArchiveCodec.version(of: Data(bytes)) == 8)
        bytes.removeLast(8)
        var fnv = bytes
        fnv.replaceSubrange(8..<12, with: [7, 0, 0, 0])
        withUnsafeBytes(of: Checksum.fnv1a(fnv).littleEndian) { fnv += $0 }
        #expect(ArchiveCodec.version(of: Data(fnv)) == 7)
        #expect(try ArchiveCodec.decode(Data(fnv)) == archive)
        // Version 8 with the old checksum, and version 7 with the new: both refused, nothing read.
        var mixed = bytes
        withUnsafeBytes(of: Checksum.fnv1a(bytes).littleEndian) { mixed += $0 }
        #expect(throws: ArchiveCodec.DecodeFailure.corrupt("checksum mismatch")) {
            try ArchiveCodec.decode(Data(mixed))
        }
        var older = Array(fnv.dropLast(8))
        withUnsafeBytes(of: Checksum.xxh64(older).littleEndian) { older += $0 }
        #expect(throws: ArchiveCodec.DecodeFailure.corrupt("checksum mismatch")) {
            try ArchiveCodec.decode(Data(older))
        }
    }

    @Test("the file starts with its magic and version, and the same archive always gives the same bytes")
    func header() throws {
        var archive = Archive(localRoot: "/a", containerRoot: "/b")
        for name in ["z", "a", "a/b", "a-c", "m"] {
            archive.entries[SyncPath(name)] = .init(
                kind: .file, local: Stamp(size: 1, modified: 2), container: Stamp(size: 1, modified: 2))
        }
        let data = ArchiveCodec.encode(archive)
        #expect(Array(data.prefix(8)) == Array("SEAMSARC".utf8))
        #expect(Array(data[8..<12]) == [8, 0, 0, 0])
        var shuffled = Archive(localRoot: "/a", containerRoot: "/b")
        for (path, entry) in archive.entries.shuffled() { shuffled.entries[path] = entry }
        #expect(ArchiveCodec.encode(shuffled) == data)
    }

    @Test("a version 1 (JSON) archive is still read")
    func version1() throws {
        let text =
            #"{"format":"seams-sync.archive","version":1,"local":"/a","container":"/b","entries":["#
            + #"{"p":"d","k":"directory","ls":0,"lm":0,"cs":0,"cm":0},"#
            + #"{"p":"d/café.txt","k":"file","ls":3,"lm":1763782345000000001,"cs":3,"cm":1763782345000000002}]}"#
        let archive = try ArchiveCodec.decode(Data(text.utf8))
        #expect(archive.localRoot == "/a")
        #expect(archive.entries[SyncPath("d")]?.kind == .directory)
        #expect(
            archive.entries[SyncPath("d/caf\u{E9}.txt")]
                == .init(
                    kind: .file, local: Stamp(size: 3, modified: 1_763_782_345_000_000_001),
                    container: Stamp(size: 3, modified: 1_763_782_345_000_000_002)))
    }

    @Test(
        "damaged or foreign JSON reads as corrupt",
        arguments: [
            "", "not json", "{\"version\":1}", "{\"format\":\"something-else\",\"version\":1}",
            "{\"format\":\"seams-sync.archive\",\"version\":1,\"local\":\"/a\",\"container\":\"/b\",\"entries\":[{\"p\":\"/abs\",\"k\":\"file\",\"ls\":0,\"lm\":0,\"cs\":0,\"cm\":0}]}",
            "{\"format\":\"seams-sync.archive\",\"version\":1,\"local\":\"/a\"}",
        ])
    func corrupt(_ text: String) {
        expectCorrupt(Data(text.utf8))
    }

    @Test("every torn or altered binary archive reads as corrupt: each truncation and each flipped byte")
    func damagedBinary() throws {
        var archive = Archive(localRoot: "/home/me", containerRoot: "/mnt/c")
        archive.entries[SyncPath("a.txt")] = .init(
            kind: .file, local: Stamp(size: 1, modified: 5), container: Stamp(size: 1, modified: 6))
        archive.entries[SyncPath("d")] = .init(
            kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
        let data = ArchiveCodec.encode(archive)
        for length in 0..<data.count {
            expectCorrupt(data.prefix(length), "cut to \(length) bytes")
        }
        // Bytes 8..<12 are the version: a changed one reads as a newer version, refused untouched.
        for offset in Array(0..<8) + Array(12..<data.count) {
            var altered = data
            altered[offset] ^= 0x20
            expectCorrupt(altered, "byte \(offset) flipped")
        }
        expectCorrupt(data + Data([0]), "a byte appended")
    }

    @Test(
        "paths that could reach outside the folder are refused even with a valid checksum",
        arguments: [
            "", "/abs", "a//b", "a/", "..", "a/../b", ".", "./a", "a/.", "nul\u{0}byte",
        ])
    func unsafePaths(_ path: String) {
        var archive = Archive(localRoot: "/a", containerRoot: "/b")
        archive.entries[SyncPath(path)] = .init(
            kind: .file, local: Stamp(size: 1, modified: 1), container: Stamp(size: 1, modified: 1))
        expectCorrupt(ArchiveCodec.encode(archive), "path '\(path)'")
    }

    @Test("names made only of dots beyond '..' are ordinary names")
    func dottedNames() throws {
        var archive = Archive(localRoot: "/a", containerRoot: "/b")
        for name in ["...", ".hidden", "a/..b", "..c/d"] {
            archive.entries[SyncPath(name)] = .init(
                kind: .file, local: Stamp(size: 1, modified: 1), container: Stamp(size: 1, modified: 1))
        }
        #expect(try ArchiveCodec.decode(ArchiveCodec.encode(archive)) == archive)
    }

    @Test("a newer version is refused, not read: binary and JSON")
    func newerVersion() {
        let text = "{\"format\":\"seams-sync.archive\",\"version\":2,\"future\":true}"
        #expect(throws: ArchiveCodec.DecodeFailure.unsupportedVersion(2)) { try ArchiveCodec.decode(Data(text.utf8)) }
        var binary = ArchiveCodec.encode(Archive(localRoot: "/a", containerRoot: "/b"))
        binary[8] = UInt8(ArchiveCodec.currentVersion + 1)
        #expect(throws: ArchiveCodec.DecodeFailure.unsupportedVersion(ArchiveCodec.currentVersion + 1)) {
            try ArchiveCodec.decode(binary)
        }
    }

    private func expectCorrupt(
        _ data: Data, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let archive = try ArchiveCodec.decode(data)
            Issue.record(
                "decoded \(archive.entries.count) entries; expected corrupt. \(comment.map(String.init(describing:)) ?? "")",
                sourceLocation: sourceLocation)
        } catch {
            guard case .corrupt = error else {
                Issue.record(
                    "expected corrupt, got \(error). \(comment.map(String.init(describing:)) ?? "")",
                    sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Test("an unchanged item matches its archived stamp; a different size or date does not")
    func unchanged() {
        let item = Fixtures.file(10, at: 100)
        let archive = Fixtures.archive(["a": item])
        #expect(archive.isUnchanged(item, at: SyncPath("a"), on: .local))
        #expect(!archive.isUnchanged(Fixtures.file(11, at: 100), at: SyncPath("a"), on: .local))
        #expect(!archive.isUnchanged(Fixtures.file(10, at: 100.000_001), at: SyncPath("a"), on: .container))
        #expect(!archive.isUnchanged(Fixtures.folder(), at: SyncPath("a"), on: .local))
    }
}

/// Version 3 adds the container's identity; version 2 files still read.
@Suite struct ArchiveVersion3Tests {
    @Test("the container's identity and generation round-trip")
    func roundTrip() throws {
        var archive = Archive(
            localRoot: "/a", containerRoot: "/b", replica: ReplicaIdentity(id: "4f2c", generation: 41))
        archive.entries[SyncPath("x")] = .init(
            kind: .file, local: Stamp(size: 1, modified: 2), container: Stamp(size: 1, modified: 3))
        #expect(try ArchiveCodec.decode(ArchiveCodec.encode(archive)) == archive)
        let none = Archive(localRoot: "/a", containerRoot: "/b")
        #expect(try ArchiveCodec.decode(ArchiveCodec.encode(none)).replica == nil)
    }

    @Test("a version 2 file (no identity) is read, with its entries")
    func version2() throws {
        var bytes = Array("SEAMSARC".utf8)
        func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8)
        }
        append(UInt32(2))
        append(UInt32(0))
        append("/a")
        append("/b")
        append(UInt64(1))
        append("notes.txt")
        bytes.append(0)
        for value: Int64 in [5, 6, 5, 7] { append(UInt64(bitPattern: value)) }
        append(Checksum.fnv1a(bytes))
        let archive = try ArchiveCodec.decode(Data(bytes))
        #expect(archive.replica == nil)
        #expect(
            archive.entries == [
                SyncPath("notes.txt"): .init(
                    kind: .file, local: Stamp(size: 5, modified: 6), container: Stamp(size: 5, modified: 7))
            ])
    }
}

/// Version 4 records symbolic links (kind 2); a version 3 file cannot hold one.
@Suite struct ArchiveVersion4Tests {
    /// A file of `version` with one entry of `kind`, checksum and all.
    private func file(version: UInt32, kind: UInt8) -> Data {
        var bytes = Array("SEAMSARC".utf8)
        func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8)
        }
        append(version)
        append(UInt32(0))
        append("/a")
        append("/b")
        append("")
        append(UInt64(0))
        append(UInt64(1))
        append("link")
        bytes.append(kind)
        for value: Int64 in [6, 8, 6, 9] { append(UInt64(bitPattern: value)) }
        append(Checksum.fnv1a(bytes))
        return Data(bytes)
    }

    @Test("a link's entry round-trips as a link")
    func roundTrip() throws {
        var archive = Archive(localRoot: "/a", containerRoot: "/b")
        archive.entries[SyncPath("link")] = .init(
            kind: .symbolicLink, local: Stamp(size: 6, modified: 8), container: Stamp(size: 6, modified: 9))
        archive.entries[SyncPath("file")] = .init(
            kind: .file, local: Stamp(size: 1, modified: 2), container: Stamp(size: 1, modified: 3))
        #expect(try ArchiveCodec.decode(ArchiveCodec.encode(archive)) == archive)
        #expect(try ArchiveCodec.decode(file(version: 4, kind: 2)).entries[SyncPath("link")]?.kind == .symbolicLink)
    }

    @Test("a version 3 file is still read; kind 2 in it is damage, not a link")
    func version3() throws {
        #expect(try ArchiveCodec.decode(file(version: 3, kind: 0)).entries[SyncPath("link")]?.kind == .file)
        #expect(throws: ArchiveCodec.DecodeFailure.corrupt("unknown kind 2 at 'link'")) {
            try ArchiveCodec.decode(file(version: 3, kind: 2))
        }
        #expect(throws: ArchiveCodec.DecodeFailure.corrupt("unknown kind 3 at 'link'")) {
            try ArchiveCodec.decode(file(version: 4, kind: 3))
        }
    }
}

/// Version 5 records the container file's content tag (a hash of a WebDAV server's ETag), so a
/// server file rewritten in the same second at the same size reads as changed.
@Suite struct ArchiveVersion5Tests {
    @Test("the container tag round-trips, and follows the entry's flags")
    func roundTrip() throws {
        var archive = Archive(localRoot: "/a", containerRoot: "https://dav.test/b/")
        archive.entries[SyncPath("f")] = .init(
            kind: .file, local: Stamp(size: 1, modified: 2), container: Stamp(size: 1, modified: 3),
            containerTag: 0xDEAD_BEEF)
        archive.entries[SyncPath("g")] = .init(
            kind: .file, local: Stamp(size: 1, modified: 2), container: Stamp(size: 1, modified: 3))
        let data = ArchiveCodec.encode(archive)
        #expect(try ArchiveCodec.decode(data) == archive)
        // Entry "f": nothing shared, one byte of path, flags (a file, a tag, another container
        // date), then the tag, little-endian.
        let at = try #require(Array(data).firstRange(of: [0, 1] + Array("f".utf8))).upperBound
        #expect(Array(data[at..<at + 5]) == [0b10100, 0xEF, 0xBE, 0xAD, 0xDE])
    }

    @Test("a version 4 file is read with every tag unknown (0)")
    func version4() throws {
        var bytes = Array("SEAMSARC".utf8)
        func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8)
        }
        append(UInt32(4))
        append(UInt32(0))
        append("/a")
        append("/b")
        append("")
        append(UInt64(0))
        append(UInt64(1))
        append("notes.txt")
        bytes.append(0)
        for value: Int64 in [5, 6, 5, 7] { append(UInt64(bitPattern: value)) }
        append(Checksum.fnv1a(bytes))
        let entry = try #require(try ArchiveCodec.decode(Data(bytes)).entries[SyncPath("notes.txt")])
        #expect(entry == .init(kind: .file, local: Stamp(size: 5, modified: 6), container: Stamp(size: 5, modified: 7)))
        #expect(entry.containerTag == 0)
    }

    @Test("an entry matches a container file by stamp and, where both are known, by tag; the local side has none")
    func matching() {
        let date = Date(timeIntervalSince1970: 100)
        func file(tag: UInt64) -> FileMetadata {
            FileMetadata(
                kind: .file, size: 3, modificationDate: date, permissions: 0o644, fileIdentifier: 9, contentTag: tag)
        }
        let stamp = file(tag: 0).stamp
        let tagged = Archive.Entry(
            kind: .file, local: stamp, container: stamp, containerTag: Archive.Entry.tag(file(tag: 0x1234_5678_9ABC)))
        #expect(tagged.containerTag != 0)
        #expect(tagged.matches(file(tag: 0x1234_5678_9ABC), on: .container))
        #expect(!tagged.matches(file(tag: 0x1234_5678_9ABD), on: .container), "same second, same size, another ETag")
        #expect(tagged.matches(file(tag: 0), on: .container), "a server that sends no ETag: size and date decide")
        #expect(tagged.matches(file(tag: 0x1234_5678_9ABD), on: .local), "no tags on the local side")
        let untagged = Archive.Entry(kind: .file, local: stamp, container: stamp)
        #expect(
            untagged.matches(file(tag: 0x1234_5678_9ABD), on: .container), "recorded before tags: size and date decide")
        var later = file(tag: 0x1234_5678_9ABC)
        later.size = 4
        #expect(!tagged.matches(later, on: .container))
        #expect(
            Archive.Entry.tag(
                FileMetadata(
                    kind: .directory, size: 0, modificationDate: date, permissions: 0o755, fileIdentifier: 0,
                    contentTag: 7)) == 0)
    }

    @Test("the tag costs an entry no memory (it fills the bytes after the kind); the two identities cost 16 bytes")
    func layout() {
        #expect(MemoryLayout<Archive.Entry>.stride == 40 + 16)
    }
}
