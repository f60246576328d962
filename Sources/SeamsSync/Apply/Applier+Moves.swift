import Foundation
import SeamsCore

/// The moves a run made before its other changes, and what they settled.
struct MoveState {
    /// New paths whose move failed: nothing at or under them is done this run.
    var failed: [SyncPath] = []
    /// Paths carried out before the moves: folders a move goes into.
    var doneEarly: Set<SyncPath> = []
    /// Paths whose archive entries a folder's move took to its new path though the plan does
    /// not carry them there: those of a folder inside it that a later move takes out.
    var relocated: [SyncPath] = []

    /// Whether the main walk leaves `path` alone: done before the moves, or at or under a move
    /// that failed (which is reported once, at its new path).
    func settles(_ path: SyncPath) -> Bool {
        doneEarly.contains(path) || failed.contains { path == $0 || path.isDescendant(of: $0) }
    }
}

extension Applier {
    /// Makes the plan's moves, in order, before anything else: each item renamed on the side the
    /// user did not move it on, after a look that it is still what the scan saw, and looked at
    /// again after (a version saved in between is moved back and waits for the next run). The
    /// archive's entries follow the item to its new path. A move that fails is reported at its
    /// new path, and nothing at or under that path is done this run. The folders the moves
    /// changed are flushed, once each, before the run goes on.
    ///
    /// - Throws: ``SyncError`` when the flush fails (the run cannot go on).
    mutating func makeMoves() throws {
        var arrived = Durables()
        var left = Durables()
        // Names a move freed this run, and where the first item of a cycle waits meanwhile.
        var freed: Set<SyncPath> = []
        var staged: [SyncPath: URL] = [:]
        for move in plan.moves {
            if context.shouldStop() {
                moveState.failed.append(move.to)  // not reached: left as it is for the next run
                continue
            }
            do {
                if let earlier = moveState.failed.first(where: {
                    move.from.isDescendant(of: $0) || move.to.isDescendant(of: $0)
                }) {
                    throw ApplyIssue.moveFailed(from: move.from, reason: "the move of \"\(earlier.rawValue)\" failed")
                }
                if move.step != .out, freed.contains(move.to) || move.replacing != nil {
                    // A name freed by a move (or going to the trash now) is taken again only once
                    // its leaving is durable: a power cut could otherwise keep the arrival and
                    // lose the leaving, and the two items would meet at one name.
                    if let replaced = move.replacing {
                        try moveToTrash(move.to, on: move.madeOn, expected: replaced, counted: false)
                    }
                    try flushTrash()
                    try context.replicas.flush(arrived)
                    try context.replicas.flush(left)
                    (arrived, left) = (Durables(), Durables())
                }
                let arrival = context.folderURL(move.to.parent, on: move.madeOn)
                let leaving = context.folderURL(move.from.parent, on: move.madeOn)
                if arrived.folders[move.madeOn]?.contains(leaving) == true
                    || left.folders[move.madeOn]?.contains(arrival) == true
                {
                    // A folder one move left and another arrived in: flushed with the arrivals,
                    // it would make the leaving durable before the other arrival. The moves so
                    // far are made durable first.
                    try context.replicas.flush(arrived)
                    try context.replicas.flush(left)
                    (arrived, left) = (Durables(), Durables())
                }
                let moving = context.url(move.from, on: move.madeOn)
                if [arrived, left].contains(where: { $0.holds(anyInside: moving, on: move.madeOn) }) {
                    // A folder an earlier move left or arrived in is inside the item that moves
                    // now: flushed at its name first, before that name is gone.
                    try context.replicas.flush(arrived)
                    try context.replicas.flush(left)
                    (arrived, left) = (Durables(), Durables())
                }
                try makeFolders(above: move.to, on: move.madeOn)
                switch move.step {
                case .whole:
                    try makeMove(move)
                case .out:
                    staged[move.to] = try stageMove(move)
                case .back:
                    guard let url = staged[move.to] else {
                        throw ApplyIssue.moveFailed(from: move.from, reason: "its first step failed")
                    }
                    try finishMove(move, from: url)
                }
                freed.insert(move.from)
                if move.step != .out { arrived.add(folder: arrival, on: move.madeOn) }
                if move.step != .back { left.add(folder: leaving, on: move.madeOn) }
            } catch {
                moveState.failed.append(move.to)
                if let issue = error as? ApplyIssue, case .moveFailed = issue {
                    recordFailure(issue, at: move.to)
                } else {
                    let reason = (error as? ApplyIssue)?.reason ?? String(describing: UnderlyingError(error))
                    recordFailure(ApplyIssue.moveFailed(from: move.from, reason: reason), at: move.to)
                }
            }
        }
        // Durable before anything that builds on them: a copy to the other side of an item edited
        // here and moved, made durable there while the move here was lost, would leave the item
        // at both paths. The folders moved into first: flushed the other way round, a power cut
        // between the two flushes could keep an item's leaving and lose its arrival.
        try flushTrash()
        try context.replicas.flush(arrived)
        try context.replicas.flush(left)
    }

    /// The first step of a cycle's first move: the item goes to the run's trash, out of the way
    /// of the others, and its archive entries leave its old path.
    ///
    /// - Returns: Where it waits.
    private mutating func stageMove(_ move: PlannedMove) throws -> URL {
        let side = move.madeOn
        try context.requireRealFolders(above: move.from, on: side)
        guard ApplyContext.sameItem(try context.currentMetadata(context.url(move.from, on: side), on: side), move.item)
        else {
            throw ApplyIssue.changedDuringSync
        }
        try moveToTrash(move.from, on: side, expected: move.item, counted: false)
        release(move)
        return context.trashURL(move.from, on: side)
    }

    /// The last step of a cycle's first move: the item comes back from the trash to its new path
    /// (where it stays, the reason said, when that fails: nothing is lost, the other side has it).
    private mutating func finishMove(_ move: PlannedMove, from staged: URL) throws {
        let side = move.madeOn
        try context.requireRealFolders(above: move.to, on: side)
        let newURL = context.url(move.to, on: side)
        do {
            try context.directories(side).moveItem(at: staged, to: newURL, replacingExisting: false)
        } catch {
            throw ApplyIssue.moveFailed(
                from: move.from, reason: "it waits in this run's trash: \(String(describing: UnderlyingError(error)))")
        }
        settle(move)
    }

    /// Makes the folders above `path` that are new on the other side and missing on `side`, as
    /// their own entries of the plan (done early, and not again).
    private mutating func makeFolders(above path: SyncPath, on side: Side) throws {
        var folders: [SyncPath] = []
        var current = path.parent
        while let folder = current, plan.snapshot(side).items[folder] == nil,
            !plan.snapshot(side).unchanged.contains(folder)
        {
            folders.append(folder)
            current = folder.parent
        }
        var made: [SyncPath] = []
        for folder in folders.reversed() where !moveState.doneEarly.contains(folder) {
            guard let entry = plan.entry(at: folder), entry.decision == .propagate(from: side.other),
                entry.item(on: side.other)?.kind == .directory
            else { throw ApplyIssue.notAFolderOnTheWay(folder) }
            let failures = report.failures.count + report.skipped.count
            apply(entry)
            moveState.doneEarly.insert(folder)
            guard report.failures.count + report.skipped.count == failures else {
                throw ApplyIssue.notAFolderOnTheWay(folder)
            }
            made.append(folder)
        }
        // The new folders' names are durable before an item moves into them: a power cut could
        // otherwise keep the item's leaving its old folder and lose the folder it went to.
        for folder in made {
            try context.replica(side).flush(folder: context.folderURL(folder.parent, on: side))
        }
    }

    /// Renames one item on its side and moves its archive entries to the new path.
    private mutating func makeMove(_ move: PlannedMove) throws {
        let side = move.madeOn
        try context.requireRealFolders(above: move.from, on: side)
        try context.requireRealFolders(above: move.to, on: side)
        let url = context.url(move.from, on: side)
        guard ApplyContext.sameItem(try context.currentMetadata(url, on: side), move.item) else {
            throw ApplyIssue.changedDuringSync
        }
        let newURL = context.url(move.to, on: side)
        if move.arrived {
            // The same file under both names, left by a run that stopped mid-move: the old name
            // goes to the trash (a name of the same file, so nothing is lost either way).
            guard ApplyContext.sameItem(try context.currentMetadata(newURL, on: side), move.item) else {
                throw ApplyIssue.changedDuringSync
            }
            try moveToTrash(move.from, on: side, expected: move.item)
            rekey(move)
            return
        }
        try context.directories(side).moveItem(at: url, to: newURL, replacingExisting: false)
        // A version saved between the look above and the rename gets its name back.
        let moved = try context.currentMetadata(newURL, on: side)
        guard let moved, moved.kind == move.item.kind,
            moved.stamp == move.item.stamp
                || (moved.kind == .file && moved.contentTag != 0 && moved.contentTag == move.item.contentTag
                    && moved.size == move.item.size)
        else {
            try? context.directories(side).moveItem(at: newURL, to: url, replacingExisting: false)
            throw ApplyIssue.changedDuringSync
        }
        rekey(move)
    }

    /// Moves the archive's entries to the new path (the plan's entries at and under it carry
    /// the old path's), and reports the move.
    private mutating func rekey(_ move: PlannedMove) {
        release(move)
        settle(move)
    }

    /// Drops the archive's entries at and under a move's old path: those the plan carried to the
    /// new path, and any others recorded there. None is left at the old path, for a sync that
    /// lists only changed folders to trust.
    ///
    /// The others of a folder's move go with its items to the new path: those of a folder inside
    /// it that a later move of the plan takes out (`a`→`x` then `x/b`→`y`: the entries of `a/b`
    /// are `x/b`'s until the later move takes them on as `y`'s). A run stopped between the two
    /// moves, or whose later move failed, so leaves `x/b` recorded as it is on both sides, and
    /// the next run sees that move rather than a new `y` and a new `x/b` to copy both ways.
    private mutating func release(_ move: PlannedMove) {
        let folder = move.item.kind == .directory
        for entry in plan.entries(atOrUnder: move.to) where entry.archived != nil {
            setEntry(nil, at: move.from.appendingRelative(entry.path, under: move.to), rulesMoveWithFolder: folder)
        }
        guard folder else { return }
        let below =
            archive.entries.tablePaths(below: move.from)
            + moveState.relocated.filter { $0.isDescendant(of: move.from) }
        for path in below {
            guard let entry = archive.entries[path] else { continue }
            setEntry(nil, at: path, rulesMoveWithFolder: true)
            let moved = move.to.appendingRelative(path, under: move.from)
            setEntry(entry, at: moved, rulesMoveWithFolder: true)
            moveState.relocated.append(moved)
        }
    }

    /// Records the archive's entries at and under a move's new path, and reports the move.
    private mutating func settle(_ move: PlannedMove) {
        for entry in plan.entries(atOrUnder: move.to) {
            guard let archived = entry.archived else { continue }
            setEntry(archived, at: entry.path, rulesMoveWithFolder: move.item.kind == .directory)
        }
        report.moves.append(SyncReport.Move(from: move.from.rawValue, to: move.to.rawValue, madeOn: move.madeOn))
    }
}

extension SyncPlan {
    /// The entries at and under `path`, which follow one another in ``SyncPath`` order.
    func entries(atOrUnder path: SyncPath) -> ArraySlice<Entry> {
        var low = entries.startIndex
        var high = entries.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].path < path { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < entries.endIndex, entries[end].path == path || entries[end].path.isDescendant(of: path) { end += 1 }
        return entries[low..<end]
    }
}

extension SyncPath {
    /// `descendant`'s path moved from under `folder` to under this path (this path itself for
    /// `folder`).
    func appendingRelative(_ descendant: SyncPath, under folder: SyncPath) -> SyncPath {
        descendant == folder ? self : SyncPath(rawValue + descendant.rawValue.dropFirst(folder.rawValue.count))
    }
}
