public import Foundation
public import SeamsCore

/// Keeps a pair in step as files change: `seams-sync watch`.
///
/// Syncs once at the start, then whenever the local side (and a local container) changes, after
/// a quiet time in which nothing more changed (a file still being written is waited for), and
/// every ``Settings/poll`` for a container that cannot be watched (a server). A sync started by
/// events lists only the folders the events name (``SyncScope``); both sides are listed whole at
/// the start, after events were lost (the kernel's queue overflowed, the watch limit was reached,
/// a root was unmounted), after the machine slept, and every ``Settings/fullScan``.
///
/// The state each sync loads or commits is kept in memory for the next, used only while the state
/// file is still the one it was kept for (another process's commit is read again).
///
/// Each sync is an ordinary ``SyncEngine`` run, with everything it guarantees: it takes the lock
/// for itself only, so other devices sync in between. A sync that fails (the container
/// unplugged, the server down, a guard refusing) is retried with back-off, its changes kept.
///
/// ```swift
/// let watcher = SyncWatcher(engine: engine)
/// let stop = SyncStopToken()
/// try watcher.run(local: notes, container: stick, stateDirectory: state, stop: stop) { event in
///     if case .synced(let sync) = event { print(sync.report.summary) }
/// }
/// ```
public struct SyncWatcher: Sendable {
    /// How the watcher times its syncs.
    public struct Settings: Hashable, Sendable {
        /// How long nothing must change before a sync starts.
        public var quiet: Duration = .milliseconds(200)
        /// How often a side that is not watched (a server) is listed whole.
        public var poll: Duration = .seconds(30)
        /// How often both sides are listed whole even when watched: once an hour catches what a
        /// watch cannot see (changes made through another mount of a network or FUSE file
        /// system, a folder changed while its watch was being added) at the cost of one whole
        /// scan an hour.
        public var fullScan: Duration = .seconds(3600)
        /// The longest wait between retries of a sync that failed (doubling from one second).
        public var longestRetry: Duration = .seconds(60)
        /// A wait that lasted this much longer than asked means the machine slept (or the
        /// process was stopped): both sides are listed whole then.
        public var sleepGap: Duration = .seconds(30)
        /// How often a wait looks whether the watcher was asked to stop.
        public var stopCheck: Duration = .milliseconds(250)

        /// The default settings.
        public init() {}
    }

    /// One sync the watcher ran.
    public struct Sync: Hashable, Sendable {
        /// What it did.
        public var report: SyncReport
        /// Which folders it listed.
        public var scope: SyncScope
        /// Why it ran.
        public var reason: Reason
    }

    /// Why a sync ran.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// The first sync.
        case start
        /// Files changed.
        case changes
        /// A side that is not watched was due to be listed.
        case poll
        /// Events were lost, the machine slept, or the periodic whole scan was due.
        case fullScan
        /// A sync that failed was tried again.
        case retry
    }

    /// What the watcher tells its caller.
    public enum Event: Sendable {
        /// A sync finished.
        case synced(Sync)
        /// A sync failed; the next try is in `retryIn`. Told once per distinct error, not at every retry.
        case waiting(SyncError, retryIn: Duration)
        /// A sync succeeded again after failures.
        case resumed
        /// A side is not watched (or lost its watch), and is listed whole at every poll; why.
        case notWatched(Side, reason: String)
    }

    private let engine: SyncEngine
    private let events: any FileEventSource
    private let settings: Settings

    /// Creates a watcher.
    ///
    /// - Parameters:
    ///   - engine: Runs each sync.
    ///   - events: Watches the folders (the system's by default).
    ///   - settings: Quiet time, poll interval, whole-scan interval, retries.
    public init(
        engine: SyncEngine, events: any FileEventSource = DefaultFileEventSource(), settings: Settings = Settings()
    ) {
        // One sync after another of one pair: the state each commits is kept for the next.
        var engine = engine
        engine.stateMemory = StateMemory()
        self.engine = engine
        self.events = events
        self.settings = settings
    }

    /// Watches and syncs until `stop` asks it to stop.
    ///
    /// - Parameters:
    ///   - local: The local folder.
    ///   - container: The container: a folder (watched too) or a server's collection (polled).
    ///   - stateDirectory: Where the pair's state lives.
    ///   - options: The options of every sync.
    ///   - stop: Asks the watcher to stop; a sync in progress stops at its next safe point.
    ///   - tell: Told of each sync, failure and recovery, on the watcher's thread.
    /// - Throws: ``SyncError/interrupted`` when stopped during a sync that had changed nothing.
    @available(*, noasync, message: "blocks its thread while it watches")
    public func run(
        local: URL, container: URL, stateDirectory: URL, options: SyncOptions = SyncOptions(), stop: SyncStopToken,
        tell: (Event) -> Void
    ) throws {
        let roots = container.isFileURL ? [local, container] : [local]
        let rules = try IgnoreRules(defaults: options.defaultExcludes, excludes: options.excludes)
        let leavingOut: @Sendable (Int, String) -> Bool = { _, folder in
            rules.ignoresPathOrFolderAbove(SyncPath(folder), isFolder: true)
        }
        var loop = Loop(settings: settings, watchedSides: roots.count)
        var watch = startWatch(roots, leavingOut: leavingOut, loop: &loop, tell: tell)
        defer { watch?.close() }
        let clock = events
        loop.start(at: clock.now)
        while !stop.isStopRequested {
            let now = clock.now
            if let (scope, reason) = loop.due(at: now) {
                do {
                    let report = try engine.run(
                        local: local, container: container, stateDirectory: stateDirectory, options: options,
                        stop: stop, scope: scope)
                    if report.interruption != nil { return }
                    if loop.succeeded(scope, report, at: clock.now) { tell(.resumed) }
                    tell(.synced(Sync(report: report, scope: scope, reason: reason)))
                    if loop.wantsWatch, reason == .poll || watch == nil {
                        watch?.close()
                        watch = startWatch(roots, leavingOut: leavingOut, loop: &loop, tell: tell)
                    }
                } catch SyncError.interrupted {
                    return
                } catch {
                    let error = error as? SyncError ?? SyncError.writeFailed(error, near: local)
                    if let retry = loop.failed(scope, error, at: clock.now) { tell(.waiting(error, retryIn: retry)) }
                }
                continue
            }
            let wait = min(loop.nextDue(after: now) - now, settings.stopCheck)
            let before = clock.now
            var batch = FileEvents()
            if let watch {
                batch = watch.next(waitingAtMost: max(wait, .zero))
            } else {
                clock.sleep(for: wait)
            }
            loop.slept(asked: wait, waited: clock.now - before)
            for root in batch.unwatched.sorted() where loop.toldLost.insert(root).inserted {
                tell(.notWatched(root == 0 ? .local : .container, reason: batch.reason))
            }
            loop.add(batch, at: clock.now)
        }
    }

    /// Starts the watch of `roots`; without one, every side is listed whole at every poll.
    private func startWatch(
        _ roots: [URL], leavingOut: @escaping @Sendable (Int, String) -> Bool, loop: inout Loop, tell: (Event) -> Void
    ) -> (any FileEventWatching)? {
        loop.wantsWatch = false
        do {
            let watch = try events.watch(roots, leavingOut: leavingOut)
            loop.unwatched = roots.count == 2 ? [] : [.container]
            loop.toldUnwatched = false
            return watch
        } catch {
            loop.unwatched = [.local, .container]
            // A platform without a watcher stays without; a watcher that failed is tried again.
            loop.wantsWatch = error != .unsupported
            guard !loop.toldUnwatched else { return nil }
            loop.toldUnwatched = true
            tell(.notWatched(.local, reason: error.description))
            return nil
        }
    }
}
