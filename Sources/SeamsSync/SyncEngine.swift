public import Foundation
public import SeamsCore

/// One sync of two folders: lock, load state, scan, decide, guard, apply, commit.
///
/// `SyncManager` and the `seams-sync` tool run it; tests run it on `InMemoryFileSystem`.
///
/// ```swift
/// let engine = SyncEngine(directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor())
/// let report = try engine.run(local: notes, container: mount, stateDirectory: state)
/// ```
public struct SyncEngine: Sendable {
    private let directories: any DirectoryAccessorProviding
    private let files: any FileAccessorProviding
    private let clock: @Sendable () -> Date
    private let owner: String
    private let makeRunID: @Sendable () -> String
    private let progress: @Sendable (Int, Int) -> Void
    private let scansConcurrently: Bool
    private let requestsInFlight: Int
    private let process: SyncProcess
    private let lockWait: @Sendable (TimeInterval) -> Void
    /// Where the work that goes at once runs; when set, copies go at once even where
    /// `scansConcurrently` is off (the crash suite's seeded interleavings: one call at a time, in
    /// an order the seed picks, so the n-th call is the same every run).
    package var interleaving: (any ConcurrentWork)?

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - directories: Lists, moves, copies, links, flushes.
    ///   - files: Reads and writes whole files (state, lock, content comparison).
    ///   - clock: The time now (trash ages, lock heartbeats, conflict dates).
    ///   - owner: Who runs, written into the lock (host and process by default).
    ///   - runID: Makes a short id per run for temp and trash names.
    ///   - progress: Told now and then how many of how many paths are done.
    ///   - scansConcurrently: Whether the two folders are scanned at the same time (the default),
    ///     and a server is sent several requests at once (`requestsInFlight`). Turn it off where
    ///     the order of I/O calls must be the same every run, as when a fault is injected at the
    ///     n-th call: then each request waits for the one before.
    ///   - requestsInFlight: At most this many requests to a WebDAV server at once, each waiting
    ///     on a thread of its own (``defaultRequestsInFlight`` by default): folders
    ///     listed together in the scan, files copied together to or from their temp names
    ///     beside their targets, and a flushed batch's new files moved together onto their free
    ///     names. Replacing a file, the trash and deletions still go one request at a time, in
    ///     plan order.
    ///   - process: Who runs (host, boot, process id), written into the lock so that a lock left
    ///     by a dead process of this host is taken over at once.
    ///   - lockWait: Waits while a lock of another host is watched for its expiry (real time by
    ///     default; a test moves its clock instead).
    ///   - remote: A WebDAV server whose collection may be the container: URLs it serves go to it,
    ///     every other URL to `directories` and `files`, and a copy between the two is an upload or
    ///     a download. `nil` (the default) when both folders are local.
    public init(
        directories: any DirectoryAccessorProviding,
        files: any FileAccessorProviding,
        clock: @escaping @Sendable () -> Date = { Date() },
        owner: String = "\(ProcessInfo.processInfo.hostName) pid \(ProcessInfo.processInfo.processIdentifier)",
        runID: @escaping @Sendable () -> String = { String(UInt32.random(in: 0...UInt32.max), radix: 36) },
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        scansConcurrently: Bool = true,
        requestsInFlight: Int = SyncEngine.defaultRequestsInFlight,
        process: SyncProcess = .current,
        lockWait: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
        remote: WebDAVAccessor? = nil
    ) {
        self.process = process
        self.lockWait = lockWait
        self.scansConcurrently = scansConcurrently
        precondition(requestsInFlight >= 1, "at least one request at a time")
        self.requestsInFlight = requestsInFlight
        self.progress = progress
        if let remote {
            let routing = RoutingAccessor(localDirectories: directories, localFiles: files, remote: remote)
            self.directories = routing
            self.files = routing
        } else {
            self.directories = directories
            self.files = files
        }
        self.clock = clock
        self.owner = owner
        self.makeRunID = runID
    }

    /// Syncs `local` with `container`.
    ///
    /// The run is synchronous and blocks its thread for as long as it works (file system calls
    /// do): call it from a thread of your own, not from a task of Swift's cooperative pool.
    /// ``SyncManager`` does that for you.
    ///
    /// - Parameters:
    ///   - local: The local folder.
    ///   - container: The container folder.
    ///   - stateDirectory: Where the pair's archive lives.
    ///   - options: Guards, dry run, retention.
    ///   - stop: Asks the run to stop at its next safe point; the report then carries
    ///     ``SyncReport/interruption``.
    ///   - progress: Told how many of how many paths are done; `nil` uses the engine's own.
    /// - Returns: What was done; paths that failed are listed in it.
    /// - Throws: ``SyncError`` when the run was refused or could not finish;
    ///   ``SyncError/interrupted`` when it was asked to stop before it changed anything.
    public func run(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions = SyncOptions(),
        stop: SyncStopToken? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws -> SyncReport {
        do {
            return try runChecked(
                local: local, container: container, stateDirectory: stateDirectory, options: options,
                stop: stop, progress: progress ?? self.progress)
        } catch let error as SyncError {
            throw Self.lostServer(error, container: container) ?? error
        } catch {
            let wrapped = SyncError.writeFailed(error, near: local)
            throw Self.lostServer(wrapped, container: container) ?? wrapped
        }
    }

    /// A read or write that failed because the server stopped answering, as ``SyncError/serverLost(_:reason:)``.
    private static func lostServer(_ error: SyncError, container: URL) -> SyncError? {
        guard !container.isFileURL else { return nil }
        switch error {
        case .readFailed(let url, let underlying), .writeFailed(let url, let underlying):
            guard !url.isFileURL, let code = underlying.posixCode,
                [.ECONNREFUSED, .ETIMEDOUT, .EHOSTUNREACH, .ECONNRESET].contains(code)
            else { return nil }
            return .serverLost(container, reason: serverReason(underlying.error))
        default:
            return nil
        }
    }

    private func runChecked(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions, stop: SyncStopToken?,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws -> SyncReport {
        let shouldStop: @Sendable () -> Bool = { stop?.isStopRequested ?? false }
        for root in [container, local] {
            let found: FileMetadata
            do {
                found = try directories.metadata(at: root)
            } catch {
                if root.isFileURL { throw SyncError.folderNotAvailable(root) }
                throw SyncError.serverNotAvailable(root, reason: Self.serverReason(error))
            }
            if found.kind != .directory {
                if root.isFileURL { throw SyncError.folderNotAvailable(root) }
                throw SyncError.serverNotAvailable(root, reason: "it is a file, not a collection")
            }
        }
        try FolderOverlap(directories: directories).check(local: local, container: container, state: stateDirectory)
        let start = clock()
        let runID = makeRunID()
        let store = ArchiveStore(
            directories: directories, files: files, stateDirectory: stateDirectory, localRoot: local, containerRoot: container)
        var lock: SyncLock?
        if !options.dryRun {
            let taken = SyncLock(
                in: container, owner: owner + " run " + runID, runID: runID, directories: directories, files: files,
                clock: clock, expiry: options.lockExpiry, process: process, wait: lockWait)
            try taken.acquire()
            taken.startHeartbeat()
            lock = taken
        }
        defer { lock?.release() }
        if !options.dryRun { try store.prepare() }
        var loaded = try store.load(moveAside: !options.dryRun, now: start)
        // One owner for the archive: the applier changes it in place, not a copy of every entry.
        var (archive, rebuilt) = (loaded.archive, loaded.rebuilt)
        loaded.archive = Archive(localRoot: archive.localRoot, containerRoot: archive.containerRoot)
        var (localScan, containerScan) = try scan(local: local, container: container, archive: archive, shouldStop: shouldStop)
        if shouldStop() { throw SyncError.interrupted }
        try complete(&localScan, &containerScan, local: local, container: container)
        // Tags of server files an older archive recorded without one, found unchanged: recorded
        // now, and the state committed even if nothing else changes.
        let learnedTags = !containerScan.learnedTags.isEmpty
        for (path, tag) in containerScan.learnedTags { archive.entries[path]?.containerTag = tag }
        containerScan.learnedTags = []
        let replica = ReplicaMarker(directories: directories, files: files, container: container)
        let check = ReplicaCheck(archive: archive, found: try replica.read())
        if check.mismatch != nil {
            // Not the replica the state describes: as a new pair, nothing is deleted anywhere.
            archive = Archive(localRoot: archive.localRoot, containerRoot: archive.containerRoot)
            rebuilt = true
            // Nothing is unchanged against no archive: every item's metadata is read.
            try complete(&localScan, &containerScan, local: local, container: container, everything: true)
        }
        let plan = Reconciler().plan(archive: archive, local: localScan, container: containerScan)
        try lock?.heartbeat()  // a scan may be long: stop here if the lock was lost meanwhile
        if !options.force { try checkGuards(plan, archive: archive, options: options) }
        var report: SyncReport
        if options.dryRun {
            report = SyncReport()
            report.dryRun = true
            report.planned = plan.changes.map { .init(path: $0.0.rawValue, action: $0.1.description) }
        } else {
            let mustCommit = rebuilt || loaded.fromOlderVersion || archive.replica == nil || learnedTags
            var context = ApplyContext(
                directories: directories, files: files, localRoot: local, containerRoot: container, runID: runID,
                trashFolderName: TrashPurger.folderName(startingAt: start, runID: runID),
                heartbeat: { [lock] in try lock?.heartbeat() }, progress: progress, shouldStop: shouldStop,
                mustCommit: mustCommit, placeMarker: { [next = check.next] in try replica.place(next, runID: runID) })
            context.batchCount = max(1, options.copyBatchCount)
            let atOnce = scansConcurrently || interleaving != nil
            context.copiesAtOnce = atOnce ? Self.localCopiesAtOnce : 1
            if !container.isFileURL {  // a WebDAV collection
                context.foldersAlwaysReal = [.container]
                context.copiesAtOnce = atOnce ? requestsInFlight : 1
            }
            if let interleaving { context.work = interleaving }
            var applier = Applier(context: context, plan: plan, archive: archive)
            archive = Archive(localRoot: archive.localRoot, containerRoot: archive.containerRoot)
            var newArchive = try applier.run()
            report = applier.report
            if applier.commitNeeded {
                // The applier placed and flushed the container's marker first: a crash before the
                // state's commit leaves a generation ahead of the state, which still matches.
                newArchive.replica = check.next
                try store.commit(newArchive, runID: runID, removingLegacyFile: loaded.fromLegacyFile)
            }
            if report.interruption == nil {
                let purger = TrashPurger(directories: directories, retention: options.trashRetention)
                for root in [local, container] {
                    if let refused = purger.purge(root: root, now: start).refused {
                        report.skipped.append(.init(path: root.appending(path: ApplyContext.trashName).path, reason: refused))
                    }
                }
            }
        }
        var reserved = Set<SyncPath>()
        for path in localScan.reserved + containerScan.reserved where reserved.insert(path).inserted {
            report.skipped.append(.init(
                path: path.rawValue,
                reason: "its name starts with .seams, which seams-sync keeps for its own files; rename it to sync it"))
        }
        report.rebuiltState = loaded.rebuilt
        report.replicaMismatch = check.mismatch
        return report
    }

    /// Reads again what one scan found unchanged where the other found a change or nothing (or
    /// every unchanged item, when `everything`): the plan decides those paths, and a scan
    /// compared with the archive kept only their paths.
    /// A path gone since the scan is left out; any other failure ends the run before it changes
    /// anything.
    private func complete(
        _ localScan: inout Snapshot, _ containerScan: inout Snapshot, local: URL, container: URL, everything: Bool = false
    ) throws {
        try Snapshot.complete(&localScan, &containerScan, everything: everything) { path, side in
            let url = path.url(in: side == .local ? local : container)
            do {
                return try directories.metadata(at: url)
            } catch let error as CocoaError
                where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile || error.posixCode == .ENOTDIR {
                return nil
            } catch {
                throw SyncError.readFailed(url, UnderlyingError(error))
            }
        }
    }

    /// Scans both folders, the two at the same time when `scansConcurrently` (they only read,
    /// and each mostly waits on the file system), each compared with `archive` on its side.
    private func scan(
        local: URL, container: URL, archive: Archive, shouldStop: @escaping @Sendable () -> Bool
    ) throws -> (Snapshot, Snapshot) {
        let expected = archive.entries.count
        let roots = [local, container]
        let scanner = Scanner(directories: directories)
        let readers = serverRequestsAtOnce
        // A thread of its own for the second scan (`mapOnThreads`): a Dispatch worker may be slow
        // to come when the pool is busy.
        let scans = mapOnThreads(2, width: scansConcurrently ? 2 : 1) { index in
            Result { () throws(SyncError) -> Snapshot in
                do {
                    return try scanner.scan(
                        roots[index], expectedCount: expected, comparedWith: archive, side: index == 0 ? .local : .container,
                        readers: roots[index].isFileURL ? 1 : readers, shouldStop: shouldStop)
                } catch is ScanStopped {
                    throw SyncError.interrupted
                } catch {
                    if roots[index].isFileURL { throw SyncError.folderNotAvailable(roots[index]) }
                    throw SyncError.serverNotAvailable(roots[index], reason: Self.serverReason(error))
                }
            }
        }
        return (try scans[0].get(), try scans[1].get())
    }

    /// How many requests go to a WebDAV server at once unless told otherwise: as many as a
    /// browser opens to one host.
    public static let defaultRequestsInFlight = 6

    /// How many files are copied to their temp names at once between local folders: two, so a
    /// copy's system calls on one core overlap another's on the other (the time of a copy is
    /// mostly the kernel's: creating the file, copying its bytes); one when the order of calls
    /// must not vary.
    static let localCopiesAtOnce = 2

    /// How many requests go to a server at once: one when the order of calls must not vary.
    private var serverRequestsAtOnce: Int { scansConcurrently ? requestsInFlight : 1 }

    /// Why a server's collection could not be read, in words: the HTTP status or the transport's
    /// failure the WebDAV accessor recorded, else the error number's.
    static func serverReason(_ error: any Error) -> String {
        let cocoa = error as? CocoaError
        if let reason = cocoa?.userInfo[NSLocalizedFailureReasonErrorKey] as? String { return reason }
        if let code = cocoa?.posixCode { return String(cString: strerror(code.rawValue)) }
        return String(describing: error)
    }

    private func checkGuards(_ plan: SyncPlan, archive: Archive, options: SyncOptions) throws {
        let known = archive.entries.count
        guard known > 0 else { return }
        for side in Side.allCases where plan.snapshot(side).isEmpty {
            throw SyncError.emptySide(side, known: known)
        }
        for side in Side.allCases {
            let count = plan.deletions(on: side)
            if count * 100 > options.maxDeletePercent * known {
                throw SyncError.tooManyDeletions(side, count: count, known: known, limitPercent: options.maxDeletePercent)
            }
        }
    }
}
