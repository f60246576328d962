import SeamsCore

/// A file or folder the user renamed or moved on one side, to be moved the same way on the other
/// side (``madeOn``) instead of deleted there and copied again.
struct PlannedMove: Hashable, Sendable {
    /// The side the move is made on; the user made it on the other.
    let madeOn: Side
    /// The item's path there before the move (after the plan's earlier moves).
    let from: SyncPath
    /// Its new path.
    let to: SyncPath
    /// The item there as scanned, checked again just before the move.
    let item: FileMetadata
    /// Whether the item is at the new path already, under both names (a run stopped between
    /// making the move's arrival durable and its leaving): the old name goes to the trash.
    var arrived = false
}

/// Finds renames and moves in a plan's rows, pure: a path gone on one side whose item the
/// archive recorded there, and a new path on that side holding the same item (the same kind and
/// identity, and for a file or link the same size and date) become one move on the other side.
///
/// Identity is the inode (``FileMetadata/fileIdentifier``) on a file system, and a server file's
/// content tag (its ETag, which a `MOVE` keeps). A pair is taken only when its identity is found
/// once among the gone paths and once among the new ones (or, among items it does not tell apart,
/// with the only such name on both sides), and everything at and under both paths is a plain copy
/// or deletion (nothing skipped, unreadable, ignored or the tool's own there).
///
/// The rows of both paths become the rows of the new path: the moving side's items there, and the
/// other side's items and the archive's entries from the old path, decided again. So an edit on
/// the other side, a file deleted or added in the moved folder, or a file moved and changed, is
/// decided at the new path as it would have been at the old one, and nothing is lost; a pair the
/// matcher is wrong about (an inode reused by another folder) ends as the delete and copy it would
/// otherwise have been. Chains and swaps (`a`→`b`, `b`→`c`) and case-only renames are not matched:
/// they sync as deletions and copies, with the old versions in the trash.
struct MoveMatcher {
    /// What a row's item is known by.
    private enum Identity: Hashable {
        case id(UInt64)
        case tag(UInt32)
    }

    private struct Key: Hashable {
        let side: Side
        let kind: FileMetadata.Kind
        let identity: Identity
    }

    /// The archive the rows were made against, for the kind of a folder found unchanged.
    let archive: Archive

    /// Finds the moves in `rows` (in ``SyncPath`` order), merges each pair's rows into the new
    /// path's, moves the other side's items in its snapshot, and returns the moves in the order
    /// they are made (a folder before what moves inside it afterwards).
    ///
    /// - Parameters:
    ///   - rows: The plan's rows, decided; changed in place and left in ``SyncPath`` order.
    ///   - local: The local scan.
    ///   - container: The container scan.
    ///   - decide: Decides a merged row.
    /// - Returns: The moves.
    func match(
        _ rows: inout [Reconciler.Row], local: inout Snapshot, container: inout Snapshot,
        decide: (Reconciler.Row) -> Decision
    ) -> [PlannedMove] {
        settleMovesMade(&rows, decide: decide)
        var moves: [PlannedMove] = []
        // Each round takes the outermost pairs; a move inside a moved folder is found in the
        // next, against the rows the first one merged.
        for _ in 0..<64 {
            let pairs = candidates(rows)
            guard !pairs.isEmpty else { break }
            var taken: [SyncPath] = []
            var merged = false
            for (side, from, to) in pairs {
                guard !taken.contains(where: { from == $0 || to == $0 || from.isDescendant(of: $0) || to.isDescendant(of: $0) })
                else { continue }
                // The indices of this round are stale once a pair is merged: find the rows again.
                guard let goneRange = subtree(rows, at: from), let newRange = subtree(rows, at: to) else { continue }
                var other = side == .local ? container : local
                guard isPlain(rows, goneRange, newRange, side: side, other: other, from: from) else { continue }
                guard let item = rows[goneRange.lowerBound].item(on: side.other) else { continue }
                let arrived = rows[newRange.lowerBound].item(on: side.other) != nil
                taken += [from, to]
                mergeRows(&rows, goneRange, newRange, side: side, from: from, to: to, other: &other, decide: decide)
                if side == .local { container = other } else { local = other }
                moves.append(PlannedMove(madeOn: side.other, from: from, to: to, item: item, arrived: arrived))
                merged = true
            }
            guard merged else { break }
        }
        return moves
    }

    /// Gives the archive's entries of a path gone from both sides to the new path that holds the
    /// same item on both: a move this tool made on one side (or the user made on both) whose run
    /// stopped before it recorded it. The new path is then decided as the move's run would have
    /// decided it (an edit on one side is copied, not kept as a conflict); the old path's rows
    /// stay, and drop its entries.
    private func settleMovesMade(_ rows: inout [Reconciler.Row], decide: (Reconciler.Row) -> Decision) {
        var gone: [Key: [Int]] = [:]
        var new: [Key: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            if row.local == nil, row.container == nil, let archived = row.archived, row.decision == .nothing {
                for side in Side.allCases {
                    guard let identity = Self.identity(of: archived, on: side) else { continue }
                    gone[Key(side: side, kind: archived.kind, identity: identity), default: []].append(index)
                }
            } else if let l = row.local, let c = row.container, l.kind == c.kind, row.archived == nil, Self.isPlain(row.decision) {
                for side in Side.allCases {
                    let item = side == .local ? l : c
                    guard let identity = Self.identity(of: item, on: side) else { continue }
                    new[Key(side: side, kind: item.kind, identity: identity), default: []].append(index)
                }
            }
        }
        var pairs: Set<[SyncPath]> = []
        for (key, goneRows) in gone where goneRows.count == 1 {
            guard let newRows = new[key], newRows.count == 1, let archived = rows[goneRows[0]].archived,
                  let item = rows[newRows[0]].item(on: key.side), archived.isSameItem(item, on: key.side)
            else { continue }
            let (from, to) = (rows[goneRows[0]].path, rows[newRows[0]].path)
            guard from.rawValue.lowercased() != to.rawValue.lowercased() else { continue }
            pairs.insert([from, to])
        }
        var settled: [SyncPath] = []
        for pair in pairs.sorted(by: { $0[1] < $1[1] }) {
            let (from, to) = (pair[0], pair[1])
            guard !settled.contains(where: { to == $0 || to.isDescendant(of: $0) || from.isDescendant(of: $0) }),
                  let goneRange = subtree(rows, at: from)
            else { continue }
            settled.append(to)
            for index in goneRange {
                guard let archived = rows[index].archived, rows[index].local == nil, rows[index].container == nil else { continue }
                let path = to.appendingRelative(rows[index].path, under: from)
                guard let target = subtree(rows, at: path)?.lowerBound, rows[target].archived == nil,
                      Self.isPlain(rows[target].decision)
                else { continue }
                rows[target].archived = archived
                rows[target].decision = decide(rows[target])
            }
        }
    }

    /// Whether a decision is one the rules made from the items (not a skip or a case left for the user).
    private static func isPlain(_ decision: Decision) -> Bool {
        switch decision {
        case .skip, .unresolved: false
        default: true
        }
    }

    /// The pairs of this round: (the side the user moved on, the old path, the new path),
    /// outermost first.
    private func candidates(_ rows: [Reconciler.Row]) -> [(Side, SyncPath, SyncPath)] {
        var gone: [Key: [Int]] = [:]
        var new: [Key: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            for side in Side.allCases {
                let mine = row.item(on: side)
                let theirs = row.item(on: side.other)
                if case .propagate = row.decision, mine == nil, let archived = row.archived, let theirs, theirs.kind == archived.kind,
                   let identity = Self.identity(of: archived, on: side) {
                    gone[Key(side: side, kind: archived.kind, identity: identity), default: []].append(index)
                } else if let mine, row.archived == nil, let identity = Self.identity(of: mine, on: side),
                          theirs.map({ Self.mayHaveArrived($0, on: side.other) }) ?? (row.decision == .propagate(from: side)) {
                    new[Key(side: side, kind: mine.kind, identity: identity), default: []].append(index)
                }
            }
        }
        var pairs: [(Side, SyncPath, SyncPath)] = []
        var found: [(Key, Int, Int)] = []
        for (key, goneRows) in gone {
            guard let newRows = new[key] else { continue }
            if goneRows.count == 1, newRows.count == 1 {
                found.append((key, goneRows[0], newRows[0]))
                continue
            }
            // Items the identity does not tell apart (a server's ETag made of size and date, the
            // same for two files saved together): those whose names are the only ones on both
            // sides, as in a folder moved with its files.
            let goneByName = Dictionary(grouping: goneRows) { rows[$0].path.name }
            let newByName = Dictionary(grouping: newRows) { rows[$0].path.name }
            for (name, g) in goneByName where g.count == 1 {
                if let n = newByName[name], n.count == 1 { found.append((key, g[0], n[0])) }
            }
        }
        for (key, g, n) in found {
            let (from, to) = (rows[g].path, rows[n].path)
            guard let archived = rows[g].archived, let item = rows[n].item(on: key.side), archived.isSameItem(item, on: key.side),
                  !to.isDescendant(of: from), !from.isDescendant(of: to),
                  from.rawValue.lowercased() != to.rawValue.lowercased()
            else { continue }
            // The other side has the new path too: only as the same file under both names.
            if let arrived = rows[n].item(on: key.side.other), arrived != rows[g].item(on: key.side.other) { continue }
            pairs.append((key.side, from, to))
        }
        // Outermost first: a folder's pair before pairs inside it.
        pairs.sort { $0.2 < $1.2 }
        return pairs
    }

    /// What `archived` knows its item by on `side`.
    private static func identity(of archived: Archive.Entry, on side: Side) -> Identity? {
        guard archived.kind != .other else { return nil }
        let id = archived.identity(on: side)
        if id != 0 { return .id(id) }
        if side == .container, archived.kind != .directory, archived.containerTag != 0 { return .tag(archived.containerTag) }
        return nil
    }

    /// Whether `item`, found on `side` at a path new on both sides, may be a move this tool made
    /// there whose old name a stopped run left (the same file under two names): a file or link
    /// on a side that keeps real identities (not a server's ETag, which two files can share).
    private static func mayHaveArrived(_ item: FileMetadata, on side: Side) -> Bool {
        item.kind != .directory && item.kind != .other && item.contentTag == 0 && item.fileIdentifier != 0
    }

    /// What a scanned item is known by on `side` (as ``Archive/Entry/init(synced:_:kind:)`` records it).
    private static func identity(of item: FileMetadata, on side: Side) -> Identity? {
        guard item.kind != .other else { return nil }
        if side == .container, item.contentTag != 0 { return item.kind == .directory ? nil : .tag(Archive.Entry.tag(item)) }
        return item.fileIdentifier != 0 ? .id(item.fileIdentifier) : nil
    }

    /// The rows at and under `path`: contiguous in ``SyncPath`` order.
    private func subtree(_ rows: [Reconciler.Row], at path: SyncPath) -> Range<Int>? {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].path < path { low = middle + 1 } else { high = middle }
        }
        guard low < rows.count, rows[low].path == path else { return nil }
        var end = low + 1
        while end < rows.count, rows[end].path.isDescendant(of: path) { end += 1 }
        return low..<end
    }

    /// Whether a pair's rows are all plain copies and deletions, with nothing under the old path
    /// on the other side that the move would carry along unseen (an unreadable folder, ignored
    /// items, the tool's own or reserved names), and the new path's folder there or made by this
    /// run.
    private func isPlain(
        _ rows: [Reconciler.Row], _ gone: Range<Int>, _ new: Range<Int>, side: Side, other: Snapshot, from: SyncPath
    ) -> Bool {
        for index in gone {
            guard case .propagate = rows[index].decision, rows[index].item(on: side) == nil else { return false }
        }
        let arrived = new.count == 1 && rows[new.lowerBound].item(on: side.other) != nil
        for index in new where !arrived {
            guard rows[index].decision == .propagate(from: side), rows[index].item(on: side.other) == nil,
                  rows[index].archived == nil
            else { return false }
        }
        func inside(_ path: SyncPath) -> Bool { path == from || path.isDescendant(of: from) }
        if other.unreadableFolders.keys.contains(where: inside) || other.ignored.contains(where: inside)
            || other.reserved.contains(where: inside) || other.leftovers.contains(where: inside) {
            return false
        }
        let to = rows[new.lowerBound].path
        guard let parent = to.parent else { return true }
        if let item = other.items[parent] { return item.kind == .directory }
        if other.unchanged.contains(parent) { return archive.entries[parent]?.kind == .directory }
        // A folder new on the moving side: the applier makes it before the move.
        guard let row = rows.last(where: { $0.path == parent }) else { return false }
        return row.decision == .propagate(from: side) && row.item(on: side)?.kind == .directory && row.item(on: side.other) == nil
    }

    /// Replaces the rows of `from` and `to` by the rows of `to`: the moving side's items from the
    /// new path, the other side's and the archive's from the old one; moves the other side's
    /// items in its snapshot; keeps `rows` in order.
    private func mergeRows(
        _ rows: inout [Reconciler.Row], _ gone: Range<Int>, _ new: Range<Int>, side: Side, from: SyncPath, to: SyncPath,
        other: inout Snapshot, decide: (Reconciler.Row) -> Decision
    ) {
        var byPath: [SyncPath: Reconciler.Row] = [:]
        for index in gone {
            let row = rows[index]
            let path = to.appendingRelative(row.path, under: from)
            let theirs = row.item(on: side.other)
            if let theirs {
                other.items[row.path] = nil
                other.items[path] = theirs
            }
            byPath[path] = Reconciler.Row(
                path: path, local: side == .local ? nil : theirs, container: side == .local ? theirs : nil,
                archived: row.archived, decision: .nothing)
        }
        for index in new {
            let row = rows[index]
            let mine = row.item(on: side)
            var merged = byPath[row.path] ?? Reconciler.Row(path: row.path, local: nil, container: nil, decision: .nothing)
            if side == .local { merged.local = mine } else { merged.container = mine }
            byPath[row.path] = merged
        }
        var kept = rows.indices.filter { !gone.contains($0) && !new.contains($0) }.map { rows[$0] }
        for var row in byPath.values {
            row.decision = decide(row)
            kept.append(row)
        }
        kept.sort { $0.path < $1.path }
        rows = kept
    }
}
