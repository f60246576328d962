public import Foundation
public import Seams

/// A file watcher for an ``InMemoryFileSystem``, with its own clock: what a test does to the
/// file system, and what the code under test does to it, comes back as events, and time passes
/// only when a wait asks for it (the file system's clock moves with it). A watch loop runs
/// deterministically, with no sleeps.
///
/// Scheduled actions stand for the user: each runs when a wait reaches its time, and its
/// changes are the events that wait returns.
///
/// ```swift
/// let events = InMemoryFileEvents(fileSystem: fileSystem)
/// events.schedule(at: .seconds(5)) { fileSystem in
///     try fileSystem.write(Data("v2".utf8), to: notes.appending(path: "todo.txt"))
/// }
/// events.schedule(at: .seconds(10)) { _ in stop.requestStop() }
/// try SyncWatcher(engine: engine, events: events).run(local: notes, container: stick, stateDirectory: state, stop: stop) { _ in }
/// ```
///
/// Events follow the calls ``InMemoryFileSystem/calls`` records (so the file system must record
/// them): a change names its item's folder; a folder made, copied or moved in is new with all it
/// holds (so are the folders above one made with its intermediate folders).
public final class InMemoryFileEvents: FileEventSource, FileEventWatching {
    private struct Scheduled {
        let time: Duration
        let action: @Sendable (InMemoryFileSystem) throws -> Void
    }

    private struct State {
        var now = Duration.zero
        var cursor = 0
        var roots: [URL] = []
        var scheduled: [Scheduled] = []
        var lost = FileEvents()
        var watches = 0
        var isWatching = false
    }

    private let fileSystem: InMemoryFileSystem
    private let state = LockedValue(State())
    /// What ``watch(_:leavingOut:)`` throws instead of watching (`nil`: it watches).
    public let failure: FileWatchError?

    /// Creates a watcher of `fileSystem`, at time zero.
    ///
    /// - Parameters:
    ///   - fileSystem: The file system whose changes are reported.
    ///   - failure: When given, every watch fails with it (a platform without a watcher).
    public init(fileSystem: InMemoryFileSystem, failure: FileWatchError? = nil) {
        self.fileSystem = fileSystem
        self.failure = failure
    }

    /// Runs `action` on the file system when a wait reaches `time`.
    public func schedule(at time: Duration, _ action: @escaping @Sendable (InMemoryFileSystem) throws -> Void) {
        state.withLock { state in
            state.scheduled.append(Scheduled(time: time, action: action))
            state.scheduled.sort { $0.time < $1.time }
        }
    }

    /// Moves the clock on without a wait: the machine slept for `duration`.
    public func sleepMachine(for duration: Duration) {
        state.withLock { $0.now += duration }
        advanceFileSystem(by: duration)
    }

    /// Moves the file system's clock on with this one's, so files written later are dated later.
    private func advanceFileSystem(by duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        fileSystem.advanceTime(by: Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Reports the next wait as having lost `root`'s events (the kernel's queue overflowed), or
    /// as no longer watching it (`unwatched`: unmounted, removed).
    public func loseEvents(of root: Int, unwatched: Bool = false, reason: String = "the test lost them") {
        state.withLock { state in
            if unwatched { state.lost.unwatched.insert(root) } else { state.lost.lost.insert(root) }
            state.lost.reason = reason
        }
    }

    /// How many watches were started.
    public var watchCount: Int { state.withLock(\.watches) }

    // MARK: - FileEventSource

    /// Starts watching `roots` (the rules' folders are reported too: the code under test must
    /// leave them out itself, as it must where a watch of a folder began before a rule did).
    public func watch(_ roots: [URL], leavingOut: @escaping @Sendable (Int, String) -> Bool)
        throws(FileWatchError) -> any FileEventWatching
    {
        if let failure { throw failure }
        let count = fileSystem.calls.count
        state.withLock { state in
            state.roots = roots
            state.cursor = count
            state.watches += 1
            state.isWatching = true
        }
        return self
    }

    /// The clock's time.
    public var now: Duration { state.withLock(\.now) }

    /// Waits without a watch: runs what is scheduled in that time, and moves the clock on.
    public func sleep(for duration: Duration) {
        _ = next(waitingAtMost: duration)
    }

    // MARK: - FileEventWatching

    /// The changes made since the last look; when there are none, runs the first action
    /// scheduled within `timeout` and returns its changes (the clock at its time), else moves
    /// the clock on by `timeout` and returns none.
    public func next(waitingAtMost timeout: Duration) -> FileEvents {
        var events = collect()
        if !events.isEmpty { return events }
        let (due, passed): (Scheduled?, Duration) = state.withLock { state in
            let start = state.now
            let deadline = state.now + max(timeout, .zero)
            guard let first = state.scheduled.first, first.time <= deadline else {
                state.now = deadline
                return (nil, deadline - start)
            }
            state.scheduled.removeFirst()
            state.now = max(state.now, first.time)
            return (first, state.now - start)
        }
        advanceFileSystem(by: passed)
        guard let due else { return events }
        try? due.action(fileSystem)
        events = collect()
        return events
    }

    /// Stops watching.
    public func close() {
        state.withLock { $0.isWatching = false }
    }

    /// Events for the calls recorded since the last look.
    private func collect() -> FileEvents {
        let calls = fileSystem.calls
        var events = state.withLock { state in
            defer { state.lost = FileEvents() }
            return state.lost
        }
        let (roots, start, watching) = state.withLock { state in
            let start = state.cursor <= calls.count ? state.cursor : 0
            state.cursor = calls.count
            return (state.roots, start, state.isWatching)
        }
        guard watching else { return events }
        for call in calls[start...] where call.operation.isWriting && call.error == nil {
            for (url, isTarget) in [(call.url, false), (call.destination, true)] {
                guard let url, let (root, path) = Self.locate(url, in: roots) else { continue }
                let madeFolder =
                    call.operation == .createDirectory
                    || (isTarget && (call.operation == .moveItem || call.operation == .copyItem)
                        && (try? fileSystem.metadata(at: url))?.kind == .directory)
                events.record(path, in: root, isNewFolder: madeFolder)
                if call.operation == .createDirectory {
                    // Made with its intermediate folders, perhaps: those above may be new too.
                    var parts = path.split(separator: "/").dropLast()
                    while !parts.isEmpty {
                        events.record(parts.joined(separator: "/"), in: root, isNewFolder: true)
                        parts = parts.dropLast()
                    }
                }
            }
        }
        return events
    }

    /// The root `url` is under, and its path relative to it.
    private static func locate(_ url: URL, in roots: [URL]) -> (Int, String)? {
        let path = url.standardizedFileURL.path(percentEncoded: false)
        for (index, root) in roots.enumerated() {
            var prefix = root.standardizedFileURL.path(percentEncoded: false)
            if !prefix.hasSuffix("/") { prefix += "/" }
            if path.hasPrefix(prefix), path.count > prefix.count {
                var relative = String(path.dropFirst(prefix.count))
                if relative.hasSuffix("/") { relative.removeLast() }
                return (index, relative)
            }
        }
        return nil
    }
}
