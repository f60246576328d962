import Foundation
import SeamsCore

/// The decision rules: from the archive and the two scans to one ``Decision`` per path. Pure:
/// no I/O, so every rule is tested with plain values.
///
/// - Changed on one side only: propagate. Same change on both: nothing (files of equal size are
///   compared by content). Different changes: a conflict that keeps both.
/// - Deleted on one side, unchanged on the other: delete (into the trash). Deleted on one side,
///   changed on the other: keep the changed one.
/// - A file on one side and a folder on the other, both changed: the folder keeps the name.
/// - A symbolic link is an item like a file whose content is its target text: copied as a link,
///   never followed. A link that appears where a folder was (or faces one) is left for the user,
///   and nothing under it counts as deleted.
/// - A folder deleted on one side that still holds something kept on the other is restored.
/// - A file or folder renamed or moved on one side is moved the same way on the other
///   (``MoveMatcher``), and what the two paths hold is decided at the new path.
struct Reconciler: Sendable {
    /// Whether the container dates a file anew when it is copied or renamed (``MoveMatcher``).
    var containerDatedByServer = false

    /// Creates a reconciler.
    ///
    /// - Parameter containerDatedByServer: Whether the container dates a copied or renamed file
    ///   anew (S3), so a move there is known by content tag and size.
    init(containerDatedByServer: Bool = false) {
        self.containerDatedByServer = containerDatedByServer
    }

    /// Decides every path.
    ///
    /// - Parameters:
    ///   - archive: The state of the last successful sync.
    ///   - local: The local scan.
    ///   - container: The container scan.
    /// - Returns: One decision per path that exists anywhere and is not in sync on both sides, in
    ///   ``SyncPath`` order (parents first); the paths in sync are counted in ``SyncPlan/inSync``.
    func plan(archive: Archive, local: Snapshot, container: Snapshot) -> SyncPlan {
        var (rows, inSync) = Self.rows(archive: archive, local: local, container: container)
        let hasUnknown = !local.unreadableFolders.isEmpty || !container.unreadableFolders.isEmpty
        var opaque = Self.opaquePaths(local, container)
        let yielding = Self.yieldingLinks(rows, opaque)
        opaque.subtract(yielding)
        for index in rows.indices {
            let row = rows[index]
            if row.decision == Self.incomplete {
                continue  // never "deleted": nothing is known of it on the other side
            } else if hasUnknown, local.isUnknown(row.path) || container.isUnknown(row.path) {
                rows[index].decision = .skip("inside a folder that could not be read")
            } else if !opaque.isEmpty, Self.hasOpaqueAncestor(row.path, opaque) {
                // Under a link (or other special item) on one side: what the other side has there
                // is not "deleted" on this one. Left as it is; the link's own row reports it.
                rows[index].decision = .nothing
            } else if !yielding.isEmpty, Self.hasOpaqueAncestor(row.path, yielding) {
                // Under a link that gives way to the other side's folder in this run: what the
                // folder holds is copied, as new, into the folder that replaces the link. The
                // archive's memory of the path is not used: nothing here can read as deleted.
                rows[index].decision = decide(local: row.local, container: row.container, archived: nil)
            } else if let reason = Self.linkOverFolder(row) {
                rows[index].decision = .unresolved(reason)
            } else {
                rows[index].decision = decide(local: row.local, container: row.container, archived: row.archived)
            }
        }
        var (local, container) = (local, container)
        let moves = MoveMatcher(archive: archive, containerDatedByServer: containerDatedByServer).match(
            &rows, local: &local, container: &container
        ) { row in
            decide(local: row.local, container: row.container, archived: row.archived)
        }
        restoreNeededFolders(&rows)
        return SyncPlan(entries: rows, inSync: inSync, local: local, container: container, moves: moves)
    }

    /// Paths that hold a symbolic link or another special item on either side: nothing below
    /// them is read on that side, so nothing below them may count as deleted there.
    static func opaquePaths(_ local: Snapshot, _ container: Snapshot) -> Set<SyncPath> {
        var result = Set<SyncPath>()
        for snapshot in [local, container] {
            for (path, item) in snapshot.items where item.kind != .file && item.kind != .directory {
                result.insert(path)
            }
        }
        return result
    }

    /// Links the last sync recorded as links, unchanged since, that face a folder on the other
    /// side: the folder replaces them (``linkOverFolder(_:)`` lets them through).
    static func yieldingLinks(_ rows: [Row], _ opaque: Set<SyncPath>) -> Set<SyncPath> {
        guard !opaque.isEmpty else { return [] }
        var result = Set<SyncPath>()
        for row in rows where opaque.contains(row.path) {
            guard let archived = row.archived, archived.kind == .symbolicLink else { continue }
            for side in Side.allCases {
                let mine = side == .local ? row.local : row.container
                let theirs = side == .local ? row.container : row.local
                if let mine, mine.kind == .symbolicLink, archived.matches(mine, on: side), theirs?.kind == .directory {
                    result.insert(row.path)
                }
            }
        }
        return result
    }

    static func hasOpaqueAncestor(_ path: SyncPath, _ opaque: Set<SyncPath>) -> Bool {
        var current = path.parent
        while let candidate = current {
            if opaque.contains(candidate) { return true }
            current = candidate.parent
        }
        return false
    }

    /// Why a link (or special item) facing a folder is left for the user, if it does: a link that
    /// is new or changed where the last sync or the other side has a folder. A link the last sync
    /// recorded and nobody changed, facing a new folder on the other side, is not such a case: the
    /// folder replaces it (the link goes to the trash).
    static func linkOverFolder(_ row: Row) -> String? {
        for side in Side.allCases {
            let mine = side == .local ? row.local : row.container
            let theirs = side == .local ? row.container : row.local
            guard let mine, mine.kind != .file, mine.kind != .directory,
                theirs?.kind == .directory || row.archived?.kind == .directory
            else { continue }
            if mine.kind == .symbolicLink, let archived = row.archived, archived.kind == .symbolicLink,
                archived.matches(mine, on: side)
            {
                continue
            }
            let what = mine.kind == .symbolicLink ? "a symbolic link" : "a special file"
            return
                "\(what) on the \(side) side where the last sync or the \(side.other) side has a folder: both are left as "
                + "they are and nothing in the folder is deleted; replace the link by the folder, or remove one of them"
        }
        return nil
    }

    /// One path as the three sources know it: the plan's own entry, so the rows become the plan
    /// without a copy (each row is about 200 bytes; at 100,000 paths a copy is 19 MiB).
    typealias Row = SyncPlan.Entry

    /// Every path of the three sources that is not in sync on both sides, once, in ``SyncPath``
    /// order, and how many are: each source's items are looked up in the other two, and a path
    /// in sync (the same kind everywhere, both stamps as the archive recorded them) gets no row.
    /// In a tree of a million files where a hundred changed, the plan holds about a hundred rows,
    /// not a million (each row is about 200 bytes).
    ///
    /// The scans' ``Snapshot/unchanged`` paths count as in sync when both sides have them; one
    /// side's alone has no metadata to decide with, and ``Snapshot/complete(_:_:read:)``
    /// must have read it first (such a path gets one row, skipped, never taken as deleted).
    static func rows(archive: Archive, local: Snapshot, container: Snapshot) -> (rows: [Row], inSync: Int) {
        var rows: [Row] = []
        rows.reserveCapacity(local.items.count + container.items.count)  // most runs' rows: no growth to double
        var inSync = 0
        if usesBits(archive: archive, local: local, container: container) {
            archivedRowsFromBits(archive: archive, local: local, container: container, rows: &rows, inSync: &inSync)
        } else {
            for path in local.unchanged {
                if container.unchanged.contains(path) {
                    inSync += 1
                } else {
                    rows.append(
                        Row(
                            path: path, local: nil, container: nil, archived: archive.entries[path],
                            decision: incomplete))
                }
            }
            for path in container.unchanged where !local.unchanged.contains(path) {
                rows.append(
                    Row(path: path, local: nil, container: nil, archived: archive.entries[path], decision: incomplete))
            }
            for (path, entry) in archive.entries where !local.contains(path) && !container.contains(path) {
                rows.append(Row(path: path, local: nil, container: nil, archived: entry, decision: .nothing))
            }
        }
        for (path, item) in local.items where !container.unchanged.contains(path) {  // else its row is made above
            let other = container.items[path]
            let archived = archive.entries[path]
            if let other, let archived, isInSync(archived, local: item, container: other) {
                inSync += 1
                continue
            }
            rows.append(Row(path: path, local: item, container: other, archived: archived, decision: .nothing))
        }
        for (path, item) in container.items where !local.contains(path) {
            rows.append(
                Row(path: path, local: nil, container: item, archived: archive.entries[path], decision: .nothing))
        }
        var order = rows.indices.sorted { rows[$0].path < rows[$1].path }
        permute(&rows, by: &order)
        return (rows, inSync)
    }

    /// Whether both scans were compared with the archive's own table and the archive has the
    /// table's paths (its changes since only replace entries, as learned tags do): then the
    /// scans' unchanged paths are bits of its entries.
    static func usesBits(archive: Archive, local: Snapshot, container: Snapshot) -> Bool {
        let table = archive.entries.table
        return local.unchanged.isBits(of: table) && container.unchanged.isBits(of: table)
            && archive.entries.changesKeepPaths
    }

    /// The rows of the archive's paths that have no item on either side, and of those unchanged on
    /// one side only, from the bits (``usesBits(archive:local:container:)``): a path is in sync
    /// when both bits are set, and only the entries without both are visited, word by word, so a
    /// million unchanged paths cost a pass over 16,000 words, not a million lookups.
    private static func archivedRowsFromBits(
        archive: Archive, local: Snapshot, container: Snapshot, rows: inout [Row], inSync: inout Int
    ) {
        let table = archive.entries.table
        let l = local.unchanged
        let c = container.unchanged
        for word in 0..<(table.count + 63) / 64 { inSync += (l.word(word) & c.word(word)).nonzeroBitCount }
        let replaced = !archive.entries.changes.isEmpty
        table.forEach(where: { ~(l.word($0) & c.word($0)) }) { ordinal, bytes, entry in
            let path = SyncPath(String(decoding: bytes, as: UTF8.self))
            let archived = replaced ? archive.entries[path] : entry
            if l.isSet(ordinal) || c.isSet(ordinal) {
                rows.append(Row(path: path, local: nil, container: nil, archived: archived, decision: incomplete))
            } else if local.items[path] == nil, container.items[path] == nil {
                rows.append(Row(path: path, local: nil, container: nil, archived: archived, decision: .nothing))
            }
        }
    }

    /// The decision of a path one scan found unchanged and whose metadata was not read after.
    static let incomplete = Decision.skip("its metadata was not read after the scan")

    /// Whether a path needs nothing this run on any account: a file, folder or link of the same
    /// kind on both sides and in the archive, with both stamps as recorded.
    ///
    /// Such a path cannot lie inside an unreadable folder, a link or a special item (nothing is
    /// scanned there), and no rule changes its `.nothing`: the reconciler leaves it out.
    static func isInSync(_ archived: Archive.Entry, local: FileMetadata, container: FileMetadata) -> Bool {
        guard archived.kind == local.kind, archived.kind == container.kind else { return false }
        switch archived.kind {
        case .directory: return true
        case .file, .symbolicLink:
            return archived.matches(local, on: .local) && archived.matches(container, on: .container)
        case .other: return false
        }
    }

    /// Reorders `elements` so that position `i` holds what was at `order[i]`, with swaps along
    /// the permutation's cycles: no second array of elements. `order` is used up.
    static func permute<Element>(_ elements: inout [Element], by order: inout [Int]) {
        for start in order.indices {
            var current = start
            while order[current] != start {
                let next = order[current]
                elements.swapAt(current, next)  // `current` now holds what was at `next`
                order[current] = current
                current = next
            }
            order[current] = current
        }
    }

    func decide(local l: FileMetadata?, container c: FileMetadata?, archived: Archive.Entry?) -> Decision {
        for item in [l, c].compactMap({ $0 }) where item.kind == .other {
            return .skip(
                "not a regular file, folder or symbolic link (a socket, a device, or a name that is not UTF-8)")
        }
        let localChanged = changed(l, on: .local, archived)
        let containerChanged = changed(c, on: .container, archived)
        switch (localChanged, containerChanged) {
        case (false, false): return .nothing
        case (true, false): return .propagate(from: .local)
        case (false, true): return .propagate(from: .container)
        case (true, true): break
        }
        switch (l, c) {
        case (nil, nil): return .nothing
        case (nil, _?): return .propagate(from: .container)
        case (_?, nil): return .propagate(from: .local)
        case (let l?, let c?):
            if l.kind == .directory, c.kind == .directory { return .nothing }
            if l.kind == .directory { return .typeConflict(fileSide: .container) }
            if c.kind == .directory { return .typeConflict(fileSide: .local) }
            if l.size == c.size { return .compare }
            return .conflict(winner: Self.newer(local: l, container: c))
        }
    }

    /// The side whose version keeps the name: the newer; the local one on a tie.
    static func newer(local: FileMetadata, container: FileMetadata) -> Side {
        container.modificationDate > local.modificationDate ? .container : .local
    }

    /// Whether `item` differs from what the archive recorded for its side: its stamp, or on a
    /// container dated by the server its content tag and size (its date is the time of its
    /// last write, a copy's or a rename's included, and this run may have recorded its own
    /// clock's for a file it put there).
    private func changed(_ item: FileMetadata?, on side: Side, _ archived: Archive.Entry?) -> Bool {
        guard let item else { return archived != nil }
        guard let archived, archived.kind == item.kind else { return true }
        guard item.kind != .directory, !archived.matches(item, on: side) else { return false }
        return !(containerDatedByServer && archived.matchesByTag(item, on: side))
    }

    /// Walks deepest first: a folder that must stay (something kept inside it on a side) is not
    /// deleted or replaced by a file there.
    ///
    /// In ``SyncPath`` order everything inside a folder comes right after it, so "something is
    /// kept inside on this side" is a difference of two running counts, with no lookups.
    private func restoreNeededFolders(_ rows: inout [Row]) {
        let count = rows.count
        // end[i]: one past the last row inside rows[i].
        var end = [Int](repeating: count, count: count)
        var open: [Int] = []
        for index in 0..<count {
            while let top = open.last, !rows[index].path.isDescendant(of: rows[top].path) {
                end[top] = index
                open.removeLast()
            }
            open.append(index)
        }
        // kept[side][i]: how many rows from i on hold something on that side once carried out.
        var keptLocal = [Int](repeating: 0, count: count + 1)
        var keptContainer = [Int](repeating: 0, count: count + 1)
        for index in stride(from: count - 1, through: 0, by: -1) {
            let l = rows[index].local
            let c = rows[index].container
            var decision = rows[index].decision
            for side in Side.allCases {
                let kept = side == .local ? keptLocal : keptContainer
                guard kept[index + 1] > kept[end[index]] else { continue }
                guard Self.finalKind(decision, on: side, local: l, container: c) != .directory else { continue }
                let mine = side == .local ? l : c
                let theirs = side == .local ? c : l
                if mine?.kind == .directory {
                    decision = theirs == nil ? .propagate(from: side) : .typeConflict(fileSide: side.other)
                } else if theirs?.kind == .directory {
                    decision = mine == nil ? .propagate(from: side.other) : .typeConflict(fileSide: side)
                }
            }
            rows[index].decision = decision
            let keepsLocal = Self.finalKind(decision, on: .local, local: l, container: c) != nil
            let keepsContainer = Self.finalKind(decision, on: .container, local: l, container: c) != nil
            keptLocal[index] = keptLocal[index + 1] + (keepsLocal ? 1 : 0)
            keptContainer[index] = keptContainer[index + 1] + (keepsContainer ? 1 : 0)
        }
    }

    /// What `side` holds at a path once `decision` is carried out.
    static func finalKind(
        _ decision: Decision, on side: Side, local: FileMetadata?, container: FileMetadata?
    ) -> FileMetadata.Kind? {
        switch decision {
        case .nothing, .skip, .unresolved: (side == .local ? local : container)?.kind
        case .propagate(let from): (from == .local ? local : container)?.kind
        case .compare, .conflict: .file
        case .typeConflict: .directory
        }
    }
}
