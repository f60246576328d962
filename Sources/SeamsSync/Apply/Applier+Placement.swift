import Foundation
import SeamsCore

/// Moving a copied file into place: the re-check, the replace, and a conflict copy when the target changed.
extension Applier {
    /// The second half of a copy, once the temp file is flushed: re-check the target, keep the
    /// version it replaces in the trash (a hard link), rename. A target changed during the run is
    /// not overwritten: the incoming version becomes a conflict copy beside it.
    ///
    /// - Returns: The new file's metadata, as read from its temp file (`copied`).
    mutating func placeCopy(
        _ temp: URL, copied: FileMetadata, from source: Side, item: FileMetadata, to destination: SyncPath,
        expected: FileMetadata?, preserved: Bool = false
    ) throws -> FileMetadata {
        let target = source.other
        var placed = false
        let directories = context.directories(target)
        defer { if !placed { try? directories.removeItem(at: temp, recursively: false) } }
        let destinationURL = context.url(destination, on: target)
        try context.requireRealFolders(above: destination, on: target)
        if expected == nil {
            // A new file: the move refuses a taken name by itself (`renameat2`'s `RENAME_NOREPLACE`
            // on a local disk, a look just before the rename where the file system lacks it, a
            // server's `MOVE` with `Overwrite: F`), so the name is not looked at first. Refused,
            // the name is looked at below: a conflict copy, or a name another case reaches.
            // A name this run freed is taken again only once that move is durable (flushTrash).
            do {
                try flushTrash()
                try directories.moveItem(at: temp, to: destinationURL, replacingExisting: false)
                placed = true
                return placedCopy(copied, at: destination, on: target)
            } catch let error as CocoaError where error.posixCode == .EEXIST {}
        }
        let current = try context.currentMetadata(destinationURL, on: target)
        guard ApplyContext.sameItem(current, expected) else {
            if expected == nil, current != nil, let other = try context.aliasedName(destinationURL, on: target) {
                throw ApplyIssue.nameCollision(with: other)
            }
            try divertToConflictCopy(
                temp, placed: &placed, from: source, item: item, to: destination, expected: expected)
        }
        if let expected {
            if !preserved { try preserveReplaced(destination, on: target, expected: expected) }
            // The kept version's name in the trash is durable before the name it leaves can change.
            try flushTrash()
            // Swapped in one step where the file system can, then what came out is checked: a
            // version saved in the moment since the check above gets its name back.
            if context.can(target, .atomicExchange), try directories.exchangeItems(at: temp, and: destinationURL) {
                if ApplyContext.sameItem(try context.currentMetadata(temp, on: target), expected) {
                    try? directories.removeItem(at: temp, recursively: false)  // kept in the trash
                    placed = true
                } else {
                    _ = try directories.exchangeItems(at: temp, and: destinationURL)
                    try divertToConflictCopy(
                        temp, placed: &placed, from: source, item: item, to: destination, expected: expected)
                }
            } else if context.can(target, .replaceIfUnchanged) {
                // One step on the server: refused there when a version was saved since the check.
                guard try context.replica(target).moveItem(at: temp, over: destinationURL, ifStill: expected) else {
                    try divertToConflictCopy(
                        temp, placed: &placed, from: source, item: item, to: destination, expected: expected)
                }
                placed = true
            } else {
                try directories.moveItem(at: temp, to: destinationURL, replacingExisting: true)
                placed = true
            }
        } else {
            // A name this run freed (a version moved to the trash or to a conflict name) is
            // taken again only once that move is durable.
            try flushTrash()
            try directories.moveItem(at: temp, to: destinationURL, replacingExisting: false)
            placed = true
        }
        return placedCopy(copied, at: destination, on: target)
    }

    /// Counts a copy placed at `destination` on `target` and returns its metadata.
    mutating func placedCopy(_ copied: FileMetadata, at destination: SyncPath, on target: Side) -> FileMetadata {
        folderState.dirty[target]!.insert(destination.parent)
        folderState.created.insert(destination)
        if target == .local { report.copiedToLocal += 1 } else { report.copiedToContainer += 1 }
        return context.replica(target).metadata(placedAt: context.url(destination, on: target), copied: copied)
    }

    /// The target changed during the run: the incoming version in `temp` becomes a conflict copy
    /// beside it, never an overwrite. Always throws ``ApplyIssue/changedDuringSync``.
    mutating func divertToConflictCopy(
        _ temp: URL, placed: inout Bool, from source: Side, item: FileMetadata, to destination: SyncPath,
        expected: FileMetadata?
    ) throws -> Never {
        let target = source.other
        let name = ConflictNamer().conflictPath(
            for: destination, origin: source, modified: item.modificationDate, taken: isTaken)
        try context.directories(target).moveItem(at: temp, to: context.url(name, on: target), replacingExisting: false)
        placed = true
        folderState.created.insert(name)
        folderState.dirty[target]!.insert(destination.parent)
        report.conflicts.append(.init(path: destination.rawValue, copy: name.rawValue))
        if let expected {
            // As if the scanned versions had been synced: the next run sees only the target's
            // new edit and carries it over; the incoming version lives on as the copy.
            record(destination, source: source, sourceItem: item, targetItem: expected)
        }
        throw ApplyIssue.changedDuringSync
    }
}
