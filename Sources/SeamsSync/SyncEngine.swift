public import Foundation
public import SeamsCore
public import SeamsS3
public import SeamsWebDAV

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
    /// The WebDAV server whose collections may be containers.
    private let remote: WebDAVAccessor?
    /// The S3 bucket whose prefixes may be containers.
    private let objectStore: S3Accessor?
    private let clock: @Sendable () -> Date
    private let owner: String
    private let makeRunID: @Sendable () -> String
    private let progress: @Sendable (SyncProgress) -> Void
    private let scansConcurrently: Bool
    private let requestsInFlight: Int
    private let process: SyncProcess
    private let lockWait: @Sendable (TimeInterval) -> Void
    /// Where the work that goes at once runs; when set, copies go at once even where
    /// `scansConcurrently` is off (the crash suite's seeded interleavings: one call at a time, in
    /// an order the seed picks, so the n-th call is the same every run).
    package var interleaving: (any ConcurrentWork)?

    /// Where the state a run loaded or committed is kept for the next run, which then reads the
    /// state file only if it changed since (``SyncWatcher`` sets one; `nil`: every run reads it).
    var stateMemory: StateMemory?

    /// The paths a pass of a first sync takes at most (tests make passes small to have many).
    package var firstSyncPassItems = FirstSyncStage.passItems

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - directories: Lists, moves, copies, links, flushes.
    ///   - files: Reads and writes whole files (state, lock, content comparison).
    ///   - clock: The time now (trash ages, lock heartbeats, conflict dates).
    ///   - owner: Who runs, written into the lock (host and process by default).
    ///   - runID: Makes a short id per run for temp and trash names.
    ///   - progress: Told now and then how far a run is (``SyncProgress``): items found while it
    ///     scans, paths and bytes done while it applies its plan.
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
    ///   - remote: A WebDAV server whose collection may be the container: a container URL it
    ///     serves is a collection there, reached through it (a copy between it and the local
    ///     folder is an upload or a download); the local folder, the state and any other
    ///     container go to `directories` and `files`. `nil` (the default) when both folders are local.
    ///   - objectStore: An S3 bucket whose prefix may be the container: a container URL it serves
    ///     (`s3://bucket/prefix/`) is that prefix, reached through it. `nil` (the default) for none.
    public init(
        directories: any DirectoryAccessorProviding,
        files: any FileAccessorProviding,
        clock: @escaping @Sendable () -> Date = { Date() },
        owner: String = "\(ProcessInfo.processInfo.hostName) pid \(ProcessInfo.processInfo.processIdentifier)",
        runID: @escaping @Sendable () -> String = { String(UInt32.random(in: 0...UInt32.max), radix: 36) },
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in },
        scansConcurrently: Bool = true,
        requestsInFlight: Int = SyncEngine.defaultRequestsInFlight,
        process: SyncProcess = .current,
        lockWait: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
        remote: WebDAVAccessor? = nil,
        objectStore: S3Accessor? = nil
    ) {
        self.process = process
        self.lockWait = lockWait
        self.scansConcurrently = scansConcurrently
        precondition(requestsInFlight >= 1, "at least one request at a time")
        self.requestsInFlight = requestsInFlight
        self.progress = progress
        self.directories = directories
        self.files = files
        self.remote = remote
        self.objectStore = objectStore
        self.clock = clock
        self.owner = owner
        self.makeRunID = runID
    }

    /// Syncs `local` with `container`, from async code: the run goes to the engine's own threads
    /// and this task waits for it without holding a thread of Swift's cooperative pool.
    ///
    /// Parameters, result and errors are those of the synchronous overload, the one marked
    /// `noasync`. Cancelling the task does not
    /// stop the run: pass a ``SyncStopToken`` and ask it to stop (``SyncManager`` does).
    public func run(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions = SyncOptions(),
        stop: SyncStopToken? = nil, progress: (@Sendable (SyncProgress) -> Void)? = nil, scope: SyncScope = .full
    ) async throws -> SyncReport {
        try await BlockingExecutor.shared.run { [self] in
            try runBlocking(
                local: local, container: container, stateDirectory: stateDirectory, options: options, stop: stop,
                progress: progress, scope: scope)
        }
    }

    /// Syncs `local` with `container`.
    ///
    /// The run is synchronous and blocks its thread for as long as it works (file system calls
    /// do), so the compiler keeps it out of async code, where the `async` overload runs it on
    /// the engine's own threads.
    ///
    /// - Parameters:
    ///   - local: The local folder.
    ///   - container: The container folder.
    ///   - stateDirectory: Where the pair's archive lives.
    ///   - options: Guards, dry run, retention.
    ///   - stop: Asks the run to stop at its next safe point; the report then carries
    ///     ``SyncReport/interruption``.
    ///   - progress: Told how far the run is; `nil` uses the engine's own.
    ///   - scope: Which folders are listed: all of them (``SyncScope/full``, the default), or on
    ///     a side only those a watcher saw change, the rest taken as the state recorded it
    ///     (``SyncWatcher`` passes them).
    /// - Returns: What was done; paths that failed are listed in it.
    /// - Throws: ``SyncError`` when the run was refused or could not finish;
    ///   ``SyncError/interrupted`` when it was asked to stop before it changed anything.
    @available(*, noasync, message: "blocks its thread for the whole run; use the async overload from async code")
    public func run(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions = SyncOptions(),
        stop: SyncStopToken? = nil, progress: (@Sendable (SyncProgress) -> Void)? = nil, scope: SyncScope = .full
    ) throws -> SyncReport {
        try runBlocking(
            local: local, container: container, stateDirectory: stateDirectory, options: options, stop: stop,
            progress: progress, scope: scope)
    }

    private func runBlocking(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions, stop: SyncStopToken?,
        progress: (@Sendable (SyncProgress) -> Void)?, scope: SyncScope
    ) throws -> SyncReport {
        do {
            return try runChecked(
                local: local, container: container, stateDirectory: stateDirectory, options: options,
                stop: stop, progress: progress ?? self.progress, scope: scope)
        } catch let error as SyncError {
            throw Self.lostServer(error, container: replica(at: container)) ?? error
        } catch {
            let wrapped = SyncError.writeFailed(error, near: local)
            throw Self.lostServer(wrapped, container: replica(at: container)) ?? wrapped
        }
    }

    /// The replica at `root`: a collection of the engine's server when the server serves it,
    /// else a folder reached through the engine's local boundaries.
    func replica(at root: URL) -> any Replica {
        if let remote, !root.isFileURL, remote.serves(root) { return WebDAVReplica(root: root, server: remote) }
        if let objectStore, objectStore.serves(root) { return S3Replica(root: root, store: objectStore) }
        return LocalFolderReplica(root: root, directories: directories, files: files)
    }

    /// A read or write that failed because the server stopped answering, as ``SyncError/serverLost(_:reason:)``.
    private static func lostServer(_ error: SyncError, container: any Replica) -> SyncError? {
        guard container.capabilities.contains(.networked) else { return nil }
        switch error {
        case .readFailed(let url, let underlying), .writeFailed(let url, let underlying):
            guard url.absoluteString.hasPrefix(container.root.absoluteString), let code = underlying.posixCode,
                [.ECONNREFUSED, .ETIMEDOUT, .EHOSTUNREACH, .ECONNRESET].contains(code)
            else { return nil }
            return .serverLost(container.root, reason: serverReason(underlying.error))
        default:
            return nil
        }
    }

    /// The run as its stages: prepare → scan → plan → apply → commit → purge.
    private func runChecked(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions, stop: SyncStopToken?,
        progress: @escaping @Sendable (SyncProgress) -> Void, scope: SyncScope
    ) throws -> SyncReport {
        let run = SyncRun(
            localReplica: LocalFolderReplica(root: local, directories: directories, files: files),
            containerReplica: replica(at: container), stateDirectory: stateDirectory, options: options,
            shouldStop: { stop?.isStopRequested ?? false })
        let (prepared, loaded) = try PrepareStage(
            run: run, clock: clock, owner: owner, makeRunID: makeRunID, process: process, lockWait: lockWait,
            memory: stateMemory)()
        let archive = consume loaded
        defer { prepared.lock?.release() }
        let scan = ScanStage(
            run: run, concurrently: scansConcurrently, serverReaders: serverRequestsAtOnce, progress: progress,
            scope: scope)
        let apply = ApplyStage(
            run: run, prepared: prepared, progress: progress, concurrently: scansConcurrently,
            requestsInFlight: requestsInFlight, work: interleaving)
        var report: SyncReport
        let reserved: [SyncPath]
        let ignored: [SyncPath]
        if archive.entries.isEmpty, !options.dryRun, !run.can(.local, .networked), !run.can(.container, .networked) {
            // A first sync of two folders: in passes, in the memory of one.
            let done = try FirstSyncStage(
                run: run, scan: scan, apply: apply, progress: progress, passItems: firstSyncPassItems)(
                    from: archive, mustCommit: prepared.mustCommit)
            report = done.report
            (reserved, ignored) = (done.reserved, done.ignored)
            if done.commitNeeded { try CommitStage(prepared: prepared)(done.archive) }
            if report.interruption == nil { report.skipped += PurgeStage(run: run, start: prepared.start)() }
        } else {
            var archive = archive
            let scanned = try scan(comparedWith: archive)
            archive.entries.record(scanned.learned)
            try prepared.lock?.heartbeat()  // a scan may be long: stop here if the lock was lost meanwhile
            let plan = try PlanStage(
                options: options, containerDatedByServer: run.can(.container, [.contentTags, .datedByServer]))(
                    archive: archive, scanned: scanned)
            (reserved, ignored) = (scanned.reserved, scanned.ignored)
            if options.dryRun {
                report = SyncReport()
                report.dryRun = true
                report.planned = plan.changes.map { .init(path: $0.0.rawValue, action: $0.1.description) }
                report.moves = plan.moves.filter { $0.step != .back }.map {
                    .init(from: $0.from.rawValue, to: $0.to.rawValue, madeOn: $0.madeOn)
                }
            } else {
                let applied = try apply.startingFinalFlush(
                    plan, archive: consume archive, mustCommit: prepared.mustCommit || !scanned.learned.isEmpty)
                report = applied.report
                if applied.commitNeeded {
                    // The new state written while the last flush goes on; put in place after it.
                    try CommitStage(prepared: prepared)(applied.archive, after: applied.finalFlush)
                } else {
                    try applied.finalFlush.wait().get()
                }
                if report.interruption == nil { report.skipped += PurgeStage(run: run, start: prepared.start)() }
            }
        }
        for path in reserved {
            report.skipped.append(
                .init(
                    path: path.rawValue,
                    reason:
                        "its name starts with .seams, which seams-sync keeps for its own files; rename it to sync it"))
        }
        report.ignored = ignored.map(\.rawValue)
        report.rebuiltState = prepared.stateRebuilt
        report.replicaMismatch = prepared.check.mismatch
        return report
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
}
