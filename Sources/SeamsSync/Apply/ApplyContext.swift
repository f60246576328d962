import Foundation
import SeamsCore

/// The container's new marker, and the run that writes it.
struct MarkerPlacement: Sendable {
    /// The container's marker.
    let marker: ReplicaMarker
    /// The identity the next commit records, one generation on.
    let identity: ReplicaIdentity
}

/// What applying a plan needs from outside: the two replicas (each touched through its own
/// boundaries, and decided about by its capabilities only), the copies between them, and this
/// run's names.
struct ApplyContext: Sendable {
    /// The two replicas, and the copies and comparisons between them.
    let replicas: ReplicaTransfers
    /// A short id unique to this run, used in temporary names.
    let runID: String
    /// The trash folder of this run inside `.seams-trash`, such as `20261122-034512-ab12cd`.
    let trashFolderName: String
    /// Called now and then during long runs, to keep the lock alive.
    let heartbeat: @Sendable () throws -> Void
    /// Told how many of how many paths are done.
    let progress: @Sendable (SyncProgress) -> Void
    /// Whether the run was asked to stop; looked at between paths, never inside one change.
    var shouldStop: @Sendable () -> Bool = { false }
    /// At most this many copies wait for one flush (``SyncOptions/copyBatchCount``).
    var batchCount = 2048
    /// How many plain file copies are written to their temp names at once, each on a thread of
    /// its own (uploads and downloads wait on a server), and how many of a flushed batch's new
    /// files are moved onto their free names at once; 1 does both one by one, in plan order.
    /// Replacing a file, the trash and deletions always go one by one.
    var copiesAtOnce = 1
    /// Where the copies, placements and flushes that go at once run (threads, live).
    var work: any ConcurrentWork = BlockingExecutor.shared
    /// Whether the state is committed even if no path changes (a rebuilt or first state).
    var mustCommit = false
    /// The container's new `.seams-replica`, put in place before the final flush when the state
    /// will be committed, so that one flush covers it.
    var marker: MarkerPlacement?

    /// The name of the trash folder in each root.
    static let trashName = OwnNames.trash

    /// The replica of `side`.
    func replica(_ side: Side) -> any Replica { replicas.replica(side) }

    /// Lists, moves, copies, links and flushes on `side`.
    func directories(_ side: Side) -> any DirectoryAccessorProviding { replica(side).directories }

    /// Whether the replica of `side` can do all of `capabilities`.
    func can(_ side: Side, _ capabilities: ReplicaCapabilities) -> Bool { replica(side).can(capabilities) }

    func root(_ side: Side) -> URL { replica(side).root }

    func url(_ path: SyncPath, on side: Side) -> URL { path.url(in: root(side)) }

    func folderURL(_ folder: SyncPath?, on side: Side) -> URL {
        folder.map { url($0, on: side) } ?? root(side)
    }

    func trashURL(_ path: SyncPath, on side: Side) -> URL {
        SyncPath(Self.trashName + "/" + trashFolderName + "/" + path.rawValue).url(in: root(side))
    }

    /// The metadata at `url` on `side`, or `nil` when nothing is there.
    func currentMetadata(_ url: URL, on side: Side) throws -> FileMetadata? {
        do {
            return try directories(side).metadata(at: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return nil
        }
    }

    /// The name of the item that `url` reaches when that is not `url`'s own name: on a file system
    /// that folds case or Unicode form (FAT, exFAT, APFS, NTFS), `a.txt` reaches `A.txt`.
    ///
    /// Called only where something unexpected is at `url`; lists its folder once.
    ///
    /// - Returns: The other name, or `nil` when an item of exactly this name is there.
    func aliasedName(_ url: URL, on side: Side) throws -> String? {
        let name = url.lastPathComponent
        let names = try directories(side).contentsOfDirectory(at: url.deletingLastPathComponent()).map(\.name)
        if names.contains(where: { $0.utf8.elementsEqual(name.utf8) }) { return nil }
        // Swift compares strings by canonical equivalence, so this folds the Unicode form too.
        let folded = name.lowercased()
        return names.first { $0.lowercased() == folded } ?? Self.unlistedName
    }

    /// What ``aliasedName(_:)`` answers when the name reaches an item that no name in the listing
    /// is: a cache of names that has not caught up (FUSE keeps a name's lookup about a second,
    /// so an item just moved away still answers under its other case).
    static let unlistedName = "an item the file system still reports under this name but no longer lists"

    /// Requires every folder above `path` on `side` to still be a real folder (`lstat`), so that
    /// nothing is written, moved or removed through a symbolic link that appeared since the scan:
    /// the kernel would follow it, outside the synced folder. Checked just before each change;
    /// a link planted between this check and the change itself is not caught (the gap a walk
    /// by folder descriptors would close).
    ///
    /// A replica without symbolic links (a WebDAV server) is asked nothing: no folder there can
    /// lead out of the tree, a write into a folder that became a file fails on its own (ENOENT),
    /// and each look would cost a request per folder, twice per copied file.
    ///
    /// - Throws: ``ApplyIssue/notAFolderOnTheWay(_:)`` naming the first folder that is not one.
    func requireRealFolders(above path: SyncPath, on side: Side) throws {
        guard can(side, .symbolicLinks) else { return }
        var folders: [SyncPath] = []
        var current = path.parent
        while let folder = current {
            folders.append(folder)
            current = folder.parent
        }
        for folder in folders.reversed() {
            // Missing is fine here: the change itself then fails with ENOENT, touching nothing.
            if let kind = try currentMetadata(url(folder, on: side), on: side)?.kind, kind != .directory {
                throw ApplyIssue.notAFolderOnTheWay(folder)
            }
        }
    }

    /// Whether an item still looks as the scan saw it (kind, size, date, identity); a server's
    /// file with a content tag by its tag, size and identity, whatever its date.
    static func sameItem(_ current: FileMetadata?, _ scanned: FileMetadata?) -> Bool {
        guard let current, let scanned else { return current == nil && scanned == nil }
        if current.kind == .file, scanned.kind == .file, current.contentTag != 0, scanned.contentTag != 0 {
            // A server's file: the same tag (ETag) is the same version by the server's word, and
            // its date may be the time of a copy (S3's).
            return current.contentTag == scanned.contentTag && current.size == scanned.size
                && current.fileIdentifier == scanned.fileIdentifier
        }
        return current.kind == scanned.kind && current.stamp == scanned.stamp
            && current.fileIdentifier == scanned.fileIdentifier
    }
}
