import Foundation
import SeamsCore

/// The second stage: both sides listed, each compared with the archive on its side, then the
/// metadata of every path one side found unchanged and the other did not read, so the plan has
/// both sides of every path it decides.
struct ScanStage {
    let run: SyncRun
    /// Whether the two sides are scanned at the same time (off where the order of calls must
    /// not vary).
    let concurrently: Bool
    /// How many folders of a server are listed at once.
    let serverReaders: Int
    /// Told the items both scans found so far, after each folder listed.
    var progress: @Sendable (SyncProgress) -> Void = { _ in }
    /// Which folders of each side are listed (``SyncScope/full``: all of them).
    var scope = SyncScope.full

    /// What the scans found.
    struct Scanned {
        /// The local side.
        var local: Snapshot
        /// The container side.
        var container: Snapshot
        /// Container files found unchanged whose archive entry has no content tag (recorded before
        /// tags were) while the server gives one now: the tag to record, and a reason to commit.
        var learned: [Learned]
        /// Items of either side whose names start with `.seams` but are not the tool's own, once each.
        var reserved: [SyncPath]
        /// Items of either side the ignore rules left out, once each, sorted.
        var ignored: [SyncPath] = []
    }

    /// Runs the stage.
    ///
    /// - Parameter archive: What the last sync recorded (empty for a new pair).
    /// - Throws: ``SyncError/interrupted`` when asked to stop, ``SyncError/folderNotAvailable(_:)``
    ///   or ``SyncError/serverNotAvailable(_:reason:)`` when a root cannot be listed,
    ///   ``SyncError/readFailed(_:_:)`` when a path's metadata cannot be read after.
    func callAsFunction(comparedWith archive: Archive) throws -> Scanned {
        let expected = archive.entries.count
        let roots = [run.local, run.container]
        let networked = Side.allCases.map { run.can($0, .networked) }
        let scanners = Side.allCases.map { side in
            let replica = run.replica(side)
            return Scanner(
                directories: replica.directories, files: replica.files, learnsTags: replica.can(.contentTags),
                tagsDecide: replica.can([.contentTags, .datedByServer]),
                keptItems: replica.can(.networked) ? Scanner.serverKeptItems : 0)
        }
        let shouldStop = run.shouldStop
        let changes = Side.allCases.map { archive.entries.isEmpty ? nil : scope.changes($0) }
        let ruleFolders = Self.foldersAbove(changes.compactMap { $0 })
        // A local side is listed by four readers, 16 folders each per turn, when the sides are
        // scanned together: the two scans alone keep a quiet two-core machine busy, but on a
        // machine busy with other work each thread holds a share of it (no change, beside two
        // busy loops: 100,000 files 0.414 s with two readers a side against 0.489 s with one;
        // 100 of 15,400 files modified, 31 runs in turn: 0.143 s with four against 0.151 s with
        // two; quiet, mixed: 0.082 against 0.080 s in one sitting, 0.078 against 0.081 s in
        // another). Four folders a turn cost the quiet 100,000 files 6%.
        let readers = networked.map { $0 ? serverReaders : (concurrently ? 4 : 1) }
        let foldersPerReader = networked.map { $0 ? 4 : 16 }
        let rules = try IgnoreRules(defaults: run.options.defaultExcludes, excludes: run.options.excludes)
        let found = LockedValue(0)
        let progress = self.progress
        let listed: @Sendable (Int) -> Void = { count in
            let total = found.withLock { total in
                total += count
                return total
            }
            progress(SyncProgress(phase: .scanning, completed: total, total: 0))
        }
        /// One side scanned, listing `changes` (or all of it when `nil`, or when what changed
        /// cannot be told from the state), its errors as the run reports them.
        @Sendable func scanSide(_ index: Int, _ changes: ChangedFolders?) throws(SyncError) -> (Snapshot, [Learned]) {
            var learned: [Learned] = []
            do {
                func scan(_ changes: ChangedFolders?) throws -> Snapshot {
                    try scanners[index].scan(
                        roots[index], expectedCount: expected, comparedWith: archive,
                        side: index == 0 ? .local : .container,
                        readers: readers[index], foldersPerReader: foldersPerReader[index], learning: &learned,
                        ignoring: rules, changes: changes, rulesIn: ruleFolders, listed: listed,
                        shouldStop: shouldStop)
                }
                do {
                    return (try scan(changes), learned)
                } catch is ScanGap {
                    learned = []
                    return (try scan(nil), learned)  // what changed cannot be told from the state: all of it
                }
            } catch is ScanStopped {
                throw SyncError.interrupted
            } catch let error as SyncError {
                throw error
            } catch {
                guard networked[index] else { throw SyncError.folderNotAvailable(roots[index]) }
                throw SyncError.serverNotAvailable(roots[index], reason: SyncEngine.serverReason(error))
            }
        }
        // The second scan on the executor's thread: a Dispatch worker may be slow
        // to come when the pool is busy.
        let scans = BlockingExecutor.shared.map(2, width: concurrently ? 2 : 1) { index in
            Result { () throws(SyncError) -> (Snapshot, [Learned]) in
                let replica = index == 0 ? run.localReplica : run.containerReplica
                if changes[index] == nil { replica.beginListing(expecting: expected) }
                defer { replica.endListing() }
                return try scanSide(index, changes[index])
            }
        }
        var (local, learnedLocal) = try scans[0].get()
        var (container, learnedContainer) = try scans[1].get()
        if run.shouldStop() { throw SyncError.interrupted }
        // A folder gone from one side (moved, removed) is listed whole on the other, so that
        // what it holds there unseen by the state (ignored items) is seen, as a whole scan sees it.
        if changes.contains(where: { $0 != nil }) {
            let snapshots = [local, container]
            var again: [(Snapshot, [Learned])?] = [nil, nil]
            for index in 0..<2 {
                guard var changed = changes[index], snapshots[index].goneFolders != nil,
                    let table = snapshots[index].unchanged.table
                else { continue }
                let other = snapshots[1 - index]
                let goneThere: [SyncPath]
                if let gone = other.goneFolders {
                    goneThere = gone
                } else if let otherTable = other.unchanged.table, other.unchanged.isBits(of: otherTable) {
                    // Listed whole (a watcher's poll of a server): its gone folders are the
                    // recorded folders it did not find as recorded. (Listing this side whole
                    // instead made each poll of 100,000 files stat every local file.)
                    goneThere = Scanner.recordedFolders(below: nil, in: otherTable, notIn: other.unchanged)
                } else {
                    again[index] = try scanSide(index, nil)  // what is gone there cannot be told: all of it
                    continue
                }
                let trusted = goneThere.filter { folder in
                    table.find(folder).map { snapshots[index].unchanged.isSet($0.ordinal) } ?? false
                }
                guard !trusted.isEmpty else { continue }
                changed.trees.formUnion(trusted.map(\.rawValue))
                again[index] = try scanSide(index, changed)
            }
            if let scanned = again[0] { (local, learnedLocal) = scanned }
            if let scanned = again[1] { (container, learnedContainer) = scanned }
        }
        return try settle(local, container, learned: learnedLocal + learnedContainer)
    }

    /// The folders whose `.seamsignore` applies to what a scan of `changes` lists: each changed
    /// folder and those above it, in path order; read on both sides, so both scans apply the same rules.
    static func foldersAbove(_ changes: [ChangedFolders]) -> [SyncPath?] {
        var folders: Set<SyncPath?> = []
        for item in changes.flatMap(\.listed) {
            var current = item.folder
            while let folder = current, folders.insert(folder).inserted { current = folder.parent }
            folders.insert(nil)
        }
        return folders.sorted { a, b in
            guard let second = b else { return false }
            guard let first = a else { return true }
            return first < second
        }
    }

    /// The two sides' scans made one: each side's rules applied to the other, the items the plan
    /// needs read, the reserved and ignored paths gathered.
    func settle(_ local: consuming Snapshot, _ container: consuming Snapshot, learned: [Learned]) throws -> Scanned {
        var local = local
        var container = container
        // Each side's `.seamsignore` files apply to both sides: a path one side's rules leave out
        // is left out of the other too, never seen as deleted there.
        if local.rules != container.rules {
            let (localRules, containerRules) = (local.rules, container.rules)
            local.leaveOut(ignoredBy: containerRules)
            container.leaveOut(ignoredBy: localRules)
        }
        // And what one scan left out by its kind there (a folder-only pattern) is left out here too.
        let (localIgnored, containerIgnored) = (local.ignored, container.ignored)
        local.leaveOut(paths: containerIgnored)
        container.leaveOut(paths: localIgnored)
        try complete(&local, &container)
        var seen = Set<SyncPath>()
        let reserved = (local.reserved + container.reserved).filter { seen.insert($0).inserted }
        // Each ignored path once, and none inside another.
        let union = Set(local.ignored).union(container.ignored)
        let ignored = union.filter { path in
            var above = path.parent
            while let folder = above {
                if union.contains(folder) { return false }
                above = folder.parent
            }
            return true
        }
        return Scanned(
            local: local, container: container, learned: learned, reserved: reserved,
            ignored: ignored.sorted())
    }

    /// Reads again what one scan found unchanged where the other found a change or nothing: the
    /// plan decides those paths, and a scan compared with the archive kept only their paths.
    /// A path gone since the scan is left out; any other failure ends the run before it changes
    /// anything.
    ///
    /// A path alone in its folder is read alone; a folder with more such paths is listed once and
    /// they are read from the listing: a folder renamed on one side costs the other one listing
    /// (one request on a server), not one read per item it holds. On a disk, where a listing
    /// reads every entry's metadata, a folder is listed only when at least half its entries are
    /// wanted: 100 files edited across the folders of 100 each cost 100 reads, not 100 listings.
    /// Where the scan kept the folder's listing (a server's, ``Snapshot/listings``) it is read
    /// from there, with no request at all.
    private func complete(_ local: inout Snapshot, _ container: inout Snapshot) throws {
        let kept = [Side.local: local.listings, .container: container.listings]
        let sizes = [Side.local: local.entryCounts, .container: container.entryCounts]
        let networked = [Side.local: run.can(.local, .networked), .container: run.can(.container, .networked)]
        local.listings = [:]
        container.listings = [:]
        (local.keptItems, container.keptItems) = (0, 0)
        (local.entryCounts, container.entryCounts) = ([:], [:])
        var listings: [Side: [SyncPath?: [String: FileMetadata]]] = [:]
        var listed: [Side: Set<SyncPath?>] = [:]
        func isGone(_ error: any Error) -> Bool {
            guard let error = error as? CocoaError else { return false }
            return error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile || error.posixCode == .ENOTDIR
        }
        try Snapshot.complete(&local, &container) { paths, side in
            var wanted: [SyncPath?: Int] = [:]
            for path in paths { wanted[path.parent, default: 0] += 1 }
            for (folder, count) in wanted where count > 1 {
                if networked[side] == true || count * 2 >= sizes[side]?[folder] ?? 0 {
                    listed[side, default: []].insert(folder)
                }
            }
        } read: { path, side in
            let parent = path.parent
            if let listing = listings[side]?[parent] { return listing[path.name] }
            if let entries = kept[side]?[parent] {
                var listing: [String: FileMetadata] = [:]
                for entry in entries { listing[entry.name] = entry.metadata }
                listings[side, default: [:]][parent] = listing
                return listing[path.name]
            }
            if listed[side]?.contains(parent) != true {
                let url = path.url(in: run.root(side))
                do {
                    return try run.replica(side).directories.metadata(at: url)
                } catch let error where isGone(error) {
                    return nil
                } catch {
                    throw SyncError.readFailed(url, UnderlyingError(error))
                }
            }
            let folder = parent.map { $0.url(in: run.root(side)) } ?? run.root(side)
            var listing: [String: FileMetadata] = [:]
            do {
                for entry in try run.replica(side).directories.contentsOfDirectory(at: folder) {
                    listing[entry.name] = entry.metadata
                }
            } catch let error where isGone(error) {
                // The folder is gone since the scan: so is what it held.
            } catch {
                throw SyncError.readFailed(folder, UnderlyingError(error))
            }
            listings[side, default: [:]][parent] = listing
            return listing[path.name]
        }
    }
}

/// What a scan learned of an item it found unchanged, for its archive entry: a container file's
/// content tag the entry had none of, the item's identity where the entry had another or none
/// (recorded before identities were, or the item replaced by one of the same stamp), or the
/// server's date of a file known by its tag and size (``ReplicaCapabilities/datedByServer``:
/// recorded with this machine's clock when the run wrote it, or dated anew by the server).
struct Learned: Hashable, Sendable {
    /// The item's path.
    let path: SyncPath
    /// Its side.
    let side: Side
    /// The 32 bits of its content tag the archive records (0: none learned).
    var tag: UInt32 = 0
    /// Its identity (0: none learned).
    var id: UInt64 = 0
    /// Its stamp on its side, where only its date differs from the recorded one (`nil`: none learned).
    var stamp: Stamp?
}

extension ArchiveEntries {
    /// Records what a scan learned.
    mutating func record(_ learned: [Learned]) {
        for item in learned {
            guard var entry = self[item.path] else { continue }
            if item.tag != 0 { entry.containerTag = item.tag }
            if let stamp = item.stamp {
                if item.side == .local { entry.local = stamp } else { entry.container = stamp }
            }
            if item.id != 0 {
                if item.side == .local { entry.localID = item.id } else { entry.containerID = item.id }
            }
            self[item.path] = entry
        }
    }
}
