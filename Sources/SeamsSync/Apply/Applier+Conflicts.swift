import Foundation
import SeamsCore

extension Applier {
    /// Keeps both versions of a file changed on both sides: the loser is renamed to its conflict
    /// name on its own side (a rename, never a deletion), the winner is copied into the freed
    /// name, and the loser's copy goes to the winner's side under the conflict name.
    mutating func resolveConflict(_ path: SyncPath, winner: Side) throws {
        if let kept = keptCopies[path] {
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
                guard let existing = scannedItem(name, on: side), existing.kind == .file, existing.size == loserItem.size,
                      (try? context.files.contentsEqual(context.url(entry.path, on: loser), context.url(name, on: side))) == true
                else { continue }
                keptCopies[entry.path] = name
                settledPaths.insert(name)
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
}
