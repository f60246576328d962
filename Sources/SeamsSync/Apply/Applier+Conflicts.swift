import Foundation
import SeamsCore

extension Applier {
    /// Keeps both versions of a file changed on both sides: the loser is renamed to its conflict
    /// name on its own side (a rename, never a deletion), the winner is copied into the freed
    /// name, and the loser's copy goes to the winner's side under the conflict name.
    mutating func resolveConflict(_ path: SyncPath, winner: Side) throws {
        let loser = winner.other
        let winnerItem = plan.snapshot(winner).items[path]!
        let loserItem = plan.snapshot(loser).items[path]!
        let copyPath = ConflictNamer().conflictPath(
            for: path, origin: loser, modified: loserItem.modificationDate, taken: isTaken)
        try rename(path, to: copyPath, on: loser, expected: loserItem)
        report.conflicts.append(.init(path: path.rawValue, copy: copyPath.rawValue))
        let winnerStamp = try copy(path, from: winner, item: winnerItem, to: path, expected: nil)
        record(path, source: winner, sourceStamp: winnerItem.stamp, targetStamp: winnerStamp)
        var renamed = loserItem
        renamed.modificationDate = loserItem.modificationDate
        let loserStamp = try copy(copyPath, from: loser, item: renamed, to: copyPath, expected: nil)
        record(copyPath, source: loser, sourceStamp: loserItem.stamp, targetStamp: loserStamp)
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
        let stamp = try copy(copyPath, from: fileSide, item: fileItem, to: copyPath, expected: nil)
        record(copyPath, source: fileSide, sourceStamp: fileItem.stamp, targetStamp: stamp)
    }
}
