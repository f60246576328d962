import Foundation
import SeamsCore

/// The first stage: both roots are folders, they do not overlap each other or the state, the
/// container's lock is taken, the pair's state is loaded, and the container's identity is read
/// and checked against that state, all before anything is scanned. A container that is not the
/// replica the state describes is synced as a new pair: the archive handed on is then empty, so
/// the scans read every item once and nothing is deleted anywhere.
struct PrepareStage {
    let run: SyncRun
    let clock: @Sendable () -> Date
    let owner: String
    let makeRunID: @Sendable () -> String
    let process: SyncProcess
    let lockWait: @Sendable (TimeInterval) -> Void
    /// Where the state is kept between runs (``SyncWatcher``'s engine), or `nil`.
    var memory: StateMemory? = nil

    /// What the later stages need from this one, apart from the archive.
    struct Prepared {
        /// A short id unique to this run, in temp and trash names.
        let runID: String
        /// When the run started (trash folder names, trash ages).
        let start: Date
        /// The container's lock, held until the run ends (`nil` in a dry run, which takes none).
        let lock: SyncLock?
        /// Where the pair's state is read and committed.
        let store: ArchiveStore
        /// The container's `.seams-replica`, placed again at commit.
        let marker: ReplicaMarker
        /// Whether the container is the replica the state describes, and the identity to commit.
        let check: ReplicaCheck
        /// Whether the stored state was damaged or foreign and was set aside.
        let stateRebuilt: Bool
        /// Whether the state came from an older format (rewritten at commit).
        let fromOlderVersion: Bool
        /// Whether it came from the version 1 file, which the commit removes.
        let fromLegacyFile: Bool
        /// Whether the archive handed on has no identity yet (a first sync, or a state from
        /// before identities), so a commit must record one.
        let archiveHasNoIdentity: Bool

        /// Whether the state is committed even if no path changes.
        var mustCommit: Bool { stateRebuilt || check.mismatch != nil || fromOlderVersion || archiveHasNoIdentity }
    }

    /// Runs the stage.
    ///
    /// - Returns: What later stages need, and the archive to compare the scans with (empty on
    ///   the first sync, after a damaged state, or when the container is another replica).
    /// - Throws: ``SyncError`` when a root is not available, the folders overlap, the lock is
    ///   held, or the state or the marker cannot be read. The lock is released before it throws.
    func callAsFunction() throws -> (Prepared, Archive) {
        try checkRoots()
        try FolderOverlap(directories: run.localReplica.directories).check(
            local: run.local, container: run.container,
            containerHasLocalIdentities: run.can(.container, .localIdentities),
            state: run.stateDirectory)
        let start = clock()
        let runID = makeRunID()
        var lock: SyncLock?
        if !run.options.dryRun {
            let taken = SyncLock(
                in: run.containerReplica, owner: owner + " run " + runID, runID: runID, clock: clock,
                expiry: run.options.lockExpiry, process: process, wait: lockWait)
            try taken.acquire()
            taken.startHeartbeat()
            lock = taken
        }
        do {
            let store = ArchiveStore(
                directories: run.localReplica.directories, files: run.localReplica.files,
                stateDirectory: run.stateDirectory,
                localRoot: run.local,
                containerRoot: run.container,
                memory: memory)
            if !run.options.dryRun { try store.prepare() }
            let loaded = try store.load(moveAside: !run.options.dryRun, now: start)
            let marker = ReplicaMarker(replica: run.containerReplica)
            let check = ReplicaCheck(archive: loaded.archive, found: try marker.read())
            // Not the replica the state describes: as a new pair, nothing is deleted anywhere.
            let archive =
                check.mismatch == nil
                ? loaded.archive
                : Archive(localRoot: loaded.archive.localRoot, containerRoot: loaded.archive.containerRoot)
            let prepared = Prepared(
                runID: runID, start: start, lock: lock, store: store, marker: marker, check: check,
                stateRebuilt: loaded.rebuilt,
                fromOlderVersion: loaded.fromOlderVersion, fromLegacyFile: loaded.fromLegacyFile,
                archiveHasNoIdentity: archive.replica == nil)
            return (prepared, archive)
        } catch {
            lock?.release()
            throw error
        }
    }

    /// Both roots exist and are folders (a server's: collections).
    private func checkRoots() throws {
        for side in [Side.container, .local] {
            let root = run.root(side)
            let found: FileMetadata
            do {
                found = try run.replica(side).directories.metadata(at: root)
            } catch {
                guard run.can(side, .networked) else { throw SyncError.folderNotAvailable(root) }
                throw SyncError.serverNotAvailable(root, reason: SyncEngine.serverReason(error))
            }
            if found.kind != .directory {
                guard run.can(side, .networked) else { throw SyncError.folderNotAvailable(root) }
                throw SyncError.serverNotAvailable(root, reason: "it is a file, not a collection")
            }
        }
    }
}
