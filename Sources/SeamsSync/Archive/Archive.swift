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
        /// The local item's identity (its ``FileMetadata/fileIdentifier``, the inode on a local
        /// file system) when it was recorded; 0 when none is known. A move is found by it.
        var localID: UInt64 = 0
        /// The container item's identity where the container is a local file system; 0 when
        /// none is known, and on a server, whose files are known by ``containerTag``.
        var containerID: UInt64 = 0

        /// Creates an entry.
        init(
            kind: FileMetadata.Kind, local: Stamp, container: Stamp, containerTag: UInt32 = 0,
            localID: UInt64 = 0, containerID: UInt64 = 0
        ) {
            self.kind = kind
            self.containerTag = containerTag
            self.local = local
            self.container = container
            self.localID = localID
            self.containerID = containerID
        }

        /// The entry of a path in sync: `local` and `container` as they are now, with their
        /// identities (the container's only where it is not a server's, see ``containerID``).
        init(synced local: FileMetadata, _ container: FileMetadata, kind: FileMetadata.Kind? = nil) {
            self.init(
                kind: kind ?? local.kind, local: local.stamp, container: container.stamp,
                containerTag: Self.tag(container),
                localID: local.fileIdentifier, containerID: container.contentTag == 0 ? container.fileIdentifier : 0)
        }

        /// The identity recorded for `side` (0: none known).
        func identity(on side: Side) -> UInt64 {
            side == .local ? localID : containerID
        }

        /// Whether `item`, found on `side` at another path, is the item this entry recorded
        /// there: the same kind and identity and, for a file or link, the same stamp (and
        /// content tag on a server). A folder is known by its identity alone.
        func isSameItem(_ item: FileMetadata, on side: Side) -> Bool {
            guard item.kind == kind, kind != .other else { return false }
            let recorded = identity(on: side)
            if recorded != 0 {
                guard item.fileIdentifier == recorded else { return false }
            } else {
                // A server's file: its content tag, which a MOVE keeps, stands for its identity.
                guard side == .container, kind != .directory, containerTag != 0, Self.tag(item) == containerTag else {
                    return false
                }
            }
            return kind == .directory || stamp(on: side) == item.stamp
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

        /// Whether the file `item` on the container is what this entry recorded there by its
        /// size and content tag alone, where both tags are known: on a server whose dates are
        /// not versions' (``ReplicaCapabilities/datedByServer``).
        func matchesByTag(_ item: FileMetadata, on side: Side) -> Bool {
            guard side == .container, item.kind == .file, kind == .file, containerTag != 0 else { return false }
            return Self.tag(item) == containerTag && container.size == item.size
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
