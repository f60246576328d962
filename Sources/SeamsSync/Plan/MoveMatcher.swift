import SeamsCore

/// A file or folder the user renamed or moved on one side, to be moved the same way on the other
/// side (``madeOn``) instead of deleted there and copied again.
struct PlannedMove: Hashable, Sendable {
    /// How a move is made: at once, or (in a cycle, `a`→`b` while `b`→`a`) in two steps through
    /// the run's trash, the others of the cycle made in between.
    enum Step: Hashable, Sendable {
        /// The item is renamed to its new path.
        case whole
        /// The item goes to the run's trash under its old path, out of the way of the cycle.
        case out
        /// The item comes back from the trash to its new path.
        case back
    }

    /// The side the move is made on; the user made it on the other.
    let madeOn: Side
    /// The item's path there before the move (after the plan's earlier moves).
    let from: SyncPath
    /// Its new path.
    let to: SyncPath
    /// The item there as scanned, checked again just before the move.
    let item: FileMetadata
    /// Whether the item is at the new path already, under both names (a run stopped between
    /// making the move's arrival durable and its leaving, or on S3 between a move's copy and its
    /// delete): the old name goes to the trash.
    var arrived = false
    /// The step this entry makes.
    var step = Step.whole
    /// The file or link at the new path that the move replaces (the user moved an item over
    /// it): it goes to the trash first.
    var replacing: FileMetadata?
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
/// A path whose item was replaced by another one (a new inode there, the other side unchanged)
/// counts as gone for the old item and new for the new one, so moves that meet form chains
/// (`a`→`b` while `b`→`c`: `b`→`c` is made first), cycles (`a`↔`b`: one item waits in the
/// run's trash while the others move), and a move over an item the user replaced (that file goes
/// to the trash first). Replacements are known by inodes only: a server file's tag changes
/// with every edit.
///
/// The rows of all paths of a chain or cycle become the rows of the new paths: the moving side's
/// items where they are, and the other side's items and the archive's entries from the old
/// paths, decided again. So an edit on the other side, a file deleted or added in the moved
/// folder, or a file moved and changed, is decided at the new path as it would have been at the
/// old one, and nothing is lost; a pair the matcher is wrong about (an inode reused by another
/// folder) ends as the delete and copy it would otherwise have been. Case-only renames are not
/// matched.
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

    /// A move found: the user moved `from` to `to` on `side`.
    private struct Pair: Equatable {
        let side: Side
        let from: SyncPath
        let to: SyncPath
    }

    /// The archive the rows were made against, for the kind of a folder found unchanged.
    let archive: Archive
    /// Whether the container dates a file anew when it is copied or renamed (S3, where a
    /// rename is a copy): there a file is the one recorded when its content tag and size are,
    /// whatever its date.
    var containerDatedByServer = false

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
            for (group, isCycle) in Self.groups(pairs) {
                let paths = group.flatMap { [$0.from, $0.to] }
                guard !paths.contains(where: { path in taken.contains { path == $0 || path.isDescendant(of: $0) } }),
                    !paths.contains(where: { path in paths.contains { path.isDescendant(of: $0) } })
                else { continue }
                let side = group[0].side
                var other = side == .local ? container : local
                // The indices of this round are stale once a group is merged: look again.
                guard let planned = plannedMoves(rows, group, isCycle: isCycle, other: other) else { continue }
                taken += paths
                mergeRows(&rows, group, side: side, other: &other, decide: decide)
                if side == .local { container = other } else { local = other }
                moves += planned
                merged = true
            }
            guard merged else { break }
        }
        return moves
    }

    /// The pairs of `pairs` that meet (one's new path the next one's old path), as chains in the
    /// user's order (`a`→`b`, `b`→`c`) and cycles; a pair alone is a chain of one. Outermost
    /// first.
    private static func groups(_ pairs: [Pair]) -> [(pairs: [Pair], isCycle: Bool)] {
        var byFrom: [SyncPath: Int] = [:]
        var byTo: [SyncPath: Int] = [:]
        var clash: Set<SyncPath> = []
        for (index, pair) in pairs.enumerated() {
            if byFrom.updateValue(index, forKey: pair.from) != nil { clash.insert(pair.from) }
            if byTo.updateValue(index, forKey: pair.to) != nil { clash.insert(pair.to) }
        }
        var seen = Set<Int>()
        var groups: [(pairs: [Pair], isCycle: Bool)] = []
        func follow(_ first: Int) -> (indices: [Int], isCycle: Bool) {
            var indices = [first]
            var current = first
            while let next = byFrom[pairs[current].to] {
                if next == first { return (indices, true) }
                guard !indices.contains(next) else { break }
                indices.append(next)
                current = next
            }
            return (indices, false)
        }
        // Chains from their first pair (none ends where it starts), then what is left: cycles.
        for index in pairs.indices where byTo[pairs[index].from] == nil {
            let (indices, _) = follow(index)
            seen.formUnion(indices)
            groups.append((indices.map { pairs[$0] }, false))
        }
        for index in pairs.indices where !seen.contains(index) {
            let (indices, isCycle) = follow(index)
            seen.formUnion(indices)
            if isCycle { groups.append((indices.map { pairs[$0] }, true)) }
        }
        // A group whose paths another pair also names (two sides' moves meeting) is left out.
        groups.removeAll { group in
            group.pairs.contains { clash.contains($0.from) || clash.contains($0.to) || $0.side != group.pairs[0].side }
        }
        groups.sort { ($0.pairs.map(\.to).min() ?? SyncPath("")) < ($1.pairs.map(\.to).min() ?? SyncPath("")) }
        return groups
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
            } else if let l = row.local, let c = row.container, l.kind == c.kind, row.archived == nil,
                Self.isPlain(row.decision)
            {
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
                guard let archived = rows[index].archived, rows[index].local == nil, rows[index].container == nil else {
                    continue
                }
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

    /// The pairs of this round, outermost first.
    private func candidates(_ rows: [Reconciler.Row]) -> [Pair] {
        var gone: [Key: [Int]] = [:]
        var new: [Key: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            for side in Side.allCases {
                let mine = row.item(on: side)
                let theirs = row.item(on: side.other)
                let replaced = Self.isReplaced(row, on: side)
                if let archived = row.archived, let theirs, theirs.kind == archived.kind,
                    let identity = Self.identity(of: archived, on: side),
                    replaced || (mine == nil && { if case .propagate = row.decision { true } else { false } }())
                {
                    gone[Key(side: side, kind: archived.kind, identity: identity), default: []].append(index)
                }
                if let mine, let identity = Self.identity(of: mine, on: side),
                    replaced
                        || (row.archived == nil
                            && (theirs.map { mayHaveArrived($0, on: side.other) }
                                ?? (row.decision == .propagate(from: side))))
                {
                    new[Key(side: side, kind: mine.kind, identity: identity), default: []].append(index)
                }
            }
        }
        var pairs: [Pair] = []
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
            guard from != to, let archived = rows[g].archived, let item = rows[n].item(on: key.side),
                isSameItem(archived, item, on: key.side), !to.isDescendant(of: from), !from.isDescendant(of: to),
                from.rawValue.lowercased() != to.rawValue.lowercased()
            else { continue }
            // The other side has the new path too: only as the same file under both names, or
            // as the item the user replaced there.
            if rows[n].archived == nil, let arrived = rows[n].item(on: key.side.other),
                !isSameFile(arrived, as: rows[g].item(on: key.side.other), on: key.side.other)
            {
                continue
            }
            pairs.append(Pair(side: key.side, from: from, to: to))
        }
        pairs += folderPairsByContent(rows)
        // Outermost first: a folder's pair before pairs inside it.
        pairs.sort { $0.to < $1.to }
        return pairs
    }

    /// Folders renamed or moved where a folder has no identity (a server's collection, whose
    /// ETag changes with what it holds): a folder gone on a side and a folder new there that
    /// hold the same names, each file with the identity the archive recorded, are one move. Each
    /// such content is taken once on both sides; a folder whose files changed meanwhile is not
    /// paired (its files are, one by one).
    private func folderPairsByContent(_ rows: [Reconciler.Row]) -> [Pair] {
        var gone: [Side: [[String]: [SyncPath]]] = [:]
        var new: [Side: [[String]: [SyncPath]]] = [:]
        for (index, row) in rows.enumerated() {
            for side in Side.allCases {
                let mine = row.item(on: side)
                let theirs = row.item(on: side.other)
                if let archived = row.archived, archived.kind == .directory, mine == nil, theirs?.kind == .directory,
                    Self.identity(of: archived, on: side) == nil,
                    let content = content(rows, from: index, on: side, gone: true)
                {
                    gone[side, default: [:]][content, default: []].append(row.path)
                } else if let mine, mine.kind == .directory, row.archived == nil, theirs == nil,
                    row.decision == .propagate(from: side), Self.identity(of: mine, on: side) == nil,
                    let content = content(rows, from: index, on: side, gone: false)
                {
                    new[side, default: [:]][content, default: []].append(row.path)
                }
            }
        }
        var pairs: [Pair] = []
        for side in Side.allCases {
            for (content, from) in gone[side] ?? [:] where from.count == 1 {
                guard let to = new[side]?[content], to.count == 1,
                    from[0].rawValue.lowercased() != to[0].rawValue.lowercased(),
                    !to[0].isDescendant(of: from[0]), !from[0].isDescendant(of: to[0])
                else { continue }
                pairs.append(Pair(side: side, from: from[0], to: to[0]))
            }
        }
        return pairs
    }

    /// What the folder at `rows[index]` holds on `side`, as sorted lines of relative path and
    /// identity: as the archive recorded it (`gone`), or as found; `nil` when it holds nothing,
    /// or something without an identity or not of that shape (an item there on a gone folder's
    /// side, an archived item under a new one).
    private func content(_ rows: [Reconciler.Row], from index: Int, on side: Side, gone: Bool) -> [String]? {
        let folder = rows[index].path
        var lines: [String] = []
        var end = index + 1
        while end < rows.count, rows[end].path.isDescendant(of: folder) {
            let row = rows[end]
            end += 1
            let relative = String(row.path.rawValue.dropFirst(folder.rawValue.count))
            if gone {
                guard row.item(on: side) == nil else { return nil }
                guard let archived = row.archived else { continue }
                if archived.kind == .directory {
                    lines.append(relative + "/")
                } else {
                    guard let identity = Self.identity(of: archived, on: side) else { return nil }
                    lines.append(relative + "\u{0}" + String(describing: identity))
                }
            } else {
                guard row.archived == nil, let mine = row.item(on: side) else { return nil }
                if mine.kind == .directory {
                    lines.append(relative + "/")
                } else {
                    guard let identity = Self.identity(of: mine, on: side) else { return nil }
                    lines.append(relative + "\u{0}" + String(describing: identity))
                }
            }
        }
        return lines.contains { !$0.hasSuffix("/") } ? lines.sorted() : nil
    }

    /// Whether `item` is the item `archived` recorded on `side`: its identity and stamp, or on a
    /// container dated by the server its content tag and size.
    private func isSameItem(_ archived: Archive.Entry, _ item: FileMetadata, on side: Side) -> Bool {
        if archived.isSameItem(item, on: side) { return true }
        return containerDatedByServer && archived.matchesByTag(item, on: side)
    }

    /// Whether the user replaced the row's item on `side` by another one (the archive's inode
    /// there and the item's differ, both known), and the other side still has what the archive
    /// recorded: the path may be where one move left and another arrived.
    private static func isReplaced(_ row: Reconciler.Row, on side: Side) -> Bool {
        guard let archived = row.archived, let mine = row.item(on: side), let theirs = row.item(on: side.other),
            archived.kind != .other, mine.kind != .other, theirs.kind == archived.kind
        else { return false }
        let recorded = archived.identity(on: side)
        guard recorded != 0, mine.fileIdentifier != 0, mine.fileIdentifier != recorded,
            side == .local || mine.contentTag == 0
        else { return false }
        return archived.kind == .directory || archived.matches(theirs, on: side.other)
    }

    /// What `archived` knows its item by on `side`.
    private static func identity(of archived: Archive.Entry, on side: Side) -> Identity? {
        guard archived.kind != .other else { return nil }
        let id = archived.identity(on: side)
        if id != 0 { return .id(id) }
        if side == .container, archived.kind != .directory, archived.containerTag != 0 {
            return .tag(archived.containerTag)
        }
        return nil
    }

    /// Whether `item`, found on `side` at a path new on both sides, may be a move this tool made
    /// there whose old name a stopped run left (the same file under two names): a file or link
    /// on a side that keeps real identities (not a WebDAV server's ETag, which two files of one
    /// size and date can share), or a file in a container dated by the server (S3, whose move is
    /// a copy and a delete: a run cut between them leaves the copy, of the same ETag, an ETag
    /// two objects share only for the same bytes).
    private func mayHaveArrived(_ item: FileMetadata, on side: Side) -> Bool {
        guard item.kind != .directory, item.kind != .other else { return false }
        if item.contentTag == 0 { return item.fileIdentifier != 0 }
        return side == .container && containerDatedByServer && item.kind == .file
    }

    /// Whether `arrived`, at a move's new path on `side`, is the file `left` at its old path there:
    /// the same item, or in a container dated by the server, the same version by the server's
    /// word (``ApplyContext/sameItem(_:_:)``: ETag and size, whatever the date; the copy a cut
    /// move made, dated anew).
    private func isSameFile(_ arrived: FileMetadata, as left: FileMetadata?, on side: Side) -> Bool {
        guard let left else { return false }
        return arrived == left
            || (side == .container && containerDatedByServer && arrived.kind == .file
                && ApplyContext.sameItem(arrived, left))
    }

    /// What a scanned item is known by on `side` (as ``Archive/Entry/init(synced:_:kind:)`` records it).
    private static func identity(of item: FileMetadata, on side: Side) -> Identity? {
        guard item.kind != .other else { return nil }
        if side == .container, item.contentTag != 0 {
            return item.kind == .directory ? nil : .tag(Archive.Entry.tag(item))
        }
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

    /// The moves that carry out `group` on the other side, in order, or `nil` when it cannot be
    /// taken: everything at and under its paths must be plain copies and deletions, with nothing
    /// on the other side that a move would carry along unseen (an unreadable folder, ignored
    /// items, the tool's own or reserved names), and each new path's folder there or made by
    /// this run.
    ///
    /// A chain is made from its end (`b`→`c` before `a`→`b`, each name free when it is taken);
    /// a cycle sends its first item to the trash, makes the others from the end, and brings the
    /// first back to its new path.
    private func plannedMoves(_ rows: [Reconciler.Row], _ group: [Pair], isCycle: Bool, other: Snapshot)
        -> [PlannedMove]?
    {
        let side = group[0].side
        let leaving = Set(group.map(\.from))
        var moves: [PlannedMove] = []
        for pair in group {
            guard let goneRange = subtree(rows, at: pair.from), let newRange = subtree(rows, at: pair.to) else {
                return nil
            }
            let gone = rows[goneRange.lowerBound]
            let new = rows[newRange.lowerBound]
            guard let item = gone.item(on: side.other) else { return nil }
            let replacedFrom = gone.item(on: side) != nil
            let replacedTo = new.archived != nil
            // What leaves: all of it gone on the moving side, or (replaced there) decided anew.
            for index in goneRange {
                if replacedFrom {
                    guard Self.isPlain(rows[index].decision) else { return nil }
                } else {
                    guard case .propagate = rows[index].decision, rows[index].item(on: side) == nil else { return nil }
                }
            }
            var move = PlannedMove(madeOn: side.other, from: pair.from, to: pair.to, item: item)
            if replacedTo {
                for index in newRange {
                    guard Self.isPlain(rows[index].decision) else { return nil }
                }
                if !leaving.contains(pair.to) {
                    // The item the user replaced by this move: a file or link, to the trash first.
                    guard let replaced = new.item(on: side.other), replaced.kind != .directory, newRange.count == 1
                    else { return nil }
                    move.replacing = replaced
                }
            } else {
                move.arrived = newRange.count == 1 && new.item(on: side.other) != nil
                for index in newRange where !move.arrived {
                    guard rows[index].decision == .propagate(from: side), rows[index].item(on: side.other) == nil,
                        rows[index].archived == nil
                    else { return nil }
                }
            }
            for path in [pair.from] + (move.replacing == nil ? [] : [pair.to]) where Self.hides(path, other) {
                return nil
            }
            guard parentIsReady(of: pair.to, rows, side: side, other: other) else { return nil }
            moves.append(move)
        }
        guard isCycle else { return moves.reversed() }
        guard moves.count > 1, !moves.contains(where: { $0.arrived || $0.replacing != nil }) else { return nil }
        var out = moves[0]
        out.step = .out
        var back = moves[0]
        back.step = .back
        return [out] + Array(moves[1...].reversed()) + [back]
    }

    /// Whether the other side has items at or under `path` the scan did not decide: an
    /// unreadable folder, ignored items, the tool's own or reserved names.
    private static func hides(_ path: SyncPath, _ other: Snapshot) -> Bool {
        func inside(_ found: SyncPath) -> Bool { found == path || found.isDescendant(of: path) }
        return other.unreadableFolders.keys.contains(where: inside) || other.ignored.contains(where: inside)
            || other.reserved.contains(where: inside) || other.leftovers.contains(where: inside)
    }

    /// Whether the folder `to` moves into is a folder on the other side, or one new on the
    /// moving side that the applier makes there before the move.
    private func parentIsReady(of to: SyncPath, _ rows: [Reconciler.Row], side: Side, other: Snapshot) -> Bool {
        guard let parent = to.parent else { return true }
        if let item = other.items[parent] { return item.kind == .directory }
        if other.unchanged.contains(parent) { return archive.entries[parent]?.kind == .directory }
        guard let row = rows.last(where: { $0.path == parent }) else { return false }
        return row.decision == .propagate(from: side) && row.item(on: side)?.kind == .directory
            && row.item(on: side.other) == nil
    }

    /// Replaces the rows at and under the paths of `group` by their rows after the moves: the
    /// moving side's items where they are, the other side's and the archive's moved along each
    /// pair (an item a move replaces dropped: it goes to the trash); moves the other side's items
    /// in its snapshot; keeps `rows` in order.
    private func mergeRows(
        _ rows: inout [Reconciler.Row], _ group: [Pair], side: Side, other: inout Snapshot,
        decide: (Reconciler.Row) -> Decision
    ) {
        let destination = Dictionary(uniqueKeysWithValues: group.map { ($0.from, $0.to) })
        let paths = Set(group.flatMap { [$0.from, $0.to] })
        var affected = Set<Int>()
        for path in paths {
            if let range = subtree(rows, at: path) { affected.formUnion(range) }
        }
        var byPath: [SyncPath: Reconciler.Row] = [:]
        var arriving: [SyncPath: FileMetadata] = [:]
        func row(at path: SyncPath) -> Reconciler.Row {
            byPath[path] ?? Reconciler.Row(path: path, local: nil, container: nil, decision: .nothing)
        }
        for index in affected {
            let old = rows[index]
            guard let top = paths.first(where: { old.path == $0 || old.path.isDescendant(of: $0) }) else { continue }
            if let mine = old.item(on: side) {
                var merged = row(at: old.path)
                if side == .local { merged.local = mine } else { merged.container = mine }
                byPath[old.path] = merged
            }
            let theirs = old.item(on: side.other)
            if theirs != nil { other.items[old.path] = nil }
            // The other side's item and the archive's entry follow the pair; where none leaves
            // (an item a move replaces), they are dropped.
            guard let to = destination[top], theirs != nil || old.archived != nil else { continue }
            let path = to.appendingRelative(old.path, under: top)
            var merged = row(at: path)
            if side == .local { merged.container = theirs } else { merged.local = theirs }
            merged.archived = old.archived
            byPath[path] = merged
            if let theirs { arriving[path] = theirs }
        }
        for (path, item) in arriving { other.items[path] = item }
        var kept = rows.indices.filter { !affected.contains($0) }.map { rows[$0] }
        for var row in byPath.values {
            row.decision = decide(row)
            kept.append(row)
        }
        kept.sort { $0.path < $1.path }
        rows = kept
    }
}
