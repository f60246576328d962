import Foundation
import SeamsCore

/// This run's trash folders.
struct TrashState {
    /// The folders made (and their names flushed) this run.
    var folders: Set<URL> = []
    /// Folders changed since the last ``Applier/flushTrash()``, by side.
    var pending = Durables()
}

/// The trash: every version a run replaces or deletes is kept there, durably, first.
extension Applier {
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
        let trash =
            madeFolders.contains(inMadeFolder.deletingLastPathComponent())
            ? inMadeFolder : try trashURL(for: destination, on: target)
        try HardLinks.preserve(
            context.url(destination, on: target), as: trash, kind: expected.kind, in: context.replica(target))
        trashState.pending.add(folder: trash.deletingLastPathComponent(), on: target)
    }

    /// Flushes the trash folders changed since the last such flush (one batch: one device flush
    /// on the live file system), so that every version kept there is durable before a name that
    /// held it is replaced or its folder removed. A power cut may keep any part of what was not
    /// flushed; without this, the rename over a target could survive while the trash entry of the
    /// version it replaced did not.
    mutating func flushTrash() throws {
        guard !trashState.pending.isEmpty else { return }
        try context.replicas.flush(trashState.pending)
        trashState.pending = Durables()
    }

    /// Moves a file into this run's trash after checking it is still what the scan saw.
    ///
    /// - Parameters:
    ///   - path: Its path.
    ///   - side: Its side.
    ///   - expected: What the scan saw there.
    ///   - counted: Whether it counts as a deletion in the report (a version a move replaces,
    ///     or an item on its way to a new name, does not).
    mutating func moveToTrash(_ path: SyncPath, on side: Side, expected: FileMetadata, counted: Bool = true) throws {
        try context.requireRealFolders(above: path, on: side)
        let url = context.url(path, on: side)
        guard ApplyContext.sameItem(try context.currentMetadata(url, on: side), expected) else {
            throw ApplyIssue.changedDuringSync
        }
        let trash = try trashURL(for: path, on: side)
        try context.directories(side).moveItem(at: url, to: trash, replacingExisting: false)
        trashState.pending.add(folder: trash.deletingLastPathComponent(), on: side)
        folderState.dirty[side]!.insert(path.parent)
        // What was moved is checked: a version saved in the moment between the check above and
        // the move (no call by path closes that window) gets its name back, and the path waits
        // for the next run. Where the name was taken again meanwhile, it stays in the trash.
        if !ApplyContext.sameItem(try context.currentMetadata(trash, on: side), expected) {
            try? context.directories(side).moveItem(at: trash, to: url, replacingExisting: false)
            throw ApplyIssue.changedDuringSync
        }
        if counted { countDeletion(on: side) }
    }

    mutating func trashURL(for path: SyncPath, on side: Side) throws -> URL {
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
        try context.replicas.flush(chain)
        trashState.folders.formUnion(made)
    }

    /// Makes the trash folders that versions of `items` will be kept in, without flushing them.
    ///
    /// - Returns: The folders made, and the folders whose entries name them (to flush, and then
    ///   add `made` to `trashState.folders`, before anything is moved into them).
    mutating func makeTrashFolders(for items: [(SyncPath, Side)]) throws -> (made: Set<URL>, chain: Durables) {
        var made: Set<URL> = []
        var chain = Durables()
        for (path, side) in items {
            let folder = context.trashURL(path, on: side).deletingLastPathComponent()
            if trashState.folders.contains(folder) || made.contains(folder) { continue }
            // Never through a `.seams-trash` that is a link (or a file): nothing goes outside the folder.
            let trashRoot = context.root(side).appending(path: ApplyContext.trashName, directoryHint: .isDirectory)
            if let kind = try context.currentMetadata(trashRoot, on: side)?.kind, kind != .directory {
                throw ApplyIssue.trashNotAFolder
            }
            try context.directories(side).createDirectory(at: folder, withIntermediateDirectories: true)
            let root = context.root(side).standardizedFileURL.path
            var parent = folder.deletingLastPathComponent()
            // Up to the root and no further (a server's `/` has a parent spelled `/..`).
            while case let current = parent.standardizedFileURL.path, current.hasPrefix(root) {
                chain.add(folder: parent, on: side)
                if current.count <= root.count { break }
                parent = parent.deletingLastPathComponent()
            }
            made.insert(folder)
        }
        return (made, chain)
    }
}
