import Foundation
import SeamsCore

/// One side of a pair, as the engine's stages see it: where it is, and what it can do.
///
/// The stages, the lock and the container's marker decide by ``capabilities``, not by a
/// replica's type or its URL's scheme: how many listings and copies go at once, whether a folder
/// above a path can have become a link, how a temp file is made durable, how the lock is put in
/// place, what an unreachable root or a lost connection is called. A new kind of container (an
/// S3 bucket) declares its own.
///
/// Transfers between the two replicas go through the local side's own boundary: an upload reads
/// the file through it (or the transport streams the file, where the boundary is this machine's
/// file system), a download makes the file through it piece by piece
/// (`FileAccessorProviding.createFile(at:pieces:)`), so the in-memory file system of the crash
/// suites takes the path this machine's takes. A replace tries a swap only on a replica with
/// ``ReplicaCapabilities/atomicExchange``, and a conditional replace only on one with
/// ``ReplicaCapabilities/replaceIfUnchanged``.
///
/// Not yet so: both replicas are reached through one boundary that routes each URL to the local
/// file system or to the server (`RoutingAccessor`), and a replica does not carry its own I/O.
/// ``ReplicaCapabilities/contentTags``, ``ReplicaCapabilities/flush``,
/// ``ReplicaCapabilities/permissionsAndDates`` and ``ReplicaCapabilities/storeSideCopyAndMove``
/// are declared and not yet read: the boundary answers for them (a server's flush does nothing,
/// its dates cannot be set, a copy on one side is that side's copy).
protocol Replica: Sendable {
    /// The synced folder, or the server's collection.
    var root: URL { get }
    /// What this replica can do.
    var capabilities: ReplicaCapabilities { get }
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
    /// Copies and moves within the replica are done by the store itself (a server's `COPY`, `MOVE`).
    static let storeSideCopyAndMove = ReplicaCapabilities(rawValue: 1 << 11)
}

/// A folder on this machine's file systems (a disk, a USB stick, a mounted share).
struct LocalFolderReplica: Replica {
    let root: URL
    var capabilities: ReplicaCapabilities {
        [.symbolicLinks, .hardLinks, .atomicExchange, .flush, .permissionsAndDates, .localIdentities]
    }
}

/// A collection on a WebDAV server.
struct WebDAVReplica: Replica {
    let root: URL
    var capabilities: ReplicaCapabilities {
        [.networked, .durableWhenAnswered, .noReplaceMove, .replaceIfUnchanged, .contentTags, .storeSideCopyAndMove]
    }
}

/// The replica a URL belongs to: a `file:` URL is a local folder, any other a server's collection.
///
/// Where a URL's scheme decides what kind of replica it is: the engine's entry point, for both
/// roots, and the mapping of a failed request to a lost server. (How a URL is spelled, a path or
/// an absolute string, still follows its scheme in `SyncPath` and the state's file name.)
func replica(at root: URL) -> any Replica {
    root.isFileURL ? LocalFolderReplica(root: root) : WebDAVReplica(root: root)
}
