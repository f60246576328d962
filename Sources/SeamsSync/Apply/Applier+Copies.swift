import Foundation
import SeamsCore

/// The copies of the first phase on their way into place.
struct CopyQueue {
    /// Copies written to temp files and waiting for one flush and their renames.
    var staged: [StagedCopy] = []
    /// Copies queued to be written to temp files, a few at once (``ApplyContext/copiesAtOnce``).
    var unwritten: [(entry: SyncPlan.Entry, source: Side)] = []
    /// The bytes in ``staged`` and ``unwritten``.
    var bytes: Int64 = 0
    /// A full batch being flushed on another thread, placed after the next batch fills
    /// (``Applier/batchFilled()``) or when ``Applier/placeStaged()`` drains.
    var flushing: (batch: SealedBatch, flush: any PendingWork)?
    /// Temp names given out so far: each holds the run's id and its number.
    var temporaryCounter = 0
    /// The container's new marker, written to its temp name with the first batch (so that the
    /// batch's flush covers it), and whether that flush has made it durable.
    var marker: (temp: URL, durable: Bool)?
}

/// A file copied to a temp name beside its target, waiting for the batch flush and its rename.
struct StagedCopy {
    /// The path, the same on both sides.
    let path: SyncPath
    /// The side the content comes from.
    let source: Side
    /// The source item as the scan saw it.
    let item: FileMetadata
    /// The target item the copy replaces, as the scan saw it (`nil` for a new file).
    let expected: FileMetadata?
    /// The temp file.
    let temp: URL
    /// The temp file's metadata.
    let copied: FileMetadata
}

/// A batch of copies written to their temp files, with what its flush must cover.
struct SealedBatch {
    /// The copies, in plan order.
    let copies: [StagedCopy]
    /// The paths whose replaced version is already kept in the trash.
    let preserved: Set<SyncPath>
    /// The trash folders made for it.
    let made: Set<URL>
    /// The trash folders that were waiting for a flush, flushed with it.
    let trash: Durables
    /// Every file and folder its flush covers: the temp files, the new trash folders' chains
    /// and the trash folders that were waiting.
    let durables: Durables
    /// The container's new marker at its temp name, when this batch's flush covers it.
    let marker: URL?

    /// Its one flush: the temp files' content, the new trash folders' names and the versions
    /// kept in them (one `syncfs` on the live file system).
    func flush(through replicas: ReplicaTransfers) throws {
        try replicas.flush(durables)
    }
}

extension Applier {
    /// At most about this many bytes wait for one flush.
    static let batchBytes: Int64 = 256 << 20

    /// The side to copy from when `entry` is a plain file copy (a new or changed file replacing
    /// nothing or a file); such copies are staged and flushed together.
    static func plainCopySource(_ entry: SyncPlan.Entry) -> Side? {
        guard case .propagate(let from) = entry.decision, entry.item(on: from)?.kind == .file else { return nil }
        let target = entry.item(on: from.other)?.kind
        return target == nil || target == .file ? from : nil
    }

    /// Queues the copy for `entry`: written to a temp file beside its target at once when copies
    /// are written one by one, else with the next few (``ApplyContext/copiesAtOnce``).
    mutating func stage(_ entry: SyncPlan.Entry, from source: Side) {
        copyQueue.unwritten.append((entry, source))
        copyQueue.bytes += entry.item(on: source)!.size
        if copyQueue.unwritten.count >= Self.writtenTogether(context.copiesAtOnce) { writeUnwritten() }
    }

    /// How many queued copies are written together by `copiesAtOnce` threads: a few per thread,
    /// so that one slow file holds up little.
    static func writtenTogether(_ copiesAtOnce: Int) -> Int { copiesAtOnce > 1 ? copiesAtOnce * 4 : 1 }

    /// Whether the queued copies fill a batch (by count or by bytes), to be flushed and placed.
    var batchIsFull: Bool {
        copyQueue.staged.count + copyQueue.unwritten.count >= context.batchCount || copyQueue.bytes >= Self.batchBytes
    }

    /// Writes every queued copy to its temp file, `copiesAtOnce` at a time, and stages those
    /// written; the temp names are given out in plan order first, so they are the same however
    /// the writes interleave. A copy that failed is reported and leaves no temp file.
    mutating func writeUnwritten() {
        guard !copyQueue.unwritten.isEmpty else { return }
        let queued = createWholeWherePossible(copyQueue.unwritten)
        copyQueue.unwritten = []
        let jobs = queued.map { entry, source in
            (entry: entry, source: source, temp: temporaryURL(beside: entry.path, on: source.other))
        }
        let context = self.context
        let written = context.work.map(jobs.count, width: context.copiesAtOnce) { index in
            let (entry, source, temp) = jobs[index]
            return Result { () throws -> FileMetadata in
                try Self.writeTemp(
                    temp, context: context, from: entry.path, on: source, item: entry.item(on: source)!, to: entry.path)
            }
        }
        for ((entry, source, temp), result) in zip(jobs, written) {
            let item = entry.item(on: source)!
            switch result {
            case .success(let copied):
                copyQueue.staged.append(
                    StagedCopy(
                        path: entry.path, source: source, item: item, expected: entry.item(on: source.other),
                        temp: temp, copied: copied))
            case .failure(let error):
                copyQueue.bytes -= item.size
                recordFailure(error, at: entry.path)
            }
        }
    }

    /// A full batch: when copies go several at a time, flushed on another thread while the main
    /// loop goes on (and the next batch is copied), and placed once the next batch is full or the
    /// phase ends; else flushed and placed at once (``placeStaged()``).
    ///
    /// The previous batch, flushed meanwhile, is placed now: its renames run beside this batch's
    /// flush. Nothing is placed before its own flush has returned.
    mutating func batchFilled() {
        guard context.copiesAtOnce > 1 else { return placeStaged() }
        writeUnwritten()
        guard let batch = sealBatch() else { return }
        let replicas = context.replicas
        let flush = context.work.start { try batch.flush(through: replicas) }
        let previous = copyQueue.flushing
        copyQueue.flushing = (batch, flush)
        if let previous { place(previous.batch, flushed: previous.flush.wait()) }
    }

    /// Flushes every queued temp file in one batch, then re-checks and renames each into place;
    /// a batch flushed in the background (``batchFilled()``) is placed first. Every staged copy
    /// is placed (or failed) when it returns.
    ///
    /// The order per file is the one ``copy(_:from:item:to:expected:)`` keeps: content durable
    /// before its rename, and the version it replaces durable in the trash before the rename.
    /// When the batch flush fails, no copy of it is placed: each path fails on its own, its temp
    /// file is removed, and the next run tries again.
    mutating func placeStaged() {
        if let previous = copyQueue.flushing {
            copyQueue.flushing = nil
            place(previous.batch, flushed: previous.flush.wait())
        }
        writeUnwritten()
        guard let batch = sealBatch() else { return }
        place(batch, flushed: Result { try batch.flush(through: context.replicas) })
    }

    /// Takes the staged copies as a batch, makes the trash folders they need and keeps in them
    /// every version the batch replaces, checked as the scan saw it; `nil` when nothing is staged.
    /// The trash folders waiting for a flush go with the batch's flush.
    private mutating func sealBatch() -> SealedBatch? {
        guard !copyQueue.staged.isEmpty else { return nil }
        let batch = copyQueue.staged
        copyQueue.staged = []
        copyQueue.bytes = 0
        // A trash folder that cannot be made is met again, and reported, path by path when the
        // batch is placed: placeCopy keeps the version it replaces on its own.
        var made: Set<URL> = []
        var chain = Durables()
        if let folders = try? makeTrashFolders(
            for: batch.compactMap { $0.expected == nil ? nil : ($0.path, $0.source.other) })
        {
            (made, chain) = folders
        }
        var preserved: Set<SyncPath> = []
        for copy in batch {
            guard let expected = copy.expected else { continue }
            do {
                // Checked before anything is read through the target's folders.
                try context.requireRealFolders(above: copy.path, on: copy.source.other)
                let current = try context.currentMetadata(
                    context.url(copy.path, on: copy.source.other), on: copy.source.other)
                // A target changed since the scan becomes a conflict copy below; nothing to keep.
                guard ApplyContext.sameItem(current, expected) else { continue }
                try preserveReplaced(copy.path, on: copy.source.other, expected: expected, madeFolders: made)
                preserved.insert(copy.path)
            } catch {
                // Left for placeCopy, which meets the same problem and reports it.
            }
        }
        let trash = trashState.pending
        trashState.pending = Durables()
        var durables = chain
        durables.formUnion(trash)
        for copy in batch { durables.add(file: copy.temp, on: copy.source.other) }
        var marker: URL?
        if copyQueue.marker == nil, let placement = context.marker, placement.marker.stagesAhead,
            let temp = try? placement.marker.stage(placement.identity, runID: context.runID)
        {
            // A run that copies commits: its marker rides with this flush instead of one of its own.
            copyQueue.marker = (temp, false)
            marker = temp
            durables.add(file: temp, on: .container)
        }
        return SealedBatch(
            copies: batch, preserved: preserved, made: made, trash: trash, durables: durables, marker: marker)
    }

    /// Places a sealed batch once its one flush (one `syncfs` on the live file system) has made
    /// the temp files' content, the new trash folders' names and the versions kept in them
    /// durable. When it failed no copy is placed: each path fails on its own, its temp file is
    /// removed, and the next run tries again (what was kept in the trash stays there, and its
    /// folders wait for the next flush).
    private mutating func place(_ batch: SealedBatch, flushed: Result<Void, any Error>) {
        if let marker = batch.marker {
            if case .failure = flushed {
                // Not known to be durable: written again, and flushed on its own, at the end.
                context.marker?.marker.discard(marker)
                copyQueue.marker = nil
            } else {
                copyQueue.marker = (marker, true)
            }
        }
        if case .failure(let error) = flushed {
            trashState.pending.formUnion(batch.trash)
            for copy in batch.copies {
                try? context.directories(copy.source.other).removeItem(at: copy.temp, recursively: false)
                recordFailure(error, at: copy.path)
            }
            return
        }
        trashState.folders.formUnion(batch.made)
        let placedAtOnce = placeNewCopiesAtOnce(batch.copies)
        for (index, copy) in batch.copies.enumerated() where !placedAtOnce.contains(index) {
            do {
                let copied = try placeCopy(
                    copy.temp, copied: copy.copied, from: copy.source, item: copy.item, to: copy.path,
                    expected: copy.expected,
                    preserved: batch.preserved.contains(copy.path))
                record(copy.path, source: copy.source, sourceItem: copy.item, targetItem: copied)
            } catch {
                recordFailure(error, at: copy.path)
            }
        }
    }

    /// Moves the batch's new files (no item at their names when scanned) into place
    /// ``ApplyContext/copiesAtOnce`` at a time, once the batch is flushed: each is a rename that
    /// refuses a taken name, independent of the others, as a power cut may keep any of them and
    /// not the rest. Each thread takes a folder's files in turn (renames in one folder wait for
    /// each other in the kernel). The outcomes are then recorded in plan order.
    ///
    /// - Returns: The indices in `batch` carried out here, placed or failed. A copy whose name was
    ///   taken (EEXIST) is left to ``placeCopy(_:copied:from:item:to:expected:preserved:)``,
    ///   which looks at the name; so are all of them when copies are placed one by one.
    mutating func placeNewCopiesAtOnce(_ batch: [StagedCopy]) -> Set<Int> {
        guard context.copiesAtOnce > 1 else { return [] }
        // Each folder's new files, in plan order: one thread places all of a folder's files, so
        // names its file system takes for one (`A.txt` and `a.txt` on exFAT) meet in plan order,
        // never in a race between two threads.
        var folders: [[Int]] = []
        var folderOf: [SyncPath?: Int] = [:]
        for index in batch.indices where batch[index].expected == nil {
            let parent = batch[index].path.parent
            if let folder = folderOf[parent] {
                folders[folder].append(index)
            } else {
                folderOf[parent] = folders.count
                folders.append([index])
            }
        }
        guard folders.count > 1 || (folders.first?.count ?? 0) > 1 else { return [] }
        // A name this run freed is taken again only once that move is durable; when that flush
        // fails, each copy meets it again in placeCopy and fails on its own.
        do { try flushTrash() } catch { return [] }
        let (context, runs) = (self.context, folders)
        let outcomes = context.work.map(runs.count, width: context.copiesAtOnce) { folder in
            runs[folder].map { index in
                let copy = batch[index]
                let target = copy.source.other
                return Result { () throws -> Void in
                    try context.requireRealFolders(above: copy.path, on: target)
                    try context.directories(target).moveItem(
                        at: copy.temp, to: context.url(copy.path, on: target), replacingExisting: false)
                }
            }
        }
        var carriedOut: Set<Int> = []
        for (indices, results) in zip(folders, outcomes) {
            for (index, result) in zip(indices, results) {
                let copy = batch[index]
                switch result {
                case .success:
                    let copied = placedCopy(copy.copied, at: copy.path, on: copy.source.other)
                    record(copy.path, source: copy.source, sourceItem: copy.item, targetItem: copied)
                case .failure(let error as CocoaError) where error.posixCode == .EEXIST:
                    continue  // placeCopy looks at the name
                case .failure(let error):
                    try? context.directories(copy.source.other).removeItem(at: copy.temp, recursively: false)
                    recordFailure(error, at: copy.path)
                }
                carriedOut.insert(index)
            }
        }
        return carriedOut
    }

    /// Copies a file to the other side atomically: ``stageCopy(_:from:item:to:)``, flush,
    /// ``placeCopy(_:copied:from:item:to:expected:preserved:)``.
    ///
    /// - Returns: The new file's metadata, as read from its temp file.
    mutating func copy(
        _ sourcePath: SyncPath, from source: Side, item: FileMetadata, to destination: SyncPath,
        expected: FileMetadata?
    ) throws -> FileMetadata {
        let (temp, copied) = try stageCopy(sourcePath, from: source, item: item, to: destination)
        do {
            // A link's target text is written with the link and made durable by its folder's
            // flush; opening it to flush would follow it.
            if item.kind != .symbolicLink { try context.replica(source.other).flush(file: temp) }
        } catch {
            try? context.directories(source.other).removeItem(at: temp, recursively: false)
            throw error
        }
        return try placeCopy(temp, copied: copied, from: source, item: item, to: destination, expected: expected)
    }

    /// The first half of a copy: the content in a temp file beside the target, the source checked
    /// against the scan once copied (a source changed since is not copied). Not yet flushed.
    ///
    /// - Returns: The temp file and its metadata.
    mutating func stageCopy(
        _ sourcePath: SyncPath, from source: Side, item: FileMetadata, to destination: SyncPath
    ) throws -> (temp: URL, copied: FileMetadata) {
        let temp = temporaryURL(beside: destination, on: source.other)
        return (
            temp, try Self.writeTemp(temp, context: context, from: sourcePath, on: source, item: item, to: destination)
        )
    }

    /// Writes `item` at `sourcePath` on `source` to `temp`, beside `destination` on the other
    /// side, and checks the source against the scan once copied. Changes nothing but `temp`, so
    /// several may run at once (``ApplyContext/copiesAtOnce``); a failed one leaves no `temp`.
    ///
    /// - Returns: The temp file's metadata.
    static func writeTemp(
        _ temp: URL, context: ApplyContext, from sourcePath: SyncPath, on source: Side, item: FileMetadata,
        to destination: SyncPath
    ) throws -> FileMetadata {
        try context.requireRealFolders(above: sourcePath, on: source)
        try context.requireRealFolders(above: destination, on: source.other)
        let sourceURL = context.url(sourcePath, on: source)
        let target = source.other
        // A file copied by its own store is read as it is copied (from the open files, on this
        // machine's file systems); any other copy is read by path once made.
        let inStore = item.kind == .file && context.replicas.copiesInStore(from: source, to: target)
        var readWhileCopying: (source: FileMetadata, copy: FileMetadata)?
        do {
            if inStore {
                readWhileCopying = try context.directories(source).copyItemReadingMetadata(at: sourceURL, to: temp)
            } else {
                try context.replicas.copy(sourceURL, from: source, to: temp, on: target)
            }
        } catch let error as CocoaError where error.posixCode == .ENOENT {
            // A store that reads by path may have made the copy before the source went.
            if inStore { try? context.directories(target).removeItem(at: temp, recursively: false) }
            if try context.currentMetadata(sourceURL, on: source) == nil { throw ApplyIssue.vanishedDuringSync }
            throw error
        } catch let error as CocoaError
            where item.kind == .symbolicLink && Self.meansNoLinks(error)
            && (try? context.currentMetadata(temp, on: target)) == nil
        {
            throw ApplyIssue.linksUnsupported(source.other)
        }
        do {
            let copied = try readWhileCopying?.copy ?? context.directories(target).metadata(at: temp)
            let sourceAfter = try readWhileCopying?.source ?? context.currentMetadata(sourceURL, on: source)
            // The source is what is checked against the scan, after the copy: a change made while
            // it was copied counts too, and the copy's own date may be coarser than the source's
            // (exFAT keeps 10 ms, FAT 2 s), so it is not compared.
            guard copied.size == item.size, ApplyContext.sameItem(sourceAfter, item) else {
                throw ApplyIssue.changedDuringSync
            }
            return copied
        } catch {
            try? context.directories(target).removeItem(at: temp, recursively: false)
            throw error
        }
    }

    /// Whether a failed copy of a link says the target's file system has no links: EPERM (Linux's
    /// answer on FAT and exFAT), ENOTSUP/EOPNOTSUPP, or ENOSYS (some FUSE file systems).
    static func meansNoLinks(_ error: CocoaError) -> Bool {
        guard let code = error.posixCode else { return false }
        let noLinks: [POSIXErrorCode] = [.EPERM, .EOPNOTSUPP, .ENOSYS]  // ENOTSUP is EOPNOTSUPP on Linux
        return noLinks.contains(code)
    }

    /// Whether the copy of `entry` from `source` is a new file written straight to its name: the
    /// target writes files whole and refuses a taken name (``ReplicaCapabilities/wholeExclusiveCreate``),
    /// the file fits one such write, and it comes from this machine's side.
    func createsWhole(_ entry: SyncPlan.Entry, from source: Side) -> Bool {
        let target = context.replica(source.other)
        guard entry.item(on: source.other) == nil, target.can(.wholeExclusiveCreate),
            !(context.replica(source) is any RemoteReplica), let item = entry.item(on: source)
        else { return false }
        return item.size <= target.wholeCreateLimit && isKnownFolder(entry.path.parent, on: source.other)
    }

    /// Whether `folder` (`nil`: the root) is a folder on `side` as far as the run knows without a
    /// look: scanned as one, or made by this run. A key can sit below a file's on S3, where a
    /// file system refuses it: a file whose folder could not take the place of a file there
    /// goes the temp file's way, whose placement fails as the folder's did.
    func isKnownFolder(_ folder: SyncPath?, on side: Side) -> Bool {
        guard let folder else { return true }
        if folderState.created.contains(folder) { return true }
        let snapshot = plan.snapshot(side)
        if let item = snapshot.items[folder] { return item.kind == .directory }
        return snapshot.unchanged.contains(folder) && archive.entries[folder]?.kind == .directory
    }

    /// Writes the queued new files that can go straight to their names (``createsWhole(_:from:)``),
    /// `copiesAtOnce` at a time, and records each: one request, no temp name, no move, no flush.
    /// A name found taken is left, with every other copy, to be written to a temp file, whose
    /// placement looks at the name (a conflict copy, or a name another case reaches).
    ///
    /// - Returns: The copies still to be written to temp files, in plan order.
    mutating func createWholeWherePossible(
        _ queued: [(entry: SyncPlan.Entry, source: Side)]
    ) -> [(entry: SyncPlan.Entry, source: Side)] {
        let whole = queued.indices.filter { createsWhole(queued[$0].entry, from: queued[$0].source) }
        guard !whole.isEmpty else { return queued }
        // A name this run freed is taken again only once that move is durable.
        do { try flushTrash() } catch { return queued }
        let context = self.context
        let results = context.work.map(whole.count, width: context.copiesAtOnce) { job in
            let (entry, source) = queued[whole[job]]
            return Result { () throws -> FileMetadata in
                try Self.createWhole(entry.path, from: source, item: entry.item(on: source)!, context: context)
            }
        }
        var left = Set(queued.indices)
        for (index, result) in zip(whole, results) {
            let (entry, source) = queued[index]
            let item = entry.item(on: source)!
            switch result {
            case .success(let created):
                let placed = placedCopy(created, at: entry.path, on: source.other)
                record(entry.path, source: source, sourceItem: item, targetItem: placed)
            case .failure(let error as CocoaError) where error.posixCode == .EEXIST:
                continue  // the temp file's way: its placement looks at the name
            case .failure(let error):
                recordFailure(error, at: entry.path)
            }
            copyQueue.bytes -= item.size
            left.remove(index)
        }
        return queued.indices.filter { left.contains($0) }.map { queued[$0] }
    }

    /// Reads the source file whole, checks it is still the version the scan saw, and creates it
    /// at the same path on the other side (``Replica/createWhole(_:at:)``): what is written is
    /// that version, never one changed while it was read.
    ///
    /// - Throws: ``ApplyIssue/vanishedDuringSync`` or ``ApplyIssue/changedDuringSync`` when the
    ///   source is gone or changed; EEXIST when the name is taken; the replicas' errors.
    static func createWhole(
        _ path: SyncPath, from source: Side, item: FileMetadata, context: ApplyContext
    ) throws -> FileMetadata {
        try context.requireRealFolders(above: path, on: source)
        try context.requireRealFolders(above: path, on: source.other)
        let sourceURL = context.url(path, on: source)
        return try context.replica(source.other).createWhole(at: context.url(path, on: source.other), size: item.size) {
            let data: Data
            do {
                data = try context.replica(source).files.read(from: sourceURL)
            } catch let error as CocoaError where error.posixCode == .ENOENT {
                if try context.currentMetadata(sourceURL, on: source) == nil { throw ApplyIssue.vanishedDuringSync }
                throw error
            }
            guard data.count == item.size,
                ApplyContext.sameItem(try context.currentMetadata(sourceURL, on: source), item)
            else { throw ApplyIssue.changedDuringSync }
            return data
        }
    }

    mutating func temporaryURL(beside path: SyncPath, on side: Side) -> URL {
        copyQueue.temporaryCounter += 1
        let name = Snapshot.temporaryPrefix + context.runID + "-" + String(copyQueue.temporaryCounter)
        return context.url(path.replacingName(with: name), on: side)
    }
}
