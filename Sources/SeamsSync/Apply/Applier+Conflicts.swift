import Foundation
import SeamsCore

/// Conflicts an interrupted run already carried out in part.
struct ConflictState {
    /// Conflicts whose losing version an interrupted run already kept under its conflict name:
    /// the path, and that copy. The copy's own plan entry is settled by the conflict.
    var keptCopies: [SyncPath: SyncPath] = [:]
    /// Paths whose plan entry another entry carries out (``keptCopies``).
    var settled: Set<SyncPath> = []
}

extension Applier {
    /// Keeps both versions of a file changed on both sides: the loser is renamed to its conflict
    /// name on its own side (a rename, never a deletion), the winner is copied into the freed
    /// name, and the loser's copy goes to the winner's side under the conflict name.
    mutating func resolveConflict(_ path: SyncPath, winner: Side) throws {
        if let kept = conflictState.keptCopies[path] {
            try resolveConflict(path, winner: winner, keptAt: kept)
            return
        }
        let loser = winner.other
        let winnerItem = plan.snapshot(winner).items[path]!
        let loserItem = plan.snapshot(loser).items[path]!
        let copyPath = ConflictNamer().conflictPath(
            for: path, origin: loser, modified: loserItem.modificationDate, taken: isTaken)
        try rename(path, to: copyPath, on: loser, expected: loserItem)
        report.conflicts.append(.init(path: path.rawValue, copy: copyPath.rawValue))
        let winnerCopy = try copy(path, from: winner, item: winnerItem, to: path, expected: nil)
        record(path, kind: winnerItem.kind, source: winner, sourceItem: winnerItem, targetItem: winnerCopy)
        let loserCopy = try copy(copyPath, from: loser, item: loserItem, to: copyPath, expected: nil)
        record(copyPath, kind: loserItem.kind, source: loser, sourceItem: loserItem, targetItem: loserCopy)
    }

    /// A file on one side, a folder on the other: the folder keeps the name; the file is renamed
    /// to its conflict name and copied to the folder's side.
    mutating func resolveTypeConflict(_ path: SyncPath, fileSide: Side) throws {
        let fileItem = plan.snapshot(fileSide).items[path]!
        let copyPath = ConflictNamer().conflictPath(
            for: path, origin: fileSide, modified: fileItem.modificationDate, taken: isTaken)
        try rename(path, to: copyPath, on: fileSide, expected: fileItem)
        report.conflicts.append(.init(path: path.rawValue, copy: copyPath.rawValue))
        try makeFolder(path, on: fileSide)
        report.foldersCreated -= 1
        let zero = Stamp(size: 0, modified: 0)
        setEntry(Archive.Entry(kind: .directory, local: zero, container: zero), at: path)
        let copied = try copy(copyPath, from: fileSide, item: fileItem, to: copyPath, expected: nil)
        record(copyPath, kind: fileItem.kind, source: fileSide, sourceItem: fileItem, targetItem: copied)
    }

    /// Finds conflicts whose losing version is already kept under its first conflict name, on
    /// either side: an interrupted run made that copy, and without this the next run would make a
    /// second one (`…-local-2.txt`) of the same version.
    mutating func findKeptCopies() {
        for entry in plan.entries {
            let winner: Side
            switch entry.decision {
            case .conflict(let side):
                winner = side
            case .compare:
                guard let local = entry.local, let container = entry.container else { continue }
                winner = Reconciler.newer(local: local, container: container)
            default:
                continue
            }
            let loser = winner.other
            guard let loserItem = entry.item(on: loser), loserItem.kind == .file else { continue }
            let name = ConflictNamer().conflictPath(
                for: entry.path, origin: loser, modified: loserItem.modificationDate, taken: { _ in false })
            for side in Side.allCases {
                guard let existing = scannedItem(name, on: side), existing.kind == .file,
                    existing.size == loserItem.size,
                    (try? context.replicas.contentsEqual(
                        context.url(entry.path, on: loser), on: loser, context.url(name, on: side), on: side)) == true
                else { continue }
                conflictState.keptCopies[entry.path] = name
                conflictState.settled.insert(name)
                break
            }
        }
    }

    /// ``resolveConflict(_:winner:)`` when the losing version is already at `kept` on one side or
    /// both: it is completed there instead of copied to a new name.
    private mutating func resolveConflict(_ path: SyncPath, winner: Side, keptAt kept: SyncPath) throws {
        let loser = winner.other
        let winnerItem = plan.snapshot(winner).items[path]!
        let loserItem = plan.snapshot(loser).items[path]!
        let onLoser = scannedItem(kept, on: loser)
        let onWinner = scannedItem(kept, on: winner)
        if onLoser == nil {
            try rename(path, to: kept, on: loser, expected: loserItem)
        } else {
            try moveToTrash(path, on: loser, expected: loserItem)  // its bytes are at `kept` already
        }
        report.conflicts.append(.init(path: path.rawValue, copy: kept.rawValue))
        let winnerCopy = try copy(path, from: winner, item: winnerItem, to: path, expected: nil)
        record(path, source: winner, sourceItem: winnerItem, targetItem: winnerCopy)
        let source = onLoser ?? loserItem
        if let onWinner {
            record(kept, source: loser, sourceItem: source, targetItem: onWinner)
        } else {
            let copied = try copy(kept, from: loser, item: source, to: kept, expected: nil)
            record(kept, source: loser, sourceItem: source, targetItem: copied)
        }
    }

    /// Renames an item within one side after checking it is still what the scan saw.
    mutating func rename(_ path: SyncPath, to newPath: SyncPath, on side: Side, expected: FileMetadata) throws {
        try context.requireRealFolders(above: path, on: side)
        if newPath.parent != path.parent { try context.requireRealFolders(above: newPath, on: side) }
        let url = context.url(path, on: side)
        guard ApplyContext.sameItem(try context.currentMetadata(url, on: side), expected) else {
            throw ApplyIssue.changedDuringSync
        }
        let newURL = context.url(newPath, on: side)
        try context.directories(side).moveItem(at: url, to: newURL, replacingExisting: false)
        // What was moved is checked, as for the trash: a version saved in the moment between the
        // check above and the rename gets its name back, and the path waits for the next run.
        if !ApplyContext.sameItem(try context.currentMetadata(newURL, on: side), expected) {
            try? context.directories(side).moveItem(at: newURL, to: url, replacingExisting: false)
            throw ApplyIssue.changedDuringSync
        }
        folderState.created.insert(newPath)
        folderState.dirty[side]!.insert(path.parent)
        // The old name is taken again next (by the winner, or a folder): the rename must be
        // durable first, or a power cut could keep the new item over the old name and lose
        // the renamed version. Conflicts are rare; one folder flush each.
        try context.replica(side).flush(folder: context.folderURL(path.parent, on: side))
        if newPath.parent != path.parent {
            try context.replica(side).flush(folder: context.folderURL(newPath.parent, on: side))
        }
    }
}
