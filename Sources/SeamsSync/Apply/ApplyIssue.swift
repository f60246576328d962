import Foundation
import SeamsCore

/// Why one path could not be carried out this run.
enum ApplyIssue: Error, Hashable {
    /// The item changed between the scan and the change; it is left for the next run.
    case changedDuringSync
    /// The source disappeared between the scan and the copy (a transient file); nothing to keep.
    case vanishedDuringSync
    /// The target's file system takes the name for another one that is there (`A.txt` for
    /// `a.txt` on exFAT): it cannot hold both. Left on its side and reported every run.
    case nameCollision(with: String)
    /// A folder above the path could not be made for ``nameCollision(with:)`` (its name, and the
    /// name it met): nothing is put inside it, or it would land in the other folder.
    case insideCollidedFolder(SyncPath, other: String)
    /// The side's `.seams-trash` is not a folder (a symbolic link, a file): nothing is moved into
    /// it, so nothing that path would replace or delete can be kept; the path waits.
    case trashNotAFolder
    /// A folder above the path is no longer a folder (a symbolic link appeared there since the
    /// scan): nothing is done through it.
    case notAFolderOnTheWay(SyncPath)
    /// The path is a symbolic link and the side it would go to cannot hold links (FAT, exFAT).
    case linksUnsupported(Side)
    /// The folder, deleted on the other side, still holds items the ignore rules leave alone
    /// (the first of them named): it stays, with them; what it held that syncs was deleted.
    case holdsIgnored(SyncPath)
    /// The user moved the item here from the path given on the other side, and making the same
    /// move on this side failed (the reason given): nothing at or under the new path was done;
    /// the next run tries again.
    case moveFailed(from: SyncPath, reason: String)
}

extension ApplyIssue {
    /// Whether the report lists the path as skipped (nothing is lost and nothing is owed: it
    /// vanished, or its side cannot hold it) rather than failed (it waits for the next run or
    /// for the user).
    var isSkip: Bool {
        switch self {
        case .vanishedDuringSync, .linksUnsupported, .holdsIgnored: true
        default: false
        }
    }

    /// What the report says of the path: the one place where an issue becomes a sentence.
    var reason: String {
        switch self {
        case .vanishedDuringSync:
            "vanished during the sync"
        case .holdsIgnored(let item):
            "deleted on the other side, and kept here: it holds \"\(item.rawValue)\", which the ignore rules leave "
                + "alone (what it held that syncs was deleted); remove it to delete the folder"
        case .moveFailed(let from, let reason):
            "moved here from \"\(from.rawValue)\" on the other side; the same move failed on this one (\(reason)); "
                + "nothing at or under it was synced this run; it will be tried again next run"
        case .changedDuringSync:
            "changed during the sync; it will sync next run"
        case .trashNotAFolder:
            "its old version would go to .seams-trash, which is not a folder (a symbolic link?); "
                + "nothing was changed; make .seams-trash a folder or remove it"
        case .linksUnsupported(let side):
            "a symbolic link, and the \(side) side's file system cannot hold links (FAT, exFAT); "
                + "left where it is, never deleted, and tried again each run"
        case .notAFolderOnTheWay(let folder):
            "\"\(folder.rawValue)\" is no longer a folder (a symbolic link or a file appeared there during the "
                + "sync); nothing was written through it; it will be looked at again next run"
        case .nameCollision(ApplyContext.unlistedName):
            "the other side's file system still reports an item under this name that it no longer lists "
                + "(a cache of names, as FUSE keeps for about a second); it will be tried again next run"
        case .insideCollidedFolder(let folder, ApplyContext.unlistedName):
            "its folder \"\(folder.rawValue)\" could not be made yet: the other side's file system still reports "
                + "an item under that name that it no longer lists (a cache of names, as FUSE keeps for about a second); "
                + "it will be tried again next run"
        case .insideCollidedFolder(let folder, let other):
            "its folder \"\(folder.rawValue)\" could not be made: the other side's file system cannot hold both "
                + "that name and \"\(other)\" (it ignores case or Unicode form); rename one of them"
        case .nameCollision(let other):
            "the other side's file system cannot hold both this name and \"\(other)\" (it ignores case "
                + "or Unicode form); rename one of them"
        }
    }
}
