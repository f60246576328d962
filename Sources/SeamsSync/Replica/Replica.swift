import Foundation
import SeamsCore
import SeamsS3
import SeamsWebDAV

/// One side of a pair, as the engine's stages see it: where it is, what it can do, and the
/// boundaries through which the engine touches it.
///
/// The stages, the lock and the container's marker decide by ``capabilities``, not by a
/// replica's type or its URL's scheme: how many listings and copies go at once, whether a folder
/// above a path can have become a link, how a temp file is made durable, whether a flush is
/// asked for, how the lock is put in place, what an unreachable root or a lost connection is
/// called. Every call on one side goes through that side's own ``directories`` and ``files``; a
/// copy from one side to the other goes through ``ReplicaTransfers``. A new kind of container
/// (an S3 bucket) is a new conformer, with its own capabilities and boundaries.
///
/// The state's folder is always on this machine's file system, and is reached through the local
/// replica's boundaries.
protocol Replica: Sendable {
    /// The synced folder, or the server's collection.
    var root: URL { get }
    /// What this replica can do.
    var capabilities: ReplicaCapabilities { get }
    /// Lists, moves, copies, links and flushes on this replica.
    var directories: any DirectoryAccessorProviding { get }
    /// Reads and writes whole files on this replica.
    var files: any FileAccessorProviding { get }

    /// Moves `source` over `destination` only while `destination` is still `expected`, in one
    /// step on the replica (a server's `MOVE` with an `If` condition on the target's ETag); for
    /// a replica with ``ReplicaCapabilities/replaceIfUnchanged``. The applier uses it for the
    /// last step of a replace that has no atomic exchange: a change saved at the target after
    /// its last look then becomes a conflict, not an overwrite.
    ///
    /// - Returns: `false` when `destination` is no longer `expected`: nothing was moved.
    /// - Throws: ENOTSUP on a replica without the capability; the replica's errors.
    func moveItem(at source: URL, over destination: URL, ifStill expected: FileMetadata) throws -> Bool

    /// Writes `data` over the file at `url` only while it is still `expected`, for a replica
    /// with ``ReplicaCapabilities/replaceIfUnchanged``: by default `data` is written to `temp`
    /// and moved over with ``moveItem(at:over:ifStill:)``; S3 writes it in place with `If-Match`.
    /// The lock's heartbeat uses it, so a lock another run took over is never overwritten.
    ///
    /// - Returns: `false` when `url` is gone or no longer `expected`: nothing was replaced (and
    ///   `temp` is removed).
    func replace(_ url: URL, with data: Data, ifStill expected: FileMetadata, staging temp: URL) throws -> Bool

    /// The metadata of the file this run just moved into place at `url`, whose temp file read
    /// `copied`: `copied` where a move keeps a file's metadata (a rename, a server's `MOVE`); what
    /// the move's own answer gave where it does not (S3's copy dates the object anew), so the
    /// next run sees the file as this run left it, not as changed.
    func metadata(placedAt url: URL, copied: FileMetadata) -> FileMetadata

    /// The metadata of the version at `url` that this run's last write there made, where the
    /// replica knows it without a request (S3: the ETag the `PutObject` answered); `nil` where it
    /// does not. The lock's heartbeat replaces its own last version with it, in one request.
    func versionWritten(at url: URL) -> FileMetadata?

    /// Checks, once the lock at `url` holding `data` was created exclusively, that the replica
    /// really refuses a second exclusive create of it, where a server could accept the request
    /// and ignore its condition (an S3 server that ignores `If-None-Match`). Without that refusal
    /// two devices could overwrite each other's files, so the run must not go on.
    ///
    /// - Throws: ``SyncError/serverNotAvailable(_:reason:)`` when the second create was accepted;
    ///   the replica's errors.
    func checkExclusiveCreate(at url: URL, holding data: Data) throws

    /// Called before the scan lists this replica whole: fetches ahead what it will list where the
    /// replica lists faster so (an S3 bucket: flat listings, one request per 1,000 objects
    /// instead of one per folder; a WebDAV server: one `PROPFIND` with `Depth: infinity`, where
    /// it answers one and the tree is not too large for one answer). A failure here is left for
    /// the scan's own listings to meet. Not called for a scan of some folders only (a watcher's
    /// sync of the folders its events named).
    ///
    /// - Parameter count: How many items the last sync recorded (0 for a new pair).
    func beginListing(expecting count: Int)

    /// Called when the scan has listed this replica: drops what was fetched ahead and not used.
    func endListing()

    /// Frees what an interrupted run left on the replica beside its temp files, which the scan
    /// finds and removes: an S3 bucket's incomplete multipart uploads to the tool's temp names
    /// under the root, whose parts take space until aborted. Called once a run has finished,
    /// under its lock, so no run of this tool is writing them.
    ///
    /// - Returns: Why something could not be freed, or `nil`.
    func removeAbandonedUploads() -> String?

    /// The largest new file this replica writes straight to its name
    /// (``ReplicaCapabilities/wholeExclusiveCreate``); 0 where it has no such write.
    var wholeCreateLimit: Int64 { get }

    /// Writes the bytes `contents` reads (about `size` of them) as a new file at `url`, whole or
    /// not at all, refused when the name is taken; for a replica with
    /// ``ReplicaCapabilities/wholeExclusiveCreate``. `contents` is called once, when the write
    /// can start (S3 lets only a few large bodies into memory at once).
    ///
    /// - Returns: The new file's metadata, as the write's answer gave it.
    /// - Throws: EEXIST when the name is taken (nothing was written); what `contents` throws;
    ///   ENOTSUP on a replica without the capability; the replica's errors.
    func createWhole(at url: URL, size: Int64, contents: () throws -> Data) throws -> FileMetadata
}

extension Replica {
    func moveItem(at source: URL, over destination: URL, ifStill expected: FileMetadata) throws -> Bool {
        throw CocoaError.fileSystemError(errno: ENOTSUP, path: destination.absoluteString, writing: true)
    }

    func metadata(placedAt url: URL, copied: FileMetadata) -> FileMetadata { copied }

    func versionWritten(at url: URL) -> FileMetadata? { nil }

    func replace(_ url: URL, with data: Data, ifStill expected: FileMetadata, staging temp: URL) throws -> Bool {
        try files.write(data, to: temp)
        guard try moveItem(at: temp, over: url, ifStill: expected) else {
            try? directories.removeItem(at: temp, recursively: false)
            return false
        }
        return true
    }

    func removeAbandonedUploads() -> String? { nil }

    var wholeCreateLimit: Int64 { 0 }

    func createWhole(at url: URL, size: Int64, contents: () throws -> Data) throws -> FileMetadata {
        throw CocoaError.fileSystemError(errno: ENOTSUP, path: url.absoluteString, writing: true)
    }

    func checkExclusiveCreate(at url: URL, holding data: Data) throws {}

    func beginListing(expecting count: Int) {}

    func endListing() {}

    /// Whether this replica can do all of `capabilities`.
    func can(_ capabilities: ReplicaCapabilities) -> Bool { self.capabilities.isSuperset(of: capabilities) }

    /// Makes the files' contents and the folders' names durable, on a replica that is made
    /// durable by a flush (``ReplicaCapabilities/flush``); on one whose writes are durable when
    /// answered, nothing is asked.
    func flush(files: [URL], folders: [URL]) throws {
        guard can(.flush), !files.isEmpty || !folders.isEmpty else { return }
        try directories.synchronize(files: files, directories: folders)
    }

    /// Makes one file's contents durable (see ``flush(files:folders:)``).
    func flush(file: URL) throws {
        guard can(.flush) else { return }
        try directories.synchronizeFile(at: file)
    }

    /// Makes one folder's names durable (see ``flush(files:folders:)``).
    func flush(folder: URL) throws {
        guard can(.flush) else { return }
        try directories.synchronizeDirectory(at: folder)
    }
}

/// A replica whose files are not on this machine's file system: a file comes to a local folder
/// by download and goes to the replica by upload, each through the local side's own boundaries.
protocol RemoteReplica: Replica {
    /// Writes the local file `source` (read through `local`'s boundaries) to `destination`, a
    /// name on this replica that nothing else writes; whole or not at all.
    func upload(_ source: URL, from local: any Replica, to destination: URL) throws

    /// Makes the new local file `destination` (through `local`'s boundaries) from this
    /// replica's file `source`; whole or not at all.
    func download(_ source: URL, to destination: URL, in local: any Replica) throws
}

/// What a replica can do.
struct ReplicaCapabilities: OptionSet, Hashable, Sendable {
    let rawValue: UInt32

    /// Each call is a request that mostly waits on a network: listings and copies go several at
    /// once, a root that cannot be reached is a server not available, and a connection lost
    /// mid-run is the server lost.
    static let networked = ReplicaCapabilities(rawValue: 1 << 0)
    /// It can hold symbolic links, so a folder seen in the scan can have become one since: the
    /// folders above a path are looked at just before each change there.
    static let symbolicLinks = ReplicaCapabilities(rawValue: 1 << 1)
    /// Hard links, as far as it is known before trying (FAT and exFAT answer EPERM at run time,
    /// and the engine falls back to copies and exclusive creates).
    static let hardLinks = ReplicaCapabilities(rawValue: 1 << 2)
    /// A write is durable once the call returns (a server writes a body whole before it answers):
    /// a temp file is one write, where a file system's needs an exclusive create and a flush.
    static let durableWhenAnswered = ReplicaCapabilities(rawValue: 1 << 3)
    /// A move that refuses an existing target, in one atomic step (`MOVE` with `Overwrite: F`).
    static let noReplaceMove = ReplicaCapabilities(rawValue: 1 << 4)
    /// Two items can be swapped in one step (`renameat2(RENAME_EXCHANGE)`, `renamex_np(RENAME_SWAP)`).
    static let atomicExchange = ReplicaCapabilities(rawValue: 1 << 5)
    /// A file can be replaced only while it is still the version last read (a conditional `MOVE`).
    static let replaceIfUnchanged = ReplicaCapabilities(rawValue: 1 << 6)
    /// Files carry a tag that changes with every write (an ETag).
    static let contentTags = ReplicaCapabilities(rawValue: 1 << 7)
    /// Writes are made durable by a flush (`fsync`, `F_FULLFSYNC`).
    static let flush = ReplicaCapabilities(rawValue: 1 << 8)
    /// Permission bits and modification dates can be set.
    static let permissionsAndDates = ReplicaCapabilities(rawValue: 1 << 9)
    /// Items have this machine's identities (volume and item numbers), so two roots and the state
    /// folder can be checked for overlap.
    static let localIdentities = ReplicaCapabilities(rawValue: 1 << 10)
    /// Copies and moves within the replica are done by the store itself (a file system's copy and
    /// rename, a server's `COPY` and `MOVE`), with no bytes through this machine's memory.
    static let storeSideCopyAndMove = ReplicaCapabilities(rawValue: 1 << 11)
    /// An item's date is the server's time of its last write, a copy's and a move's included
    /// (S3's `Last-Modified`), not its version's: a file there is known by its size and content
    /// tag, and a date that changed with them unchanged is no change.
    static let datedByServer = ReplicaCapabilities(rawValue: 1 << 12)
    /// A new file (up to ``Replica/wholeCreateLimit`` bytes) can be written straight to its name,
    /// whole or not at all and refused when the name is taken (S3's `PutObject` with
    /// `If-None-Match: *`): one request, no temp name and no move
    /// (``Replica/createWhole(_:at:)``).
    static let wholeExclusiveCreate = ReplicaCapabilities(rawValue: 1 << 13)
}

/// A folder on this machine's file systems (a disk, a USB stick, a mounted share).
struct LocalFolderReplica: Replica {
    let root: URL
    let directories: any DirectoryAccessorProviding
    let files: any FileAccessorProviding

    var capabilities: ReplicaCapabilities {
        [
            .symbolicLinks, .hardLinks, .atomicExchange, .flush, .permissionsAndDates, .localIdentities,
            .storeSideCopyAndMove,
        ]
    }
}

/// A collection on a WebDAV server, reached through its accessor.
struct WebDAVReplica: RemoteReplica {
    let root: URL
    let server: WebDAVAccessor

    var capabilities: ReplicaCapabilities {
        [.networked, .durableWhenAnswered, .noReplaceMove, .replaceIfUnchanged, .contentTags, .storeSideCopyAndMove]
    }
    var directories: any DirectoryAccessorProviding { server }
    var files: any FileAccessorProviding { server }

    /// ``WebDAVAccessor/moveItem(at:to:ifStill:)``: `MOVE` with `If` on the target's ETag.
    func moveItem(at source: URL, over destination: URL, ifStill expected: FileMetadata) throws -> Bool {
        try server.moveItem(at: source, to: destination, ifStill: expected)
    }

    /// One `PUT` with `If-None-Match: *` (``WebDAVAccessor/upload(contentsOf:from:toNewName:)``),
    /// not an exclusive create under a `LOCK`: the engine uploads only to its own temp names,
    /// which hold the run's random id, so no other client makes the same name.
    func upload(_ source: URL, from local: any Replica, to destination: URL) throws {
        try server.upload(contentsOf: source, from: local.files, toNewName: destination)
    }

    /// Ranged `GET`s, each piece written as it comes (``WebDAVAccessor/download(_:toNewFile:in:)``).
    func download(_ source: URL, to destination: URL, in local: any Replica) throws {
        try server.download(source, toNewFile: destination, in: local.files)
    }

    /// The tree in one `PROPFIND` with `Depth: infinity` where the server answers one and the
    /// last sync recorded at most ``WebDAVAccessor/treeListingLimit`` items; the trash is dropped
    /// from it (listed only if the scan asks): ``WebDAVAccessor/beginTreeListing(at:expecting:skipping:)``.
    func beginListing(expecting count: Int) {
        _ = try? server.beginTreeListing(at: root, expecting: count, skipping: OwnNames.isOwn)
    }

    func endListing() {
        server.endTreeListing()
    }
}

/// A prefix of an S3 bucket, reached through its accessor: objects for files, `name/` markers
/// and key prefixes for folders.
///
/// A new file of up to a part (8 MiB) is one `PutObject` with `If-None-Match: *` straight to its
/// name (``ReplicaCapabilities/wholeExclusiveCreate``): whole or not at all, refused when the
/// name is taken. What S3 cannot do in one step, the engine does on the paths it has for such
/// replicas: a move is a copy and a delete on the server (cut off, the file is at both names: a
/// leftover temp file or a duplicate, never a loss); a larger new file goes in parts to a temp
/// name and is copied into place (no no-replace move: its name is looked at first); a replaced
/// file is written with `If-Match` on its ETag (up to 1 MiB) or has its ETag looked at just
/// before the copy over it.
struct S3Replica: RemoteReplica {
    let root: URL
    let store: S3Accessor

    var capabilities: ReplicaCapabilities {
        [
            .networked, .durableWhenAnswered, .replaceIfUnchanged, .contentTags, .storeSideCopyAndMove, .datedByServer,
            .wholeExclusiveCreate,
        ]
    }
    var directories: any DirectoryAccessorProviding { store }
    var files: any FileAccessorProviding { store }

    /// ``S3Accessor/moveItem(at:to:ifStill:)``: one `PutObject` with `If-Match` for a file of
    /// up to 1 MiB; for a larger one, the ETag looked at just before the copy.
    func moveItem(at source: URL, over destination: URL, ifStill expected: FileMetadata) throws -> Bool {
        try store.moveItem(at: source, to: destination, ifStill: expected)
    }

    /// One `PutObject` with `If-Match` (``S3Accessor/replace(_:with:ifStill:)``); `temp` is not used.
    func replace(_ url: URL, with data: Data, ifStill expected: FileMetadata, staging temp: URL) throws -> Bool {
        try store.replace(url, with: data, ifStill: expected)
    }

    /// A file that fits one `PutObject` (a part, 8 MiB by default): a larger one goes in parts to
    /// a temp name, so an upload cut off is one the next run knows as its own and aborts.
    var wholeCreateLimit: Int64 { Int64(store.partSize) }

    /// One `PutObject` with `If-None-Match: *` (``S3Accessor/createObject(at:size:contents:)``).
    func createWhole(at url: URL, size: Int64, contents: () throws -> Data) throws -> FileMetadata {
        try store.createObject(at: url, size: size, contents: contents)
    }

    /// The object the copy into place made (``S3Accessor/placedObject(at:)``).
    func metadata(placedAt url: URL, copied: FileMetadata) -> FileMetadata {
        store.placedObject(at: url) ?? copied
    }

    /// The object the last write at `url` made, as its answer gave it (``S3Accessor/writtenObject(at:)``).
    func versionWritten(at url: URL) -> FileMetadata? {
        store.writtenObject(at: url)
    }

    /// The lock created again with `If-None-Match: *` (its own bytes, so nothing changes either
    /// way) must be refused with 412: a server that accepts it ignores the condition every write
    /// of the engine relies on (`rclone serve s3` 1.75 is one).
    func checkExclusiveCreate(at url: URL, holding data: Data) throws {
        do {
            try store.createFile(data, at: url)
        } catch let error as CocoaError where error.posixCode == .EEXIST || error.code == .fileWriteFileExists {
            return
        }
        throw SyncError.serverNotAvailable(
            root,
            reason:
                "the server accepted a write it was told to refuse (If-None-Match: *), so it cannot keep two devices from overwriting each other's files; nothing was synced"
        )
    }

    /// Flat listings of each folder at the root but the tool's own (the trash is listed only if
    /// the scan asks): ``S3Accessor/beginTreeListing(at:skipping:)``.
    func beginListing(expecting count: Int) {
        try? store.beginTreeListing(at: root, skipping: OwnNames.isOwn)
    }

    func endListing() {
        store.endTreeListing()
    }

    /// Aborts the multipart uploads under the root to the tool's temp names (a killed run's).
    func removeAbandonedUploads() -> String? {
        do {
            for upload in try store.abandonedUploads(under: root, where: Snapshot.isTemporaryName) {
                try store.abort(upload)
            }
            return nil
        } catch {
            return "incomplete uploads of an interrupted run could not be aborted: \(SyncEngine.serverReason(error))"
        }
    }

    /// `PutObject` with `If-None-Match: *`, in parts for a large file
    /// (``S3Accessor/upload(contentsOf:from:toNewName:)``).
    func upload(_ source: URL, from local: any Replica, to destination: URL) throws {
        try store.upload(contentsOf: source, from: local.files, toNewName: destination)
    }

    /// Ranged `GET`s with `If-Match`, each piece written as it comes (``S3Accessor/download(_:toNewFile:in:)``).
    func download(_ source: URL, to destination: URL, in local: any Replica) throws {
        try store.download(source, toNewFile: destination, in: local.files)
    }
}
