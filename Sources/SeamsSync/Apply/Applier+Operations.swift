import Foundation
import SeamsCore

extension Applier {
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
            if item.kind != .symbolicLink { try context.directories.synchronizeFile(at: temp) }
        } catch {
            try? context.directories.removeItem(at: temp, recursively: false)
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
        return (temp, try Self.writeTemp(temp, context: context, from: sourcePath, on: source, item: item, to: destination))
    }

    /// Writes `item` at `sourcePath` on `source` to `temp`, beside `destination` on the other
    /// side, and checks the source against the scan once copied. Changes nothing but `temp`, so
    /// several may run at once (``ApplyContext/copiesAtOnce``); a failed one leaves no `temp`.
    ///
    /// - Returns: The temp file's metadata.
    static func writeTemp(
        _ temp: URL, context: ApplyContext, from sourcePath: SyncPath, on source: Side, item: FileMetadata, to destination: SyncPath
    ) throws -> FileMetadata {
        try context.requireRealFolders(above: sourcePath, on: source)
        try context.requireRealFolders(above: destination, on: source.other)
        let sourceURL = context.url(sourcePath, on: source)
        do {
            try context.directories.copyItem(at: sourceURL, to: temp)
        } catch let error as CocoaError where error.posixCode == .ENOENT {
            if try context.currentMetadata(sourceURL) == nil { throw ApplyIssue.vanishedDuringSync }
            throw error
        } catch let error as CocoaError
            where item.kind == .symbolicLink && Self.meansNoLinks(error) && (try? context.currentMetadata(temp)) == nil
        {
            throw ApplyIssue.linksUnsupported(source.other)
        }
        do {
            let copied = try context.directories.metadata(at: temp)
            // The source is what is checked against the scan, after the copy: a change made while
            // it was copied counts too, and the copy's own date may be coarser than the source's
            // (exFAT keeps 10 ms, FAT 2 s), so it is not compared.
            guard copied.size == item.size, ApplyContext.sameItem(try context.currentMetadata(sourceURL), item) else {
                throw ApplyIssue.changedDuringSync
            }
            return copied
        } catch {
            try? context.directories.removeItem(at: temp, recursively: false)
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
        defer { if !placed { try? context.directories.removeItem(at: temp, recursively: false) } }
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
                try context.directories.moveItem(at: temp, to: destinationURL, replacingExisting: false)
                placed = true
                return placedCopy(copied, at: destination, on: target)
            } catch let error as CocoaError where error.posixCode == .EEXIST {}
        }
        let current = try context.currentMetadata(destinationURL)
        guard ApplyContext.sameItem(current, expected) else {
            if expected == nil, current != nil, let other = try context.aliasedName(destinationURL) {
                throw ApplyIssue.nameCollision(with: other)
            }
            try divertToConflictCopy(temp, placed: &placed, from: source, item: item, to: destination, expected: expected)
        }
        if let expected {
            if !preserved { try preserveReplaced(destination, on: target, expected: expected) }
            // The kept version's name in the trash is durable before the name it leaves can change.
            try flushTrash()
            // Swapped in one step where the file system can, then what came out is checked: a
            // version saved in the moment since the check above gets its name back.
            if try context.directories.exchangeItems(at: temp, and: destinationURL) {
                if ApplyContext.sameItem(try context.currentMetadata(temp), expected) {
                    try? context.directories.removeItem(at: temp, recursively: false)  // kept in the trash
                    placed = true
                } else {
                    _ = try context.directories.exchangeItems(at: temp, and: destinationURL)
                    try divertToConflictCopy(temp, placed: &placed, from: source, item: item, to: destination, expected: expected)
                }
            } else if let conditional = context.directories as? any ConditionalReplacing {
                // One step on the server: refused there when a version was saved since the check.
                guard try conditional.moveItem(at: temp, to: destinationURL, ifStill: expected) else {
                    try divertToConflictCopy(temp, placed: &placed, from: source, item: item, to: destination, expected: expected)
                }
                placed = true
            } else {
                try context.directories.moveItem(at: temp, to: destinationURL, replacingExisting: true)
                placed = true
            }
        } else {
            // A name this run freed (a version moved to the trash or to a conflict name) is
            // taken again only once that move is durable.
            try flushTrash()
            try context.directories.moveItem(at: temp, to: destinationURL, replacingExisting: false)
            placed = true
        }
        return placedCopy(copied, at: destination, on: target)
    }

    /// Counts a copy placed at `destination` on `target` and returns its metadata.
    mutating func placedCopy(_ copied: FileMetadata, at destination: SyncPath, on target: Side) -> FileMetadata {
        dirtyFolders[target]!.insert(destination.parent)
        createdPaths.insert(destination)
        if target == .local { report.copiedToLocal += 1 } else { report.copiedToContainer += 1 }
        return copied
    }

    /// Keeps the version at `destination`, as the scan saw it, in this run's trash under its own
    /// path (a hard link, or a flushed copy where there are none), before it is replaced. The
    /// trash folder's new name is made durable by the next ``flushTrash()``.
    ///
    /// - Parameter madeFolders: Trash folders made for a batch and not flushed yet; a version kept
    ///   in one of them is made durable, with the folder's name, by the batch's flush.
    mutating func preserveReplaced(
        _ destination: SyncPath, on target: Side, expected: FileMetadata, madeFolders: Set<URL> = []
    ) throws {
        let inMadeFolder = context.trashURL(destination, on: target)
        let trash = madeFolders.contains(inMadeFolder.deletingLastPathComponent())
            ? inMadeFolder : try trashURL(for: destination, on: target)
        try HardLinks.preserve(context.url(destination, on: target), as: trash, kind: expected.kind, directories: context.directories)
        trashPending.insert(trash.deletingLastPathComponent())
    }

    /// Flushes the trash folders changed since the last such flush (one batch: one device flush
    /// on the live file system), so that every version kept there is durable before a name that
    /// held it is replaced or its folder removed. A power cut may keep any part of what was not
    /// flushed; without this, the rename over a target could survive while the trash entry of the
    /// version it replaced did not.
    mutating func flushTrash() throws {
        guard !trashPending.isEmpty else { return }
        try context.directories.synchronize(files: [], directories: Self.deepestFirst(trashPending))
        trashPending = []
    }

    /// The target changed during the run: the incoming version in `temp` becomes a conflict copy
    /// beside it, never an overwrite. Always throws ``ApplyIssue/changedDuringSync``.
    private mutating func divertToConflictCopy(
        _ temp: URL, placed: inout Bool, from source: Side, item: FileMetadata, to destination: SyncPath,
        expected: FileMetadata?
    ) throws -> Never {
        let target = source.other
        let name = ConflictNamer().conflictPath(
            for: destination, origin: source, modified: item.modificationDate, taken: isTaken)
        try context.directories.moveItem(at: temp, to: context.url(name, on: target), replacingExisting: false)
        placed = true
        createdPaths.insert(name)
        dirtyFolders[target]!.insert(destination.parent)
        report.conflicts.append(.init(path: destination.rawValue, copy: name.rawValue))
        if let expected {
            // As if the scanned versions had been synced: the next run sees only the target's
            // new edit and carries it over; the incoming version lives on as the copy.
            record(destination, source: source, sourceItem: item, targetItem: expected)
        }
        throw ApplyIssue.changedDuringSync
    }

    /// Moves a file into this run's trash after checking it is still what the scan saw.
    mutating func moveToTrash(_ path: SyncPath, on side: Side, expected: FileMetadata) throws {
        try context.requireRealFolders(above: path, on: side)
        let url = context.url(path, on: side)
        guard ApplyContext.sameItem(try context.currentMetadata(url), expected) else {
            throw ApplyIssue.changedDuringSync
        }
        let trash = try trashURL(for: path, on: side)
        try context.directories.moveItem(at: url, to: trash, replacingExisting: false)
        trashPending.insert(trash.deletingLastPathComponent())
        dirtyFolders[side]!.insert(path.parent)
        // What was moved is checked: a version saved in the moment between the check above and
        // the move (no call by path closes that window) gets its name back, and the path waits
        // for the next run. Where the name was taken again meanwhile, it stays in the trash.
        if !ApplyContext.sameItem(try context.currentMetadata(trash), expected) {
            try? context.directories.moveItem(at: trash, to: url, replacingExisting: false)
            throw ApplyIssue.changedDuringSync
        }
        countDeletion(on: side)
    }

    /// Removes a folder that is empty by now; a folder that is not (something new in it) stays.
    mutating func removeFolder(_ path: SyncPath, on side: Side) throws {
        try context.requireRealFolders(above: path, on: side)
        // What was moved out of it into the trash is durable there before the folder goes.
        try flushTrash()
        try context.directories.removeItem(at: context.url(path, on: side), recursively: false)
        dirtyFolders[side]!.remove(path)
        dirtyFolders[side]!.insert(path.parent)
        countDeletion(on: side)
    }

    /// Creates a folder (an existing folder is fine).
    mutating func makeFolder(_ path: SyncPath, on side: Side) throws {
        try context.requireRealFolders(above: path, on: side)
        let url = context.url(path, on: side)
        do {
            try context.directories.createDirectory(at: url, withIntermediateDirectories: false)
        } catch let error as CocoaError where error.code == .fileWriteFileExists {
            guard try context.currentMetadata(url)?.kind == .directory else { throw error }
            if let other = try context.aliasedName(url) {
                collidedFolders[path] = other
                throw ApplyIssue.nameCollision(with: other)
            }
        }
        dirtyFolders[side]!.insert(path.parent)
        createdPaths.insert(path)
        report.foldersCreated += 1
    }

    /// Renames an item within one side after checking it is still what the scan saw.
    mutating func rename(_ path: SyncPath, to newPath: SyncPath, on side: Side, expected: FileMetadata) throws {
        try context.requireRealFolders(above: path, on: side)
        if newPath.parent != path.parent { try context.requireRealFolders(above: newPath, on: side) }
        let url = context.url(path, on: side)
        guard ApplyContext.sameItem(try context.currentMetadata(url), expected) else {
            throw ApplyIssue.changedDuringSync
        }
        let newURL = context.url(newPath, on: side)
        try context.directories.moveItem(at: url, to: newURL, replacingExisting: false)
        // What was moved is checked, as for the trash: a version saved in the moment between the
        // check above and the rename gets its name back, and the path waits for the next run.
        if !ApplyContext.sameItem(try context.currentMetadata(newURL), expected) {
            try? context.directories.moveItem(at: newURL, to: url, replacingExisting: false)
            throw ApplyIssue.changedDuringSync
        }
        createdPaths.insert(newPath)
        dirtyFolders[side]!.insert(path.parent)
        // The old name is taken again next (by the winner, or a folder): the rename must be
        // durable first, or a power cut could keep the new item over the old name and lose
        // the renamed version. Conflicts are rare; one folder flush each.
        try context.directories.synchronizeDirectory(at: context.folderURL(path.parent, on: side))
        if newPath.parent != path.parent {
            try context.directories.synchronizeDirectory(at: context.folderURL(newPath.parent, on: side))
        }
    }

    /// Removes the temp files an interrupted run left; they are the tool's own, never a user's.
    mutating func removeLeftovers() {
        for side in Side.allCases {
            for path in plan.snapshot(side).leftovers {
                guard (try? context.requireRealFolders(above: path, on: side)) != nil else { continue }
                try? context.directories.removeItem(at: context.url(path, on: side), recursively: false)
            }
        }
    }

    /// Flushes every folder whose entries changed, in two batches: the trash folders not flushed
    /// since they changed first, so that a replaced or deleted version is durable in the trash
    /// before its old name is durably gone. (The trash's own new folders were flushed when they
    /// were made, and the container's marker before its rename.)
    mutating func flushFolders() throws {
        try flushTrash()
        var folders: [URL] = []
        for side in Side.allCases {
            let sorted = dirtyFolders[side]!.sorted { ($0?.rawValue.utf8.count ?? -1) > ($1?.rawValue.utf8.count ?? -1) }
            folders += sorted.map { context.folderURL($0, on: side) }
        }
        try context.directories.synchronize(files: [], directories: folders)
    }

    mutating func temporaryURL(beside path: SyncPath, on side: Side) -> URL {
        temporaryCounter += 1
        let name = Snapshot.temporaryPrefix + context.runID + "-" + String(temporaryCounter)
        return context.url(path.replacingName(with: name), on: side)
    }

    private mutating func trashURL(for path: SyncPath, on side: Side) throws -> URL {
        try prepareTrashFolders(for: [(path, side)])
        return context.trashURL(path, on: side)
    }

    /// Makes the trash folders that versions of `items` will be kept in, and makes their new
    /// names durable, with one flush for all of them, before anything is moved into them: a power
    /// cut may keep a later move and lose an earlier `mkdir`, and a version moved into a folder
    /// that no durable name reaches would be lost.
    mutating func prepareTrashFolders(for items: [(SyncPath, Side)]) throws {
        let (made, chain) = try makeTrashFolders(for: items)
        guard !made.isEmpty else { return }
        try context.directories.synchronize(files: [], directories: Self.deepestFirst(chain))
        trashFolders.formUnion(made)
    }

    /// Makes the trash folders that versions of `items` will be kept in, without flushing them.
    ///
    /// - Returns: The folders made, and the folders whose entries name them (to flush, and then
    ///   add `made` to ``trashFolders``, before anything is moved into them).
    mutating func makeTrashFolders(for items: [(SyncPath, Side)]) throws -> (made: Set<URL>, chain: Set<URL>) {
        var made: Set<URL> = []
        var chain: Set<URL> = []
        for (path, side) in items {
            let folder = context.trashURL(path, on: side).deletingLastPathComponent()
            if trashFolders.contains(folder) || made.contains(folder) { continue }
            // Never through a `.seams-trash` that is a link (or a file): nothing goes outside the folder.
            let trashRoot = context.root(side).appending(path: ApplyContext.trashName, directoryHint: .isDirectory)
            if let kind = try context.currentMetadata(trashRoot)?.kind, kind != .directory { throw ApplyIssue.trashNotAFolder }
            try context.directories.createDirectory(at: folder, withIntermediateDirectories: true)
            let root = context.root(side).standardizedFileURL.path
            var parent = folder.deletingLastPathComponent()
            // Up to the root and no further (a server's `/` has a parent spelled `/..`).
            while case let current = parent.standardizedFileURL.path, current.hasPrefix(root) {
                chain.insert(parent)
                if current.count <= root.count { break }
                parent = parent.deletingLastPathComponent()
            }
            made.insert(folder)
        }
        return (made, chain)
    }

    /// Folders in the order they are flushed: deepest first.
    static func deepestFirst(_ folders: Set<URL>) -> [URL] {
        folders.sorted { $0.path.utf8.count > $1.path.utf8.count }
    }

    private mutating func countDeletion(on side: Side) {
        if side == .local { report.deletedLocal += 1 } else { report.deletedContainer += 1 }
    }
}
