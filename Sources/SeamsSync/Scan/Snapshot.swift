import Foundation
import SeamsCore

/// One side's tree as a scan found it: every item's metadata by path, read by listing folders
/// (one call per folder), never by reading content.
///
/// A scan compared with the archive keeps only the paths of the files and folders it found as
/// the archive recorded them on its side (``unchanged``), not their metadata: in a tree of a
/// million files where a hundred changed, the snapshot holds a hundred items and a million bits.
struct Snapshot: Sendable {
    /// The items by path, with their metadata; the tool's own `.seams…` items are left out.
    var items: [SyncPath: FileMetadata]
    /// Files and folders found as the archive recorded them on this side (the same kind; a file
    /// also the same stamp), without their metadata: a bit for each entry of the archive's
    /// table the scan was compared with. Links and special items are always in ``items``.
    var unchanged: UnchangedPaths = []
    /// Folders that could not be listed, with the error; what lies under them is unknown, not
    /// absent, so nothing under them is deleted anywhere.
    var unreadableFolders: [SyncPath: UnderlyingError]
    /// Temporary files an interrupted run left behind (`.seams-tmp-…`), to be removed.
    var leftovers: [SyncPath]
    /// Items whose names start with `.seams` but are not the tool's own (a user's
    /// `.seams-notes.txt`): neither synced nor removed, reported as skipped every run.
    var reserved: [SyncPath] = []
    /// Items the ignore rules left out, each once (an ignored folder, not what it holds, which
    /// was never listed).
    var ignored: [SyncPath] = []
    /// The rules the scan applied: the run's, and the `.seamsignore` files it found on its side.
    var rules = IgnoreRules()
    /// Listings of folders holding unchanged items, as the scan read them, where the scanner
    /// keeps them (a server's, up to a number of items): the plan's completion reads the
    /// metadata of such items from here instead of asking again.
    var listings: [SyncPath?: [DirectoryEntry]] = [:]
    /// How many items ``listings`` holds.
    var keptItems = 0
    /// How many entries each listed folder held, in a scan compared with the archive: the
    /// plan's completion lists a folder again only where it needs most of them.
    var entryCounts: [SyncPath?: Int] = [:]
    /// In a scan of changed folders only (``SyncScope``): the recorded folders it found gone or
    /// changed. The other side lists them whole, so a move or deletion of one there sees all it
    /// holds (`nil`: the scan listed everything).
    var goneFolders: [SyncPath]?

    /// Creates a snapshot.
    init(
        items: [SyncPath: FileMetadata] = [:],
        unreadableFolders: [SyncPath: UnderlyingError] = [:],
        leftovers: [SyncPath] = []
    ) {
        self.items = items
        self.unreadableFolders = unreadableFolders
        self.leftovers = leftovers
    }

    /// Leaves out what `rules` (the other side's) ignore: items, and paths found unchanged,
    /// whose own name or a folder above is ignored; each goes into ``ignored``, unless a folder
    /// above it is there already.
    mutating func leaveOut(ignoredBy rules: IgnoreRules) {
        var left: [SyncPath] = []
        for (path, item) in items where rules.ignoresPathOrFolderAbove(path, isFolder: item.kind == .directory) {
            left.append(path)
        }
        for path in left { items[path] = nil }
        if let table = unchanged.table, unchanged.isBits(of: table) {
            var ordinals: [(Int, SyncPath)] = []
            table.forEach(where: { unchanged.word($0) }) { ordinal, bytes, entry in
                let path = SyncPath(String(decoding: bytes, as: UTF8.self))
                if rules.ignoresPathOrFolderAbove(path, isFolder: entry.kind == .directory) {
                    ordinals.append((ordinal, path))
                }
            }
            for (ordinal, path) in ordinals {
                unchanged.remove(ordinal: ordinal)
                left.append(path)
            }
        } else {
            let paths = unchanged.filter { rules.ignoresPathOrFolderAbove($0, isFolder: false) }
            for path in paths { _ = unchanged.remove(path) }
            left += paths
        }
        let leftSet = Set(left)
        ignored += left.filter { path in
            var above = path.parent
            while let folder = above {
                if leftSet.contains(folder) { return false }
                above = folder.parent
            }
            return true
        }
        ignored.sort()
    }

    /// Leaves out the paths the other side's scan ignored, whatever their kind here (`cache/`
    /// ignores a folder `cache` there and not a file `cache` here), with all they hold: a path is
    /// left alone on both sides or on neither.
    mutating func leaveOut(paths: [SyncPath]) {
        let mine = Set(ignored)
        var folders: Set<SyncPath> = []
        var left: [SyncPath] = []
        for path in paths where !mine.contains(path) {
            if let item = items.removeValue(forKey: path) {
                left.append(path)
                if item.kind == .directory { folders.insert(path) }
            } else if unchanged.remove(path) != nil {
                left.append(path)
                folders.insert(path)  // a folder or a file: what it holds, if anything, goes too
            }
        }
        if !folders.isEmpty {
            func under(_ path: SyncPath) -> Bool {
                var above = path.parent
                while let folder = above {
                    if folders.contains(folder) { return true }
                    above = folder.parent
                }
                return false
            }
            for path in items.keys where under(path) { items[path] = nil }
            if let table = unchanged.table, unchanged.isBits(of: table) {
                var ordinals: [Int] = []
                table.forEach(where: { unchanged.word($0) }) { ordinal, bytes, _ in
                    if under(SyncPath(String(decoding: bytes, as: UTF8.self))) { ordinals.append(ordinal) }
                }
                for ordinal in ordinals { unchanged.remove(ordinal: ordinal) }
            } else {
                for path in unchanged.filter(under) { _ = unchanged.remove(path) }
            }
        }
        if !left.isEmpty {
            ignored = (ignored + left).sorted()
        }
    }

    /// Whether the scan found an item at `path`, changed or not.
    ///
    /// - Parameter path: Any path.
    /// - Returns: `true` when it is in ``items`` or ``unchanged``.
    func contains(_ path: SyncPath) -> Bool {
        items[path] != nil || unchanged.contains(path)
    }

    /// Whether the scan found nothing at all.
    var isEmpty: Bool { items.isEmpty && unchanged.isEmpty }

    /// How many items the scan found.
    var count: Int { items.count + unchanged.count }

    /// Reads the metadata of the paths one side found unchanged where the other side did not:
    /// the plan needs both sides' items of every path it decides, and only the paths unchanged on
    /// both sides go without. What the read finds is kept in ``items``; a path gone since the
    /// scan is gone from the snapshot.
    ///
    /// - Parameters:
    ///   - local: The local scan.
    ///   - container: The container scan.
    ///   - planning: Told each side's paths, in the order they are read, before the first.
    ///   - read: Reads one path's metadata on one side now; `nil` when nothing is there.
    /// - Returns: How many paths were read.
    @discardableResult
    static func complete(
        _ local: inout Snapshot, _ container: inout Snapshot, planning: ([SyncPath], Side) -> Void = { _, _ in },
        read readItem: (SyncPath, Side) throws -> FileMetadata?
    ) rethrows -> Int {
        if let table = local.unchanged.table, local.unchanged.isBits(of: table), container.unchanged.isBits(of: table) {
            // Both scans were compared with the same table: the paths are bits of its entries.
            var read = 0
            for side in Side.allCases {
                let (mine, theirs) =
                    side == .local ? (local.unchanged, container.unchanged) : (container.unchanged, local.unchanged)
                var paths: [(Int, SyncPath)] = []
                table.forEach(where: { mine.word($0) & ~theirs.word($0) }) { ordinal, path, _ in
                    paths.append((ordinal, SyncPath(String(decoding: path, as: UTF8.self))))
                }
                if !paths.isEmpty { planning(paths.map(\.1), side) }
                for (ordinal, path) in paths {
                    let found = try readItem(path, side)
                    if side == .local {
                        local.unchanged.remove(ordinal: ordinal)
                        local.items[path] = found
                    } else {
                        container.unchanged.remove(ordinal: ordinal)
                        container.items[path] = found
                    }
                }
                read += paths.count
            }
            return read
        }
        let localOnly = local.unchanged.filter { !container.unchanged.contains($0) }
        let containerOnly = container.unchanged.filter { !local.unchanged.contains($0) }
        for (side, paths) in [(Side.local, localOnly), (.container, containerOnly)] {
            if !paths.isEmpty { planning(Array(paths), side) }
            for path in paths {
                let found = try readItem(path, side)
                if side == .local {
                    local.unchanged.remove(path)
                    local.items[path] = found
                } else {
                    container.unchanged.remove(path)
                    container.items[path] = found
                }
            }
        }
        return localOnly.count + containerOnly.count
    }

    /// Whether `path` lies in a folder that could not be listed.
    ///
    /// - Parameter path: Any path.
    /// - Returns: `true` when the scan cannot tell what is there.
    func isUnknown(_ path: SyncPath) -> Bool {
        if unreadableFolders.isEmpty { return false }
        var current: SyncPath? = path
        while let candidate = current {
            if unreadableFolders[candidate] != nil, candidate != path { return true }
            current = candidate.parent
        }
        return false
    }

    /// Whether a name belongs to the tool itself (temp files, trash, lock, markers).
    ///
    /// - Parameter name: One path component.
    /// - Returns: `true` for `.seams…` names.
    static func isOwnName(_ name: String) -> Bool {
        OwnNames.isOwn(name)
    }

    /// The prefix of temporary files.
    static let temporaryPrefix = OwnNames.temporaryPrefix

    /// The tool's own names at the top of a synced folder: the trash, the lock, the container's marker.
    static let ownRootNames: Set<String> = OwnNames.atRoot

    /// Whether `name` is a temp file name this tool makes: `.seams-tmp-<run>-<n>` beside a target,
    /// `.seams-tmp-lock-<new|beat|stale>-<run>` and `.seams-tmp-replica-<run>` in the container,
    /// where `<run>` is a run id (lower-case letters and digits) and `<n>` a number.
    ///
    /// - Parameter name: One path component.
    /// - Returns: `true` only for those shapes; a user's `.seams-tmp-notes.txt` is not one.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix) else { return false }
        let parts = name.dropFirst(temporaryPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        func isRunID(_ part: Substring) -> Bool {
            (1...16).contains(part.utf8.count)
                && part.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
        }
        switch parts.count {
        case 2 where parts[0] == "replica":
            return isRunID(parts[1])
        case 2:
            return isRunID(parts[0]) && (1...9).contains(parts[1].utf8.count)
                && parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) }
        case 3 where parts[0] == "lock":
            return ["new", "beat", "stale"].contains(parts[1]) && isRunID(parts[2])
        default:
            return false
        }
    }
}
