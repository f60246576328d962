import Foundation
import SeamsCore

/// Carries out a ``SyncPlan`` through the boundaries, one path at a time, and builds the archive
/// of what was done. A path that fails keeps its old archive entry, so the next run retries it.
///
/// Order: the moves; then creations and copies parents first; then deletions children first;
/// then files that replace a deleted folder. Every change is atomic (temp file, flush, re-check, rename); the
/// folders touched are flushed at the end.
struct Applier {
    let context: ApplyContext
    let plan: SyncPlan
    var archive: Archive
    var report = SyncReport()
    /// Copies queued, written to temp names, and batched for one flush.
    var copyQueue = CopyQueue()
    /// This run's trash folders: made, and waiting for a flush.
    var trashState = TrashState()
    /// The folders this run changed (flushed at the end) and the paths it made.
    var folderState = FolderState()
    /// Names the other side's file system takes for another item, and what waits on them.
    var collisions = Collisions()
    /// Conflicts an interrupted run already kept, and the paths they settle.
    var conflictState = ConflictState()
    /// The moves made first, and the paths they settle.
    var moveState = MoveState()
    /// Whether `archive` now differs from the one the run started with.
    private(set) var archiveChanged = false
    /// The folders (`nil`: the root) whose recorded `.seamsignore` this run replaced or removed
    /// on a side: what the rules of both sides left out when the run listed them may be more
    /// than what they leave out now.
    private(set) var rulesChanged: Set<SyncPath?> = []

    /// Whether the state must be committed after this run (and so the container's marker placed).
    var commitNeeded: Bool { archiveChanged || context.mustCommit }

    init(context: ApplyContext, plan: SyncPlan, archive: Archive) {
        self.context = context
        self.plan = plan
        self.archive = archive
    }

    /// Runs every phase and flushes the touched folders.
    mutating func run() throws -> Archive {
        let (archive, finalFlush) = try runStartingFinalFlush()
        try finalFlush.wait().get()
        return archive
    }

    /// Runs every phase and starts the final flush of the touched folders beside the caller,
    /// which waits for it before anything that relies on it (the state's commit): the caller
    /// can write the new state to its temp name meanwhile. The trash is flushed before this
    /// returns, so that every version kept there is durable before the old names are.
    mutating func runStartingFinalFlush() throws -> (archive: Archive, finalFlush: any PendingWork) {
        removeLeftovers()
        findKeptCopies()
        if !plan.moves.isEmpty { try makeMoves() }
        let entries = plan.entries
        let phases = entries.map(Self.phase)
        // The paths in sync on both sides need nothing: done before the run starts.
        let total = plan.pathCount
        var done = plan.inSync
        report.inSync += plan.inSync
        let bytes = entries.map(Self.plannedBytes)
        let bytesTotal = bytes.reduce(0, +)
        var bytesDone: Int64 = 0
        func told() -> SyncProgress {
            SyncProgress(
                phase: .applying, completed: done, total: total, bytesCompleted: bytesDone, bytesTotal: bytesTotal)
        }
        phases: for phase in Phase.allCases {
            let ordered = phase == .delete ? Array(entries.indices.reversed()) : Array(entries.indices)
            for index in ordered where phases[index] == phase {
                if context.shouldStop() {
                    // A safe point: every change so far is whole. The staged copies are placed
                    // and everything flushed below; the paths not reached keep their old state.
                    // Paths put off until the deletions were counted, and are not done.
                    report.interruption = SyncReport.Interruption(done: done - collisions.waiting.count, total: total)
                    break phases
                }
                if !plan.moves.isEmpty, moveState.settles(entries[index].path) {
                    // Done before the moves, or not done because its move failed.
                } else if conflictState.settled.contains(entries[index].path) {
                    // Carried out with the conflict it belongs to.
                } else if !collisions.folders.isEmpty, let collided = collidedAncestor(of: entries[index].path) {
                    if collisions.waitingFolders.contains(collided.folder) {
                        collisions.waiting.append(entries[index].path)  // made once its folder is
                    } else {
                        recordFailure(
                            ApplyIssue.insideCollidedFolder(collided.folder, other: collided.other),
                            at: entries[index].path)
                    }
                } else if phase == .createAndCopy, let source = Self.plainCopySource(entries[index]) {
                    stage(entries[index], from: source)
                    if batchIsFull { batchFilled() }
                } else {
                    apply(entries[index])
                }
                done += 1
                bytesDone += bytes[index]
                if done % 64 == 0 {
                    try context.heartbeat()
                    context.progress(told())
                } else if bytes[index] >= 1 << 20 {
                    context.progress(told())
                }
            }
            // Every copy of the first phase is in place before anything is deleted.
            placeStaged()
            if phase != .createAndCopy, !(try retryAfterDeletions(done: &done, total: total)) { break phases }
        }
        placeStaged()
        if commitNeeded, let placement = context.marker {
            // The container's new generation, durable with the final flush, before the state's
            // commit: renamed into place when a batch's flush made it durable, else written now.
            let staged = copyQueue.marker.flatMap { $0.durable ? $0.temp : nil }
            _ = try placement.marker.place(placement.identity, runID: context.runID, staged: staged)
            folderState.dirty[.container]!.insert(nil)
        } else if let staged = copyQueue.marker {
            context.marker?.marker.discard(staged.temp)
        }
        try flushTrash()
        let (replicas, folders) = (context.replicas, changedFolders())
        // Beside the caller only where work goes several at once, as a full batch's flush does.
        let finalFlush: any PendingWork =
            context.copiesAtOnce > 1
            ? context.work.start { try replicas.flush(folders) } : EndedWork(Result { try replicas.flush(folders) })
        if let interruption = report.interruption {
            done = interruption.done
        } else {
            (done, bytesDone) = (total, bytesTotal)
        }
        context.progress(told())
        return (archive, finalFlush)
    }

    /// The bytes `entry` copies: its source file's size when it carries a file to the other side.
    static func plannedBytes(_ entry: SyncPlan.Entry) -> Int64 {
        guard case .propagate(let from) = entry.decision, let item = entry.item(on: from), item.kind == .file else {
            return 0
        }
        return Int64(clamping: item.size)
    }

    /// The order a plan is carried out in, one pass over the plan each.
    enum Phase: CaseIterable {
        /// Creations, copies and everything else, parents first.
        case createAndCopy
        /// Deletions, children first.
        case delete
        /// Files and links that replace a deleted folder.
        case replaceFolders
    }

    /// The phase that carries out `entry`.
    private static func phase(_ entry: SyncPlan.Entry) -> Phase {
        guard case .propagate(let from) = entry.decision else { return .createAndCopy }
        guard let source = entry.item(on: from) else { return .delete }
        return source.kind != .directory && entry.item(on: from.other)?.kind == .directory
            ? .replaceFolders : .createAndCopy
    }

    mutating func apply(_ entry: SyncPlan.Entry) {
        let (path, decision, local, container) = (entry.path, entry.decision, entry.local, entry.container)
        do {
            switch decision {
            case .nothing:
                if let local, let container, local.kind == container.kind {
                    let synced = Archive.Entry(synced: local, container)
                    if entry.archived != synced { setEntry(synced, at: path) }
                    report.inSync += 1
                } else if local == nil, container == nil, entry.archived != nil {
                    setEntry(nil, at: path)
                }
            case .skip(let reason):
                report.skipped.append(.init(path: path.rawValue, reason: reason))
            case .unresolved(let reason):
                report.failures.append(.init(path: path.rawValue, reason: reason))
            case .propagate(let from):
                try propagate(path, from: from)
            case .compare:
                try compare(path, local: local!, container: container!)
            case .conflict(let winner):
                try resolveConflict(path, winner: winner)
            case .typeConflict(let fileSide):
                try resolveTypeConflict(path, fileSide: fileSide)
            }
        } catch {
            recordFailure(error, at: path)
        }
    }

    /// Reports why `path` was not carried out, as the issue says (``ApplyIssue/isSkip``,
    /// ``ApplyIssue/reason``); any other error is a failure in the boundary's words.
    mutating func recordFailure(_ error: any Error, at path: SyncPath) {
        if case ApplyIssue.nameCollision(let other) = error, waitsForDeletion(path, other: other) {
            collisions.waiting.append(path)
            if collisions.folders[path] != nil { collisions.waitingFolders.insert(path) }
            return
        }
        let reason = (error as? ApplyIssue)?.reason ?? String(describing: UnderlyingError(error))
        let problem = SyncReport.Problem(path: path.rawValue, reason: reason)
        if (error as? ApplyIssue)?.isSkip == true {
            report.skipped.append(problem)
        } else {
            report.failures.append(problem)
        }
    }

    private mutating func propagate(_ path: SyncPath, from source: Side) throws {
        let target = source.other
        let item = plan.snapshot(source).items[path]
        let existing = plan.snapshot(target).items[path]
        // Files and links are kept in the trash when replaced or deleted; folders are removed
        // once empty (what they held was handled path by path).
        let replaceable = existing.flatMap { $0.kind == .file || $0.kind == .symbolicLink ? $0 : nil }
        switch (item?.kind, existing?.kind) {
        case (nil, _):
            if let replaceable {
                try moveToTrash(path, on: target, expected: replaceable)
            } else if existing != nil {
                try removeFolder(path, on: target)
            }
            setEntry(nil, at: path)
        case (.directory?, let kind):
            if let replaceable {
                try moveToTrash(path, on: target, expected: replaceable)
                try flushTrash()  // durable in the trash before a folder takes its name
            }
            var folder = existing?.kind == .directory ? existing : nil
            if kind != .directory {
                try makeFolder(path, on: target)
                // Its identity, where one is kept, so a rename of it later is seen as one.
                if !context.can(target, .networked) {
                    folder = try? context.currentMetadata(context.url(path, on: target), on: target)
                }
            }
            let zero = Stamp(size: 0, modified: 0)
            let ids = (item!.fileIdentifier, folder?.fileIdentifier ?? 0)
            let (localID, containerID) = source == .local ? ids : (ids.1, ids.0)
            setEntry(
                Archive.Entry(
                    kind: .directory, local: zero, container: zero, localID: localID,
                    containerID: context.can(.container, .networked) ? 0 : containerID),
                at: path)
        case (_, let kind):
            if kind == .directory { try removeFolder(path, on: target) }
            let copied = try copy(path, from: source, item: item!, to: path, expected: replaceable)
            record(path, kind: item!.kind, source: source, sourceItem: item!, targetItem: copied)
        }
    }

    private mutating func compare(_ path: SyncPath, local: FileMetadata, container: FileMetadata) throws {
        let (localURL, containerURL) = (context.url(path, on: .local), context.url(path, on: .container))
        let equal: Bool
        if local.kind == .symbolicLink || container.kind == .symbolicLink {
            // Two links are the same when their target texts are; a link never equals a file.
            if local.kind == container.kind {
                let localTarget = try context.directories(.local).destinationOfSymbolicLink(at: localURL)
                equal = try localTarget == context.directories(.container).destinationOfSymbolicLink(at: containerURL)
            } else {
                equal = false
            }
        } else {
            // Chunk by chunk on the live file system: two large files never sit in memory.
            equal = try context.replicas.contentsEqual(localURL, on: .local, containerURL, on: .container)
        }
        if equal {
            setEntry(Archive.Entry(synced: local, container), at: path)
            report.inSync += 1
        } else {
            try resolveConflict(path, winner: Reconciler.newer(local: local, container: container))
        }
    }

    /// Records `path` as synced: `sourceItem` on `source`, `targetItem` on the other side (their
    /// stamps, and the container item's content tag).
    mutating func record(
        _ path: SyncPath, kind: FileMetadata.Kind = .file, source: Side, sourceItem: FileMetadata,
        targetItem: FileMetadata
    ) {
        let (local, container) = source == .local ? (sourceItem, targetItem) : (targetItem, sourceItem)
        setEntry(Archive.Entry(synced: local, container, kind: kind), at: path)
    }

    /// Records what `path` looks like now on both sides (`nil`: gone from both).
    ///
    /// A recorded `.seamsignore`'s entry replaced or removed puts its folder in
    /// ``rulesChanged`` (unless `rulesMoveWithFolder`: a folder moved whole, whose rules apply to
    /// what it holds wherever it is). A new one does not: this run's scans applied it already,
    /// found on one side, to both.
    mutating func setEntry(_ entry: Archive.Entry?, at path: SyncPath, rulesMoveWithFolder: Bool = false) {
        let old: Archive.Entry?
        if let entry {
            old = archive.entries.updateValue(entry, forKey: path)
        } else {
            old = archive.entries.removeValue(forKey: path)
        }
        guard old != entry else { return }
        archiveChanged = true
        if old != nil, path.name == IgnoreRules.fileName, !rulesMoveWithFolder { rulesChanged.insert(path.parent) }
    }

    /// Whether a path is in use on either side (for conflict names).
    func isTaken(_ path: SyncPath) -> Bool {
        plan.local.contains(path) || plan.container.contains(path) || folderState.created.contains(path)
    }

    /// What the scan found at `path` on `side`: its item, read again when the scan kept only its
    /// path (unchanged since the last sync); `nil` when nothing is there. For names the plan
    /// does not decide (conflict copies); every path of the plan has its items already.
    func scannedItem(_ path: SyncPath, on side: Side) -> FileMetadata? {
        let snapshot = plan.snapshot(side)
        if let item = snapshot.items[path] { return item }
        guard snapshot.unchanged.contains(path) else { return nil }
        return try? context.directories(side).metadata(at: context.url(path, on: side))
    }

    mutating func countDeletion(on side: Side) {
        if side == .local { report.deletedLocal += 1 } else { report.deletedContainer += 1 }
    }
}
