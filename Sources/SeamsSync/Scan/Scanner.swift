import Foundation
import SeamsCore

/// Lists a folder tree through ``DirectoryAccessorProviding``: one listing call per folder, one
/// at a time or several at once.
struct Scanner: Sendable {
    let directories: any DirectoryAccessorProviding
    /// Reads the `.seamsignore` files found; without it none is read.
    let files: (any FileAccessorProviding)?
    /// Whether the replica's files carry content tags worth learning (``ReplicaCapabilities/contentTags``).
    private let learnsTags: Bool
    /// Whether a file's size and content tag alone say it is unchanged, its date not compared
    /// (``ReplicaCapabilities/datedByServer``).
    private let tagsDecide: Bool
    /// How many listed items of folders holding unchanged ones the snapshot keeps
    /// (``Snapshot/listings``), so that completing the plan does not list them again: a server's
    /// listing is a request; a local one costs less than the memory.
    private let keptItems: Int

    /// Creates a scanner.
    ///
    /// - Parameters:
    ///   - directories: The boundary that lists folders.
    ///   - files: The boundary that reads the `.seamsignore` files found (none is read without it).
    ///   - learnsTags: Whether the files carry content tags (ETags) that the archive learns.
    ///   - tagsDecide: Whether a file whose size and content tag are as recorded is unchanged
    ///     whatever its date (a server that dates a copy anew).
    ///   - keptItems: How many items of the listings of folders that hold unchanged items the
    ///     snapshot keeps, in the order they are listed (``Snapshot/listings``); 0 keeps none.
    init(
        directories: any DirectoryAccessorProviding, files: (any FileAccessorProviding)? = nil,
        learnsTags: Bool = false,
        tagsDecide: Bool = false,
        keptItems: Int = 0
    ) {
        self.tagsDecide = tagsDecide
        self.directories = directories
        self.files = files
        self.learnsTags = learnsTags
        self.keptItems = keptItems
    }

    /// How many listed items a scan of a server keeps for completing the plan: a folder of
    /// 10,000 files renamed on the other side then costs no request for each of its subfolders,
    /// and the scan of a server of a million files holds at most this many items' metadata
    /// beside its bits (about 10 MiB).
    static let serverKeptItems = 50_000

    /// Scans the tree under `root`.
    ///
    /// - Parameters:
    ///   - root: The synced folder.
    ///   - expectedCount: About how many items to expect (the archive's count), so the snapshot
    ///     is allocated once.
    ///   - archive: When given, a file or folder found as it records on `side` goes into
    ///     ``Snapshot/unchanged`` (a bit for its entry in the archive's table), without its
    ///     metadata; a folder's listing is looked up among the table's entries in one walk.
    ///   - side: The side `root` is, for `archive`.
    ///   - readers: How many folders are listed at once (each on a thread of its own): several
    ///     for a server, where each listing is a request that mostly waits; two for a local disk
    ///     whose scan runs beside the other side's (see ``ScanStage``). With more than one,
    ///     folders are taken `foldersPerReader` per reader at a time and their listings added in
    ///     order, so the snapshot holds the same items in every run; its lists (leftovers,
    ///     reserved names) come sorted.
    ///   - foldersPerReader: With more than one reader, how many folders each is handed per
    ///     turn: few for a server, so that a slow folder holds up little; more for a local disk,
    ///     where each turn's hand-off and wait cost more than a listing.
    ///   - shouldStop: Looked at between folders; when it says `true` the scan ends with ``ScanStopped``.
    /// - Returns: Every item's metadata, or its path alone when it is unchanged; folders that
    ///   could not be listed are recorded, not treated as empty.
    /// - Throws: The boundary's error when `root` itself cannot be listed, ``ScanStopped`` when asked to stop.
    func scan(
        _ root: URL, expectedCount: Int = 0, comparedWith archive: Archive? = nil, side: Side = .local,
        readers: Int = 1,
        foldersPerReader: Int = 4, ignoring rules: IgnoreRules = IgnoreRules(), shouldStop: () -> Bool = { false }
    ) throws -> Snapshot {
        var learned: [Learned] = []
        return try scan(
            root, expectedCount: expectedCount, comparedWith: archive, side: side, readers: readers,
            foldersPerReader: foldersPerReader, learning: &learned, ignoring: rules, shouldStop: shouldStop)
    }

    /// Scans the tree under `root`, as ``scan(_:expectedCount:comparedWith:side:readers:foldersPerReader:ignoring:shouldStop:)``,
    /// and adds to `learned` each container file found unchanged whose archive entry has no
    /// content tag while the server gives one, and each item found unchanged whose identity is
    /// not the one its entry records (where the side keeps identities: not a server's).
    ///
    /// An item the rules ignore is left out (``Snapshot/ignored``), and an ignored folder is not
    /// listed. A folder's `.seamsignore` is read before its items are looked at, and its rules
    /// apply below it (``Snapshot/rules``); one that cannot be read, or holds a pattern git would
    /// not read, ends the scan with ``SyncError/badIgnoreRule(source:line:pattern:reason:)``.
    func scan(
        _ root: URL, expectedCount: Int = 0, comparedWith archive: Archive?, side: Side, readers: Int,
        foldersPerReader: Int = 4,
        learning learned: inout [Learned], ignoring rules: IgnoreRules = IgnoreRules(),
        changes: ChangedFolders? = nil, rulesIn ruleFolders: [SyncPath?] = [],
        listed: (Int) -> Void = { _ in }, shouldStop: () -> Bool
    ) throws -> Snapshot {
        var snapshot = Snapshot()
        snapshot.rules = rules
        let known = Known(
            table: archive?.entries.compacted(), side: side, learnsTags: learnsTags && side == .container,
            learnsIDs: side == .local || !learnsTags, tagsDecide: tagsDecide && side == .container)
        if let table = known.table, let changes {
            try scan(
                root, changes: changes, table: table, known: known, rulesIn: ruleFolders, readers: readers,
                foldersPerReader: foldersPerReader, into: &snapshot, learning: &learned, listed: listed,
                shouldStop: shouldStop)
            return snapshot
        }
        if let table = known.table {
            snapshot.unchanged = UnchangedPaths(table: table)
        } else {
            snapshot.items.reserveCapacity(expectedCount)
        }
        var pending: [(SyncPath?, URL)] = []
        let top = try directories.contentsOfDirectory(at: root)
        try add(top, under: nil, root: root, known: known, to: &snapshot, learning: &learned, pending: &pending)
        listed(top.count)
        try list(
            &pending, root: root, known: known, readers: readers, foldersPerReader: foldersPerReader,
            into: &snapshot, learning: &learned, listed: listed, shouldStop: shouldStop)
        return snapshot
    }

    /// Lists the `pending` folders and every folder found in them, adding what they hold to
    /// `snapshot`.
    func list(
        _ pending: inout [(SyncPath?, URL)], root: URL, known: Known, readers: Int, foldersPerReader: Int,
        into snapshot: inout Snapshot, learning learned: inout [Learned], listed: (Int) -> Void,
        shouldStop: () -> Bool
    ) throws {
        // Folders taken at once: one for one reader (depth first, each listing added before the
        // next is asked for); `foldersPerReader` per reader otherwise.
        let takenAtOnce = readers > 1 ? readers * foldersPerReader : 1
        let directories = self.directories
        while !pending.isEmpty {
            if shouldStop() { throw ScanStopped() }
            let folders = Array(pending.suffix(takenAtOnce).reversed())  // in the order popLast gives
            pending.removeLast(folders.count)
            let listings = BlockingExecutor.shared.map(folders.count, width: readers) { index in
                Result { () throws -> [DirectoryEntry] in try directories.contentsOfDirectory(at: folders[index].1) }
            }
            for ((path, _), listing) in zip(folders, listings) {
                switch listing {
                case .success(let entries):
                    try add(
                        entries, under: path, root: root, known: known, to: &snapshot, learning: &learned,
                        pending: &pending)
                    listed(entries.count)
                case .failure(let error):
                    if let path { snapshot.unreadableFolders[path] = UnderlyingError(error) }
                }
            }
        }
        if readers > 1 {
            snapshot.leftovers.sort()
            snapshot.reserved.sort()
            snapshot.ignored.sort()
        }
    }

    /// What the archive recorded on the scanned side.
    struct Known {
        /// The archive's entries (`nil`: the scan is not compared with an archive).
        let table: ArchiveTable?
        let side: Side
        /// Whether the side's content tags are learned (the container, where it has them).
        let learnsTags: Bool
        /// Whether the side's identities are recorded (a local file system's inodes).
        let learnsIDs: Bool
        /// Whether a file's size and content tag decide, its date not compared.
        let tagsDecide: Bool

        /// For each of a folder's listed entries, the ordinal of its archive entry when it is a
        /// file or folder as recorded there; the container file's content tag when the archive
        /// has none for it yet, and the item's identity when the archive records another
        /// (else 0).
        func unchanged(_ entries: [DirectoryEntry], under parent: SyncPath?) -> [(
            ordinal: Int, tag: UInt32, id: UInt64, stamp: Stamp?
        )?] {
            guard let table else { return [] }
            let recorded = table.children(entries.map(\.name), of: parent)
            return zip(entries, recorded).map { entry, recorded in
                let item = entry.metadata
                guard let (ordinal, recorded) = recorded, item.kind == .file || item.kind == .directory,
                    recorded.kind == item.kind
                else { return nil }
                var stamp: Stamp?
                if item.kind == .file, !recorded.matches(item, on: side) {
                    // Known by its tag and size alone: the server's date is learned, so the
                    // plan, comparing stamps, sees the file as unchanged too.
                    guard tagsDecide, recorded.matchesByTag(item, on: side) else { return nil }
                    stamp = item.stamp
                }
                let tag = learnsTags && recorded.containerTag == 0 ? Archive.Entry.tag(item) : 0
                let id = learnsIDs && recorded.identity(on: side) != item.fileIdentifier ? item.fileIdentifier : 0
                return (ordinal, tag, id, stamp)
            }
        }
    }

    func add(
        _ entries: [DirectoryEntry], under parent: SyncPath?, root: URL, known: Known,
        to snapshot: inout Snapshot, learning learned: inout [Learned], pending: inout [(SyncPath?, URL)]
    ) throws {
        try Self.readRules(in: entries, under: parent, root: root, files: files, into: &snapshot.rules)
        let rules = snapshot.rules.isEmpty ? nil : snapshot.rules.inFolder(parent)
        let unchanged = known.unchanged(entries, under: parent)
        if known.table != nil { snapshot.entryCounts[parent] = entries.count }
        if keptItems > 0, snapshot.keptItems + entries.count <= keptItems, unchanged.contains(where: { $0 != nil }) {
            snapshot.listings[parent] = entries
            snapshot.keptItems += entries.count
        }
        for (index, entry) in entries.enumerated() {
            guard Self.isUsersItem(entry, under: parent, rules: rules, noting: &snapshot) else { continue }
            let isFolder = entry.metadata.kind == .directory
            if let (ordinal, tag, id, stamp) = index < unchanged.count ? unchanged[index] : nil {
                snapshot.unchanged.insert(ordinal: ordinal)
                // An unchanged file's path is not made at all, unless something of it is learned.
                guard tag != 0 || id != 0 || stamp != nil || isFolder else { continue }
                let path = parent?.appending(entry.name) ?? SyncPath(entry.name)
                if tag != 0 || id != 0 || stamp != nil {
                    learned.append(Learned(path: path, side: known.side, tag: tag, id: id, stamp: stamp))
                }
                if isFolder { pending.append((path, path.url(in: root))) }
            } else {
                let path = parent?.appending(entry.name) ?? SyncPath(entry.name)
                snapshot.items[path] = entry.metadata
                if isFolder { pending.append((path, path.url(in: root))) }
            }
        }
    }

    /// Adds the rules of the folder's `.seamsignore`, if its listing `entries` holds one, to `rules`.
    ///
    /// - Throws: ``SyncError/badIgnoreRule(source:line:pattern:reason:)`` for a file that cannot
    ///   be read or holds a rule git would reject.
    static func readRules(
        in entries: [DirectoryEntry], under parent: SyncPath?, root: URL, files: (any FileAccessorProviding)?,
        into rules: inout IgnoreRules
    ) throws {
        let ruleFile = IgnoreRules.fileName
        guard let files, let file = entries.first(where: { $0.name == ruleFile && $0.metadata.kind == .file }) else {
            return
        }
        let url = (parent?.appending(file.name) ?? SyncPath(file.name)).url(in: root)
        try addRules(at: url, in: parent, files: files, into: &rules)
    }

    /// Adds the rules of the `.seamsignore` at `url`, in `folder`, to `rules`. None there (gone
    /// since a listing, or a folder of that name: only a file holds rules) adds nothing.
    ///
    /// - Throws: ``SyncError/badIgnoreRule(source:line:pattern:reason:)`` for a file that cannot
    ///   be read or holds a rule git would reject.
    static func addRules(
        at url: URL, in folder: SyncPath?, files: any FileAccessorProviding, into rules: inout IgnoreRules
    ) throws {
        let content: Data
        do {
            content = try files.read(from: url)
        } catch let error as CocoaError
            where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile
            || [.ENOENT, .ENOTDIR, .EISDIR].contains(error.posixCode)
        {
            return
        } catch {
            throw SyncError.badIgnoreRule(
                source: url.isFileURL ? url.path : url.absoluteString, line: 0, pattern: "",
                reason: "reading it failed: \(SyncError.reason(UnderlyingError(error)))")
        }
        try rules.addFile(content, in: folder, at: url)
    }

    /// Whether a listed entry is the user's item to sync; one the tool's own names or the rules
    /// leave out goes to `snapshot`'s leftovers, reserved or ignored paths instead.
    static func isUsersItem(
        _ entry: DirectoryEntry, under parent: SyncPath?, rules: IgnoreRules.InFolder?,
        noting snapshot: inout Snapshot
    ) -> Bool {
        func make() -> SyncPath { parent?.appending(entry.name) ?? SyncPath(entry.name) }
        if Snapshot.isOwnName(entry.name) {
            if Snapshot.isTemporaryName(entry.name),
                entry.metadata.kind == .file || entry.metadata.kind == .symbolicLink
            {
                snapshot.leftovers.append(make())
            } else if parent != nil || !Snapshot.ownRootNames.contains(entry.name) {
                snapshot.reserved.append(make())  // a user's item with a name like ours: left alone
            }
            return false
        }
        if let rules, rules.ignores(Substring(entry.name), isFolder: entry.metadata.kind == .directory) {
            snapshot.ignored.append(make())
            return false
        }
        return true
    }
}

struct ScanStopped: Error, Hashable, Sendable {
    /// Creates the error.
    init() {}
}
