import Foundation
import SeamsCore

/// The archive's file format: a small versioned binary file with a checksum.
///
/// A no-change run reads the whole archive and keeps it as it is in memory, so the format is
/// compact and read in one pass: the entries are the sorted, prefix-shared table of
/// ``ArchiveTable`` (about a dozen bytes an entry). All fixed-size integers are little-endian.
///
/// ```text
/// "SEAMSARC"  8 bytes     magic
/// version     UInt32      8
/// flags       UInt32      0 (reserved)
/// local       string      the local folder's path
/// container   string      the container's path
/// replica     string      the container's identity (its `.seams-replica` id; empty: none yet)   (version 3)
/// generation  UInt64      the container's generation at the last commit                       (version 3)
/// count       UInt64      number of entries
/// interval    UInt32      entries from one restart of the table to the next                   (version 6)
/// entries     the table's entries in path order (version 6, with identities from version 7;
///             see ``ArchiveTable``); up to
///             version 5, count × (path: string, kind: UInt8 (0 file, 1 folder, 2 symbolic
///             link: version 4), container tag: UInt32 (version 5), local size, local mtime,
///             container size, container mtime: Int64 each)
/// checksum    UInt64      XXH64 (seed 0) of every byte before it; FNV-1a 64 up to version 7
/// ```
///
/// A string is a `UInt32` byte count and the UTF-8 bytes, kept exactly, so NFC and NFD names
/// stay distinct. Entries are written sorted by path bytes, so the same archive always gives
/// the same file. Version 1 archives (JSON, see ``decodeVersion1(_:)``), version 2 (no
/// container identity), version 3 (no links), version 4 (no container tags: read as 0,
/// unknown, and learned by the next run from the server's files it finds unchanged) and
/// version 5 (fixed-size entries) and version 6 (no identities: read as 0, unknown, and recorded
/// as paths are synced again) and version 7 (the same bytes, checked by FNV-1a, which a commit
/// of a million entries spent a fifth of its time on) are still read; the next commit writes
/// version 8. A build
/// that knows only an older version refuses a newer archive rather than misread it.
enum ArchiveCodec {
    /// The `format` value a version 1 (JSON) archive carries.
    static let formatName = "seams-sync.archive"
    /// The version this build writes; it reads this one and every earlier one.
    static let currentVersion = 8
    /// The first eight bytes of every binary archive.
    static let magic = Array("SEAMSARC".utf8)

    /// Why a state file could not be read as an archive.
    enum DecodeFailure: Error, Hashable, Sendable {
        /// Not an archive, or a damaged one (a foreign file, a torn or altered one).
        case corrupt(String)
        /// An archive of a newer format version.
        case unsupportedVersion(Int)
    }

    /// The bytes of `archive`, entries sorted by path.
    ///
    /// A table that already holds the whole file for this archive (one ``StreamedEncoding`` made,
    /// its entries unchanged since) is the file as it is: no second copy of a million entries.
    ///
    /// - Parameter archive: The archive.
    /// - Returns: The file's bytes.
    static func encode(_ archive: Archive) -> Data {
        var pieces = Pieces(archive, pieceSize: Int.max)
        return pieces.next() ?? Data()
    }

    /// The bytes of an archive in pieces of about `pieceSize` bytes, for a commit that writes each
    /// as it comes: a million entries then never stand in memory twice (the archive read, and the
    /// file being written).
    ///
    /// A table that already holds the whole file for this archive (one ``StreamedEncoding`` made,
    /// its entries unchanged since) is the file as it is, in one piece.
    struct Pieces {
        /// The archive's entries, with the bytes of the table it was read from.
        private var entries: ArchiveEntries.Iterator
        private var builder = ArchiveTable.Builder()
        private var hash = XXH64()
        private var header: Data?
        private var done = false
        private let pieceSize: Int
        /// With one piece only: the header, to come first in the body's piece.
        private var prefix: Data?
        /// Whether a run of entries unchanged since the table was read is copied as it is stored.
        private let copiesBlocks: Bool
        /// How many blocks were copied as they were stored.
        private(set) var copiedBlocks = 0
        /// How many bytes the pieces so far hold.
        private var written = 0
        /// Where the entries start in the file (the header's size).
        private var start = 0
        /// The archive as it was when its entries were already the whole file (nothing to write
        /// but the table's bytes).
        private var whole: Archive?

        /// The pieces of `archive`'s file.
        ///
        /// - Parameters:
        ///   - pieceSize: About how many bytes a piece holds; `Int.max`: the whole file is one
        ///     piece, header and all, made in one buffer the size of the table read (no piece
        ///     is copied into another).
        ///   - copiesBlocks: Whether each whole block of entries the run did not change
        ///     (``ArchiveTable/block(_:)``) is copied byte for byte instead of encoded again: the
        ///     same bytes, and a commit that changed 100 of a million entries encodes a few
        ///     thousand, copying runs of unchanged blocks at once. `false` encodes every entry
        ///     (tests compare the two).
        init(_ archive: Archive, pieceSize: Int = 1 << 20, copiesBlocks: Bool = true) {
            self.pieceSize = max(pieceSize, 1)
            self.copiesBlocks = copiesBlocks
            entries = archive.entries.makeIterator()
            var writer = ByteWriter(capacity: 256)
            appendHeader(of: archive, count: archive.entries.count, interval: builder.interval, to: &writer)
            let table = archive.entries.table
            if archive.entries.changes.isEmpty, table.start > 0, table.end + 8 == table.data.count,
                table.data.withUnsafeBytes({
                    writer.written.elementsEqual(UnsafeRawBufferPointer(rebasing: $0[..<table.start]))
                })
            {
                header = table.data
                done = true
                whole = archive
                return
            }
            hash.update(writer.written)
            start = writer.count
            header = writer.finish()
        }

        /// The archive the pieces wrote, its entries a table over `file`, the pieces' bytes put
        /// together: the same archive, compact, with nothing to decode or check again (the
        /// table's restarts are where the pieces placed them). Called after the last piece.
        ///
        /// - Parameter file: Every piece, in order.
        /// - Returns: The archive as the file holds it.
        func archive(writtenTo file: Data, localRoot: String, containerRoot: String, replica: ReplicaIdentity?)
            -> Archive
        {
            precondition(done && header == nil, "after the last piece")
            if let whole { return whole }
            let table = ArchiveTable(file, start: start, end: file.count - 8, builder: builder)
            return Archive(
                localRoot: localRoot, containerRoot: containerRoot, entries: ArchiveEntries(table: table),
                replica: replica)
        }

        /// The next piece, or `nil` after the last.
        mutating func next() -> Data? {
            if let first = header {
                header = nil
                guard pieceSize == .max, !done else {
                    written += first.count
                    return first
                }
                prefix = first
            }
            guard !done else { return nil }
            let capacity =
                pieceSize == .max ? entries.table.data.count + (1 << 16) : min(pieceSize, 1 << 20) + 512
            var writer = ByteWriter(capacity: capacity)
            if let prefix {
                // Hashed already: the checksum goes on from the header's.
                prefix.withUnsafeBytes { writer.append($0) }
                self.prefix = nil
            }
            let hashedFrom = writer.count
            builder.base = written
            let table = entries.table
            while writer.count < pieceSize {
                if copiesBlocks, builder.count % builder.interval == 0,
                    let run = entries.nextUnchangedBlocks(interval: builder.interval, bytes: pieceSize - writer.count)
                {
                    table.data.withUnsafeBytes { raw in
                        builder.appendBlocks(
                            run.blocks, of: table, bytes: UnsafeRawBufferPointer(rebasing: raw[run.bytes]), to: &writer)
                    }
                    copiedBlocks += run.blocks.count
                    continue
                }
                guard let (path, entry) = entries.next() else { break }
                builder.append(path, entry, to: &writer)
            }
            hash.update(UnsafeRawBufferPointer(rebasing: writer.written[hashedFrom...]))
            if writer.count < pieceSize {
                writer.append(hash.finish())
                done = true
            }
            written += writer.count
            return writer.finish()
        }
    }

    /// Appends the file's header: magic, version, flags, the roots, the replica, the entry count
    /// and the table's restart interval.
    ///
    /// - Returns: Where the entry count is in the writer's bytes.
    @discardableResult
    fileprivate static func appendHeader(
        of archive: Archive, count: Int, interval: Int, to writer: inout ByteWriter
    ) -> Int {
        writer.append(magic)
        writer.append(UInt32(currentVersion))
        writer.append(UInt32(0))
        writer.append(string: archive.localRoot)
        writer.append(string: archive.containerRoot)
        writer.append(string: archive.replica?.id ?? "")
        writer.append(archive.replica?.generation ?? 0)
        let countOffset = writer.count
        writer.append(UInt64(count))
        writer.append(UInt32(interval))
        return countOffset
    }

    /// A state file made an entry at a time, in path order, as a first sync's passes record them:
    /// the header first, each entry as it comes, the count and the checksum at the end. Its table
    /// is a view into the file's bytes, which ``ArchiveCodec/encode(_:)`` then writes as they are.
    struct StreamedEncoding: ~Copyable {
        private var writer = ByteWriter(capacity: 1 << 16)
        private var builder = ArchiveTable.Builder()
        private let countOffset: Int
        private let start: Int

        /// An encoding of `archive`'s roots and replica, its entries to come.
        init(of archive: Archive) {
            countOffset = ArchiveCodec.appendHeader(
                of: archive, count: 0, interval: ArchiveTable.restartInterval, to: &writer)
            start = writer.count
        }

        /// Appends an entry after the last one in path order.
        mutating func append(_ path: SyncPath, _ entry: Archive.Entry) {
            builder.append(path, entry, to: &writer)
        }

        /// The entries, in a table over the whole file's bytes.
        consuming func finish() -> ArchiveTable {
            writer.overwrite(UInt64(builder.count), at: countOffset)
            writer.append(Checksum.xxh64(writer.written))
            let data = writer.finish()
            return ArchiveTable(data, start: start, end: data.count - 8, builder: builder)
        }
    }

    static func version(of data: Data) -> Int? {
        guard data.count >= 12, data.starts(with: magic) else { return nil }
        return Int(data.dropFirst(8).prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// The archive in `data`, of any version this build knows.
    ///
    /// - Parameter data: A state file's bytes.
    /// - Returns: The archive.
    /// - Throws: ``DecodeFailure``.
    static func decode(_ data: Data) throws(DecodeFailure) -> Archive {
        if data.starts(with: magic) {
            let result = data.withUnsafeBytes { raw in
                Result { () throws(DecodeFailure) in try decodeBinary(raw, data) }
            }
            return try result.get()
        }
        return try decodeVersion1(data)
    }

    private static func decodeBinary(_ raw: UnsafeRawBufferPointer, _ data: Data) throws(DecodeFailure) -> Archive {
        var reader = Reader(raw)
        reader.offset = magic.count
        let version = Int(try reader.uint32())
        guard version <= currentVersion else { throw .unsupportedVersion(version) }
        guard version >= 2 else { throw .corrupt("unknown binary version \(version)") }
        guard raw.count >= reader.offset + 4 + 8 else { throw .corrupt("truncated") }
        let body = raw.count - 8
        let stored = Reader(raw, at: body).peekUInt64()
        let checked = UnsafeRawBufferPointer(rebasing: raw[..<body])
        guard stored == (version >= 8 ? Checksum.xxh64(checked) : Checksum.fnv1a(checked)) else {
            throw .corrupt("checksum mismatch")
        }
        reader.end = body
        _ = try reader.uint32()  // flags
        let local = try reader.string()
        let container = try reader.string()
        var replica: ReplicaIdentity?
        if version >= 3 {
            let id = try reader.string()
            let generation = try reader.uint64()
            if !id.isEmpty { replica = ReplicaIdentity(id: id, generation: generation) }
        }
        let count = try reader.uint64()
        if version >= 6 {
            let interval = Int(try reader.uint32())
            guard count <= UInt64(Int.max) else { throw .corrupt("entry count \(count) too large") }
            let table = try ArchiveTable(
                validating: data, start: reader.offset, end: body, count: Int(count), interval: interval)
            return Archive(
                localRoot: local, containerRoot: container, entries: ArchiveEntries(table: table), replica: replica)
        }
        // Each entry takes at least 38 bytes; a count the file cannot hold is damage.
        guard count <= UInt64(body - reader.offset) / 38 else { throw .corrupt("entry count \(count) too large") }
        var entries: [SyncPath: Archive.Entry] = [:]
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let path = try reader.string()
            try validate(path)
            let kind: FileMetadata.Kind
            switch try reader.uint8() {
            case 0: kind = .file
            case 1: kind = .directory
            case 2 where version >= 4: kind = .symbolicLink
            case let other: throw .corrupt("unknown kind \(other) at '\(path)'")
            }
            let tag = version >= 5 ? try reader.uint32() : 0
            let entry = Archive.Entry(
                kind: kind,
                local: Stamp(
                    size: Int64(bitPattern: try reader.uint64()), modified: Int64(bitPattern: try reader.uint64())),
                container: Stamp(
                    size: Int64(bitPattern: try reader.uint64()), modified: Int64(bitPattern: try reader.uint64())),
                containerTag: tag)
            guard entries.updateValue(entry, forKey: SyncPath(path)) == nil else {
                throw .corrupt("'\(path)' appears twice")
            }
        }
        guard reader.offset == body else { throw .corrupt("\(body - reader.offset) bytes after the entries") }
        return Archive(localRoot: local, containerRoot: container, entries: ArchiveEntries(entries), replica: replica)
    }

    /// Refuses a path that could reach outside the synced folder or name nothing.
    static func validate(_ path: String) throws(DecodeFailure) {
        var component = 0
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                guard component > 0, !(dots == component && dots <= 2) else {
                    throw .corrupt("invalid entry '\(path)'")
                }
                component = 0
                dots = 0
            } else {
                guard byte != 0 else { throw .corrupt("invalid entry '\(path)'") }
                component += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard component > 0, !(dots == component && dots <= 2) else { throw .corrupt("invalid entry '\(path)'") }
    }
}

/// The archive's checksums: FNV-1a, 64 bits, up to version 7; XXH64 from version 8. Either tells
/// a torn or altered archive from a whole one; XXH64 reads eight bytes a step where FNV-1a reads
/// one, and a commit of a million entries hashes about 16 MB.
enum Checksum {
    /// The hash of no bytes, where a hash computed in pieces starts.
    static let fnv1aSeed: UInt64 = 0xcbf2_9ce4_8422_2325

    static func fnv1a(_ bytes: some Collection<UInt8>, from seed: UInt64 = fnv1aSeed) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3
        }
        return hash
    }

    /// The hash of `bytes`, continued from `seed` (the hash of the bytes before them).
    static func fnv1a(_ bytes: UnsafeRawBufferPointer, from seed: UInt64 = fnv1aSeed) -> UInt64 {
        fnv1a(bytes.bindMemory(to: UInt8.self), from: seed)
    }

    /// The XXH64 hash (seed 0) of `bytes`.
    static func xxh64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = XXH64()
        hasher.update(bytes)
        return hasher.finish()
    }

    /// The XXH64 hash (seed 0) of `bytes`.
    static func xxh64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        let array = Array(bytes)
        return array.withUnsafeBytes { xxh64($0) }
    }
}

/// XXH64 with seed 0, fed in pieces (Yann Collet's xxHash, 64-bit: four lanes of 8 bytes).
struct XXH64 {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (p1 &+ p2, p2, 0, 0 &- p1)
    /// Bytes of a stripe not complete yet (fewer than 32).
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotate(lane &+ input &* p2, 31) &* p1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 { value << bits | value >> (64 - bits) }

    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* p1 &+ p4
    }

    private mutating func stripe(_ raw: UnsafeRawBufferPointer, at offset: Int) {
        lanes.0 = Self.round(lanes.0, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        lanes.1 = Self.round(
            lanes.1, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
        lanes.2 = Self.round(
            lanes.2, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
        lanes.3 = Self.round(
            lanes.3, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
    }

    /// Adds `bytes` after those added before.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length += UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = Swift.min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            guard pending.count == 32 else { return }
            let full = pending
            full.withUnsafeBytes { stripe($0, at: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 32 {
            stripe(bytes, at: offset)
            offset += 32
        }
        pending.append(contentsOf: bytes[offset...])
    }

    /// The hash of every byte added.
    func finish() -> UInt64 {
        var hash: UInt64
        if length >= 32 {
            hash =
                Self.rotate(lanes.0, 1) &+ Self.rotate(lanes.1, 7) &+ Self.rotate(lanes.2, 12)
                &+ Self.rotate(lanes.3, 18)
            hash = Self.merge(hash, lanes.0)
            hash = Self.merge(hash, lanes.1)
            hash = Self.merge(hash, lanes.2)
            hash = Self.merge(hash, lanes.3)
        } else {
            hash = Self.p5
        }
        hash &+= length
        pending.withUnsafeBytes { raw in
            var offset = 0
            while raw.count - offset >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = Self.rotate(hash ^ Self.round(0, word), 27) &* Self.p1 &+ Self.p4
                offset += 8
            }
            if raw.count - offset >= 4 {
                let word = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                hash = Self.rotate(hash ^ word &* Self.p1, 23) &* Self.p2 &+ Self.p3
                offset += 4
            }
            while offset < raw.count {
                hash = Self.rotate(hash ^ UInt64(raw[offset]) &* Self.p5, 11) &* Self.p1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.p2
        hash ^= hash >> 29
        hash &*= Self.p3
        hash ^= hash >> 32
        return hash
    }
}

/// Reads little-endian fields, every read checked against the end.
private struct Reader {
    let raw: UnsafeRawBufferPointer
    var offset: Int
    var end: Int

    init(_ raw: UnsafeRawBufferPointer, at offset: Int = 0) {
        self.raw = raw
        self.offset = offset
        self.end = raw.count
    }

    private mutating func take(_ count: Int) throws(ArchiveCodec.DecodeFailure) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= end - offset else { throw .corrupt("truncated at byte \(offset)") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
    }

    func peekUInt64() -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func uint8() throws(ArchiveCodec.DecodeFailure) -> UInt8 {
        try take(1)[0]
    }

    mutating func uint32() throws(ArchiveCodec.DecodeFailure) -> UInt32 {
        UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self))
    }

    mutating func uint64() throws(ArchiveCodec.DecodeFailure) -> UInt64 {
        UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))
    }

    mutating func string() throws(ArchiveCodec.DecodeFailure) -> String {
        let count = Int(try uint32())
        let bytes = try take(count)
        guard let text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw .corrupt("a name that is not UTF-8 at byte \(offset - count)")
        }
        return text
    }
}
