import Foundation
import SeamsCore

/// A changed folder whose own entry the scan cannot decide: it is gone, or not recorded as a
/// folder, and its parent is not among the folders listed. The side is scanned whole instead.
struct ScanGap: Error, Hashable, Sendable {}

extension Scanner {
    /// Scans only the folders `changes` names, trusting the state for the rest: every entry of
    /// `table` starts out unchanged; a changed folder's recorded children are looked at again in
    /// its listing, a recorded subfolder gone or changed loses what it held, and a folder new in
    /// a listing (or named as a tree) is listed with all it holds, as a whole scan would.
    ///
    /// Given the folders whose entries changed since the last sync, the snapshot is the one a
    /// whole scan would have made: the same items, the same unchanged paths.
    ///
    /// - Parameter ruleFolders: Folders whose `.seamsignore` is read before any listing (those
    ///   above the changed folders of both sides), where the side keeps one there: on a local
    ///   disk, or where the state records one.
    /// - Throws: ``ScanGap`` when a changed folder's own entry cannot be decided here.
    func scan(
        _ root: URL, changes: ChangedFolders, table: ArchiveTable, known: Known, rulesIn ruleFolders: [SyncPath?],
        readers: Int, foldersPerReader: Int, into snapshot: inout Snapshot, learning learned: inout [Learned],
        listed: (Int) -> Void, shouldStop: () -> Bool
    ) throws {
        snapshot.unchanged = UnchangedPaths(everyEntryOf: table)
        var gone: [SyncPath] = []
        defer { snapshot.goneFolders = gone }
        let work = changes.listed
        let listedFolders = Set(work.map(\.folder))
        for folder in ruleFolders where !listedFolders.contains(folder) {
            try readRules(at: folder, root: root, table: table, into: &snapshot.rules)
        }
        /// Folders listed with all they hold, and folders found gone: nothing below them is listed again.
        var covered: [SyncPath?] = []
        func isCovered(_ folder: SyncPath?) -> Bool {
            covered.contains { Self.isAtOrBelow(folder, $0) }
        }
        for (folder, isTree) in work {
            if shouldStop() { throw ScanStopped() }
            if isCovered(folder) { continue }
            if let folder {
                if snapshot.rules.ignoresPathOrFolderAbove(folder, isFolder: true) { continue }
                // Its own entry: decided by its parent's listing, else it must be a trusted folder.
                let parentListed = listedFolders.contains(folder.parent) || isCovered(folder.parent)
                if !parentListed {
                    guard let (ordinal, entry) = table.find(folder), entry.kind == .directory,
                        snapshot.unchanged.isSet(ordinal)
                    else { throw ScanGap() }
                }
            }
            let url = folder?.url(in: root) ?? root
            let entries: [DirectoryEntry]
            do {
                entries = try directories.contentsOfDirectory(at: url)
            } catch {
                guard let folder else { throw error }  // the root itself: as in a whole scan
                snapshot.unchanged.remove(ordinals: table.ordinals(below: folder))
                if Self.isGone(error) {
                    // The parent's listing (there is one, or the folder was trusted: then its
                    // parent changed unseen) says what became of it.
                    guard listedFolders.contains(folder.parent) || isCovered(folder.parent) else { throw ScanGap() }
                    gone.append(folder)
                } else {
                    snapshot.unreadableFolders[folder] = UnderlyingError(error)
                }
                covered.append(folder)
                continue
            }
            var pending: [(SyncPath?, URL)] = []
            /// The folders listed with all they hold here: the tree, or the subfolders found new or untrusted.
            var wholeFolders: [SyncPath?] = []
            if isTree {
                wholeFolders = [folder]
                snapshot.unchanged.remove(ordinals: table.ordinals(below: folder))
                covered.append(folder)
                try add(
                    entries, under: folder, root: root, known: known, to: &snapshot, learning: &learned,
                    pending: &pending)
            } else {
                let recorded = table.children(of: folder)
                for child in recorded { snapshot.unchanged.remove(ordinal: child.ordinal) }
                try add(
                    entries, under: folder, root: root, known: known, to: &snapshot, learning: &learned,
                    pending: &pending)
                // A `.seamsignore` made, edited or removed here changes what is ignored below:
                // all of it is listed again, as a whole scan would apply the new rules.
                let ruleFile = folder?.appending(IgnoreRules.fileName) ?? SyncPath(IgnoreRules.fileName)
                let rulesChanged =
                    snapshot.items[ruleFile] != nil
                    || recorded.contains { $0.name == IgnoreRules.fileName && !snapshot.unchanged.isSet($0.ordinal) }
                // A recorded subfolder not found again as it was: what it held is not trusted.
                var trusted: Set<String> = []
                for child in recorded where child.kind == .directory {
                    let path = folder?.appending(child.name) ?? SyncPath(child.name)
                    if snapshot.unchanged.isSet(child.ordinal), !rulesChanged {
                        trusted.insert(child.name)
                    } else {
                        snapshot.unchanged.remove(ordinals: table.ordinals(below: path))
                        if !snapshot.unchanged.isSet(child.ordinal) { gone.append(path) }
                    }
                }
                // Subfolders found as recorded stay trusted; new ones are listed whole.
                pending.removeAll { path, _ in path.map { trusted.contains($0.name) } ?? false }
                for (path, _) in pending {
                    snapshot.unchanged.remove(ordinals: table.ordinals(below: path))
                    covered.append(path)
                }
                wholeFolders = pending.map(\.0)
            }
            listed(entries.count)
            try list(
                &pending, root: root, known: known, readers: readers, foldersPerReader: foldersPerReader,
                into: &snapshot, learning: &learned, listed: listed, shouldStop: shouldStop)
            // The recorded folders inside what was listed whole, not found again as they were, are
            // gone too (moved out, removed): the other side lists them whole, as it lists those
            // gone from a folder listed alone.
            for listed in wholeFolders {
                gone += Self.recordedFolders(below: listed, in: table, notIn: snapshot.unchanged)
            }
        }
        snapshot.leftovers.sort()
        snapshot.reserved.sort()
        snapshot.ignored.sort()
    }

    /// The folders `table` records below `folder` whose entries `unchanged` does not hold, in
    /// path order: a walk of the entries below `folder` only.
    static func recordedFolders(below folder: SyncPath?, in table: ArchiveTable, notIn unchanged: UnchangedPaths)
        -> [SyncPath]
    {
        var found: [SyncPath] = []
        table.forEach(in: table.ordinals(below: folder)) { ordinal, path, entry in
            if entry.kind == .directory, !unchanged.isSet(ordinal) {
                found.append(SyncPath(String(decoding: path, as: UTF8.self)))
            }
        }
        return found
    }

    /// Adds the rules of `folder`'s `.seamsignore` to `rules`, where the side keeps one: a local
    /// disk is asked (one call); a server only where the state records the file.
    private func readRules(at folder: SyncPath?, root: URL, table: ArchiveTable, into rules: inout IgnoreRules)
        throws
    {
        let path = folder?.appending(IgnoreRules.fileName) ?? SyncPath(IgnoreRules.fileName)
        guard let files, root.isFileURL || table.find(path) != nil else { return }
        try Self.addRules(at: path.url(in: root), in: folder, files: files, into: &rules)
    }

    /// Whether `path` is `folder` or inside it (every path is inside the root, `nil`).
    static func isAtOrBelow(_ path: SyncPath?, _ folder: SyncPath?) -> Bool {
        guard let folder else { return true }
        guard let path else { return false }
        return path == folder || path.rawValue.hasPrefix(folder.rawValue + "/")
    }

    /// Whether a listing failed because the folder is not there (or is no longer a folder).
    static func isGone(_ error: any Error) -> Bool {
        guard let error = error as? CocoaError else { return false }
        return error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile || error.posixCode == .ENOENT
            || error.posixCode == .ENOTDIR
    }
}
