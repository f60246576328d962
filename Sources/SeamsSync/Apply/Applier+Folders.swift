import Foundation
import SeamsCore

/// What the run changed in the folders of both sides.
struct FolderState {
    /// The folders whose entries changed, by side (`nil`: the root), flushed at the end.
    var dirty: [Side: Set<SyncPath?>] = [.local: [], .container: []]
    /// The paths this run made.
    var created: Set<SyncPath> = []
}

/// Folders: made, removed once empty, and flushed at the end; leftovers of interrupted runs.
extension Applier {
    /// Creates a folder (an existing folder is fine).
    mutating func makeFolder(_ path: SyncPath, on side: Side) throws {
        try context.requireRealFolders(above: path, on: side)
        let url = context.url(path, on: side)
        do {
            try context.directories(side).createDirectory(at: url, withIntermediateDirectories: false)
        } catch let error as CocoaError where error.code == .fileWriteFileExists {
            guard try context.currentMetadata(url, on: side)?.kind == .directory else { throw error }
            if let other = try context.aliasedName(url, on: side) {
                collisions.folders[path] = other
                throw ApplyIssue.nameCollision(with: other)
            }
        }
        folderState.dirty[side]!.insert(path.parent)
        folderState.created.insert(path)
        report.foldersCreated += 1
    }

    /// Removes a folder that is empty by now; a folder that is not (something new in it) stays.
    mutating func removeFolder(_ path: SyncPath, on side: Side) throws {
        try context.requireRealFolders(above: path, on: side)
        // What was moved out of it into the trash is durable there before the folder goes.
        try flushTrash()
        do {
            try context.directories(side).removeItem(at: context.url(path, on: side), recursively: false)
        } catch let error as CocoaError where error.posixCode == .ENOTEMPTY || error.posixCode == .EEXIST {
            var kept = plan.snapshot(side).ignored.filter { $0.isDescendant(of: path) }
            if kept.isEmpty { kept = try ignoredItems(in: path, on: side) }
            guard let first = kept.first else { throw error }
            // Platform junk (a Finder's `.DS_Store`) goes to the trash with the folder; what else
            // the ignore rules leave alone is never deleted, and keeps the folder.
            guard kept.allSatisfy({ $0.parent == path && IgnoreRules.isPlatformJunk($0.name) }) else {
                throw ApplyIssue.holdsIgnored(
                    kept.first { !IgnoreRules.isPlatformJunk($0.name) || $0.parent != path } ?? first)
            }
            for junk in kept {
                guard let item = try context.currentMetadata(context.url(junk, on: side), on: side), item.kind == .file
                else {
                    throw ApplyIssue.holdsIgnored(junk)
                }
                try moveToTrash(junk, on: side, expected: item)
            }
            try flushTrash()
            try context.directories(side).removeItem(at: context.url(path, on: side), recursively: false)
        }
        folderState.dirty[side]!.remove(path)
        folderState.dirty[side]!.insert(path.parent)
        countDeletion(on: side)
    }

    /// The items in the folder `path` the ignore rules leave alone, read from the folder: a scan
    /// that listed only changed folders did not list it (``SyncScope``).
    private func ignoredItems(in path: SyncPath, on side: Side) throws -> [SyncPath] {
        let rules = plan.snapshot(side).rules
        var found: [SyncPath] = []
        var pending = [path]
        while let folder = pending.popLast() {
            for entry in try context.directories(side).contentsOfDirectory(at: context.url(folder, on: side)) {
                let item = folder.appending(entry.name)
                let isFolder = entry.metadata.kind == .directory
                if rules.ignoresPathOrFolderAbove(item, isFolder: isFolder) {
                    found.append(item)
                } else if isFolder {
                    pending.append(item)
                }
            }
        }
        return found.sorted()
    }

    /// Removes the temp files an interrupted run left; they are the tool's own, never a user's.
    mutating func removeLeftovers() {
        for side in Side.allCases {
            for path in plan.snapshot(side).leftovers {
                guard (try? context.requireRealFolders(above: path, on: side)) != nil else { continue }
                try? context.directories(side).removeItem(at: context.url(path, on: side), recursively: false)
            }
        }
    }

    /// Every folder whose entries this run changed, on each side: flushed at the end of the run,
    /// after the trash folders not flushed since they changed, so that a replaced or deleted
    /// version is durable in the trash before its old name is durably gone. (The trash's own new
    /// folders were flushed when they were made, and the container's marker before its rename.)
    func changedFolders() -> Durables {
        var folders = Durables()
        for side in Side.allCases {
            folders.add(folders: folderState.dirty[side]!.map { context.folderURL($0, on: side) }, on: side)
        }
        return folders
    }
}
