import SeamsCore

/// What every path of a folder pair looked like after the last successful sync: the memory that
/// tells "deleted here" from "new there".
///
/// Stored as a small versioned binary file (see ``ArchiveCodec``), one file per pair, replaced
/// atomically; its entries stay in memory in that file's compact form (``ArchiveEntries``).
struct Archive: Hashable, Sendable {
    /// What the archive remembers of one path.
    struct Entry: Hashable, Sendable {
        /// The item's kind on both sides (a file or a folder).
        var kind: FileMetadata.Kind
        /// The container file's content tag as recorded (32 bits of its
        /// ``FileMetadata/contentTag``, the hash of a WebDAV server's ETag); 0 when none is known
        /// (a container on a local file system, a folder, an entry recorded before tags were).
        ///
        /// Kept here and not in ``Stamp``: it fills bytes the entry's layout leaves free after
        /// `kind`. The state file (and the table it stays in, in memory) holds it only when it
        /// is not 0.
        var containerTag: UInt32
        /// The local side's stamp.
        var local: Stamp
        /// The container side's stamp.
        var container: Stamp

        /// Creates an entry.
        init(kind: FileMetadata.Kind, local: Stamp, container: Stamp, containerTag: UInt32 = 0) {
            self.kind = kind
            self.containerTag = containerTag
            self.local = local
            self.container = container
        }

        /// The 32 bits of a content tag an entry records.
        static func tag(_ item: FileMetadata) -> UInt32 {
            item.kind == .file ? UInt32(truncatingIfNeeded: item.contentTag ^ (item.contentTag >> 32)) : 0
        }

        /// Whether `item` on `side` is what this entry recorded there: the same stamp (size and
        /// date) and, on the container, the same content tag where both are known. A server's
        /// file rewritten in the same second at the same size differs by its tag alone.
        ///
        /// - Parameters:
        ///   - item: The item as scanned now (its kind is compared by the caller).
        ///   - side: Its side.
        /// - Returns: `true` when unchanged since the last sync.
        func matches(_ item: FileMetadata, on side: Side) -> Bool {
            guard stamp(on: side) == item.stamp else { return false }
            guard side == .container, containerTag != 0 else { return true }
            let found = Self.tag(item)
            return found == 0 || found == containerTag
        }

        /// The stamp of one side.
        ///
        /// - Parameter side: The side.
        /// - Returns: Its stamp.
        func stamp(on side: Side) -> Stamp {
            side == .local ? local : container
        }
    }

    /// The local folder this archive belongs to.
    var localRoot: String
    /// The container this archive belongs to.
    var containerRoot: String
    /// The entries by path.
    var entries: ArchiveEntries
    /// The container's identity and generation at the last commit (`nil` before the first
    /// commit, and in archives of version 2 and earlier).
    var replica: ReplicaIdentity?

    /// Creates an archive.
    init(localRoot: String, containerRoot: String, entries: ArchiveEntries = [:], replica: ReplicaIdentity? = nil) {
        self.localRoot = localRoot
        self.containerRoot = containerRoot
        self.entries = entries
        self.replica = replica
    }

    /// Whether the stamp of `metadata` on `side` is what the archive recorded for `path`.
    ///
    /// - Parameters:
    ///   - metadata: The item as scanned now.
    ///   - path: Its path.
    ///   - side: Its side.
    /// - Returns: `true` when unchanged since the last sync.
    func isUnchanged(_ metadata: FileMetadata, at path: SyncPath, on side: Side) -> Bool {
        guard let entry = entries[path], entry.kind == metadata.kind else { return false }
        return metadata.kind == .directory || entry.matches(metadata, on: side)
    }
}
