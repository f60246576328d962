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
/// version     UInt32      7
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
/// checksum    UInt64      FNV-1a 64 of every byte before it
/// ```
///
/// A string is a `UInt32` byte count and the UTF-8 bytes, kept exactly, so NFC and NFD names
/// stay distinct. Entries are written sorted by path bytes, so the same archive always gives
/// the same file. Version 1 archives (JSON, see ``decodeVersion1(_:)``), version 2 (no
/// container identity), version 3 (no links), version 4 (no container tags: read as 0,
/// unknown, and learned by the next run from the server's files it finds unchanged) and
/// version 5 (fixed-size entries) and version 6 (no identities: read as 0, unknown, and recorded
/// as paths are synced again) are still read; the next commit writes version 7. A build
/// that knows only an older version refuses a newer archive rather than misread it.
enum ArchiveCodec {
    /// The `format` value a version 1 (JSON) archive carries.
    static let formatName = "seams-sync.archive"
    /// The version this build writes; it reads this one and every earlier one.
    static let currentVersion = 7
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
        var data = pieces.next() ?? Data()
        while let piece = pieces.next() { data.append(piece) }
        return data
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
        private var hash = Checksum.fnv1aSeed
        private var header: Data?
        private var done = false
        private let pieceSize: Int
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
        /// - Parameter copiesBlocks: Whether each whole block of entries the run did not change
        ///   (``ArchiveTable/block(_:)``) is copied byte for byte instead of encoded again: the
        ///   same bytes, and a commit that changed 100 of a million entries encodes a few
        ///   thousand. `false` encodes every entry (tests compare the two).
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
            hash = Checksum.fnv1a(writer.written, from: hash)
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
                written += first.count
                return first
            }
            guard !done else { return nil }
            var writer = ByteWriter(capacity: min(pieceSize, 1 << 20) + 512)
            builder.base = written
            let table = entries.table
            while writer.count < pieceSize {
                if copiesBlocks, builder.count % builder.interval == 0,
                    let block = entries.nextUnchangedBlock(interval: builder.interval)
                {
                    table.data.withUnsafeBytes { raw in
                        builder.appendBlock(UnsafeRawBufferPointer(rebasing: raw[block]), to: &writer)
                    }
                    copiedBlocks += 1
                    continue
                }
                guard let (path, entry) = entries.next() else { break }
                builder.append(path, entry, to: &writer)
            }
            hash = Checksum.fnv1a(writer.written, from: hash)
            if writer.count < pieceSize {
                writer.append(hash)
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
            writer.append(Checksum.fnv1a(writer.written))
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
        guard stored == Checksum.fnv1a(UnsafeRawBufferPointer(rebasing: raw[..<body])) else {
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

/// FNV-1a, 64 bits: cheap, and enough to tell a torn or altered archive from a whole one.
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
