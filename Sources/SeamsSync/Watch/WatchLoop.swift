import SeamsCore

extension SyncWatcher {
    /// The folders a sync looks at again after paths failed or were skipped: each path's folder,
    /// and the path itself where it is a folder. The state kept what it knew of them, which may
    /// no longer be what is there (a folder kept because it held an ignored file).
    static func changes(retrying failures: [SyncReport.Problem]) -> ChangedFolders {
        var changes = ChangedFolders()
        for failure in failures {
            let path = SyncPath(failure.path)
            changes.folders.insert(path.parent?.rawValue ?? "")
            changes.folders.insert(path.rawValue)
        }
        return changes
    }

    /// The folders a sync looks at again after a sync changed their rules (``SyncReport/rulesChanged``):
    /// each with all it holds, and the folder above it, so that one gone since is seen gone.
    static func changes(relisting rulesChanged: [String]) -> ChangedFolders {
        var changes = ChangedFolders()
        for folder in rulesChanged {
            changes.trees.insert(folder)
            if !folder.isEmpty { changes.folders.insert(SyncPath(folder).parent?.rawValue ?? "") }
        }
        return changes
    }

    /// What a sync after `report` lists again on each side: the folders of the paths that failed
    /// or were skipped, and the folders whose rules it changed.
    static func changes(after report: SyncReport) -> ChangedFolders {
        var again = changes(retrying: report.failures + report.skipped)
        again.formUnion(changes(relisting: report.rulesChanged))
        return again
    }

    /// When the watcher syncs, and which folders each sync lists: a state machine over the
    /// watcher's clock, with no I/O of its own.
    struct Loop {
        let settings: Settings
        /// Sides listed whole at every poll: a server, a side whose watch was lost.
        var unwatched: Set<Side>
        /// Whether the watch should be started again (after a root was lost), at the next poll.
        var wantsWatch = false
        /// Whether the user was told that no watch could start (told once until one does).
        var toldUnwatched = false
        /// The roots whose lost watch the user was told of (once each).
        var toldLost: Set<Int> = []
        /// What changed on each side since the last sync began.
        private var pending: [Side: ChangedFolders] = [:]
        /// Sides the next sync lists whole.
        private var whole: Set<Side> = []
        /// Why the next whole listing is due.
        private var wholeReason = Reason.start
        /// When the last change was seen.
        private var lastChange: Duration?
        private var nextPoll = Duration.zero
        private var nextFull = Duration.zero
        /// A failed sync's retry: when, how long the wait was, and the error it failed with.
        private var retryAt: Duration?
        private var retryDelay = Duration.zero
        private var lastError: SyncError?

        init(settings: Settings, watchedSides: Int) {
            self.settings = settings
            unwatched = watchedSides == 2 ? [] : [.container]
        }

        /// The first sync, whole, now.
        mutating func start(at now: Duration) {
            whole = [.local, .container]
            wholeReason = .start
            nextPoll = now + settings.poll
            nextFull = now + settings.fullScan
        }

        /// The sync due at `now`, if one is: what it lists, and why. The changes it covers are
        /// taken; ``failed(_:_:at:)`` gives them back.
        mutating func due(at now: Duration) -> (SyncScope, Reason)? {
            if let retryAt, now < retryAt { return nil }
            if now >= nextFull {
                whole = [.local, .container]
                wholeReason = .fullScan
            }
            let polled = !unwatched.isEmpty && now >= nextPoll
            let quiet = lastChange.map { now - $0 >= settings.quiet } ?? false
            let changed = pending.values.contains { !$0.isEmpty }
            let reason: Reason
            if retryAt != nil {
                reason = .retry
            } else if !whole.isEmpty {
                reason = wholeReason
            } else if polled {
                reason = .poll
            } else if changed, quiet {
                reason = .changes
            } else {
                return nil
            }
            var listedWhole = whole
            if polled || reason == .retry { listedWhole.formUnion(unwatched) }
            func scope(_ side: Side) -> ChangedFolders? {
                listedWhole.contains(side) ? nil : pending[side] ?? ChangedFolders()
            }
            let scope = SyncScope(local: scope(.local), container: scope(.container))
            pending = [:]
            whole = []
            lastChange = nil
            return (scope, reason)
        }

        /// A sync of `scope` finished at `now` with `report`. Returns whether it ends a run of
        /// failures. Paths that failed are looked at again in a retry, with back-off.
        mutating func succeeded(_ scope: SyncScope, _ report: SyncReport, at now: Duration) -> Bool {
            if scope.local == nil || scope.container == nil { nextPoll = now + settings.poll }
            if scope.local == nil, scope.container == nil { nextFull = now + settings.fullScan }
            let recovered = lastError != nil
            lastError = nil
            // A path skipped (a folder kept for what it holds) may not be as the state says: the
            // next sync looks again, whenever it comes.
            // Nor may a folder whose rules the sync changed (what they leave out may be less now).
            var withoutFailures = report
            withoutFailures.failures = []
            let again = SyncWatcher.changes(after: withoutFailures)
            for side in Side.allCases { pending[side, default: ChangedFolders()].formUnion(again) }
            guard !report.failures.isEmpty else {
                (retryAt, retryDelay) = (nil, .zero)
                return recovered
            }
            let retried = SyncWatcher.changes(retrying: report.failures)
            for side in Side.allCases { pending[side, default: ChangedFolders()].formUnion(retried) }
            retryDelay = retryDelay == .zero ? .seconds(1) : min(retryDelay * 2, settings.longestRetry)
            retryAt = now + retryDelay
            return recovered
        }

        /// A sync of `scope` failed at `now` with `error`: its changes are kept for the retry,
        /// which waits twice as long as the last (one second first, ``Settings/longestRetry`` at
        /// most). Returns the wait when the error is not the one the last failure had (the
        /// user is told once, not at every retry).
        mutating func failed(_ scope: SyncScope, _ error: SyncError, at now: Duration) -> Duration? {
            for side in Side.allCases {
                if let changes = scope.changes(side) {
                    pending[side, default: ChangedFolders()].formUnion(changes)
                } else {
                    whole.insert(side)
                }
            }
            retryDelay = retryDelay == .zero ? .seconds(1) : min(retryDelay * 2, settings.longestRetry)
            retryAt = now + retryDelay
            defer { lastError = error }
            return error == lastError ? nil : retryDelay
        }

        /// A wait asked for `asked` lasted `waited`: much longer means the machine slept, and
        /// what changed meanwhile may not have been seen.
        mutating func slept(asked: Duration, waited: Duration) {
            guard waited - asked > settings.sleepGap else { return }
            whole = [.local, .container]
            wholeReason = .fullScan
        }

        /// Adds what a watch saw at `now`.
        mutating func add(_ events: FileEvents, at now: Duration) {
            guard !events.isEmpty else { return }
            for (root, changes) in events.changes where !changes.isEmpty {
                pending[root == 0 ? .local : .container, default: ChangedFolders()].formUnion(changes)
                lastChange = now
            }
            for root in events.lost.union(events.unwatched) {
                whole.insert(root == 0 ? .local : .container)
                wholeReason = .fullScan
            }
            for root in events.unwatched {
                unwatched.insert(root == 0 ? .local : .container)
                wantsWatch = true
            }
        }

        /// When the next sync may be due, as seen from `now`.
        func nextDue(after now: Duration) -> Duration {
            if let retryAt { return retryAt }
            if !whole.isEmpty { return now }
            var next = nextFull
            if !unwatched.isEmpty { next = min(next, nextPoll) }
            if let lastChange { next = min(next, lastChange + settings.quiet) }
            return next
        }
    }
}
