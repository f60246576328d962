public import Foundation
public import Seams

/// A decorator that fails chosen calls of any file-system implementation (live or fake) with
/// realistic Foundation errors, "crashes" at a chosen call, and records every call.
///
/// ```swift
/// let fileSystem = FaultInjectingFileSystem(wrapping: InMemoryFileSystem())
/// fileSystem.addRule(.operation(.write, fails: .diskFull))
/// #expect(throws: CocoaError(.fileWriteOutOfSpace)) { try fileSystem.write(data, to: url) }
///
/// let live = FaultInjectingFileSystem(files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor())
/// live.scheduleCrash(atCall: 4)   // call 4 and every later one throw SimulatedCrash
/// ```
///
/// A failed or crashed call never reaches the wrapped implementation. `fileExists(at:)` cannot
/// throw: when failed it answers `false`. Race-free: state is behind a lock (`LockedValue`).
public final class FaultInjectingFileSystem: Sendable {
    struct ActiveRule: Sendable {
        var rule: FaultRule
        var matched = 0
        var fired = 0
    }

    struct State: Sendable {
        var rules: [ActiveRule] = []
        var calls: [FileSystemCall] = []
        var countdown = CallCountdown(cause: .crash)
        /// Actions to run just before a call is made, by the call's number.
        var actions: [Int: [@Sendable () -> Void]] = [:]
        var ignoredFlushes: [(operation: FileSystemOperation, applies: @Sendable (URL) -> Bool)] = []
    }

    let files: any FileAccessorProviding
    let directories: any DirectoryAccessorProviding
    let containers: (any FileSystemProviding)?
    let bookmarks: (any BookmarkStorageProviding)?
    let state = LockedValue(State())

    /// Wraps separate implementations of each protocol.
    ///
    /// - Parameters:
    ///   - files: Reads and writes whole files.
    ///   - directories: Works on the tree.
    ///   - containers: Answers `containerURL(for:)`; without one the answer is `nil`.
    ///   - bookmarks: Stores bookmarks; without one, saves are dropped and loads answer `nil`.
    public init(
        files: any FileAccessorProviding,
        directories: any DirectoryAccessorProviding,
        containers: (any FileSystemProviding)? = nil,
        bookmarks: (any BookmarkStorageProviding)? = nil
    ) {
        self.files = files
        self.directories = directories
        self.containers = containers
        self.bookmarks = bookmarks
    }

    /// Wraps an ``InMemoryFileSystem`` (or anything else that is all four protocols).
    ///
    /// - Parameter base: The implementation every call that is not failed goes to.
    public convenience init(
        wrapping base: some FileAccessorProviding & DirectoryAccessorProviding & FileSystemProviding
            & BookmarkStorageProviding
    ) {
        self.init(files: base, directories: base, containers: base, bookmarks: base)
    }

    /// Adds a rule; rules are tried in the order added and the first that fires wins.
    ///
    /// - Parameter rule: Which calls to fail and how.
    public func addRule(_ rule: FaultRule) {
        state.withLock { $0.rules.append(ActiveRule(rule: rule)) }
    }

    /// Removes every rule and any crash, scheduled or happened.
    public func removeAllFaults() {
        state.withLock {
            $0.rules.removeAll()
            $0.countdown.restart()
        }
    }

    /// "Crashes" at a later call: the `call`-th call from now (1 is the next) is not made, and it
    /// and every later call throw ``SimulatedCrash`` until ``restart()``.
    ///
    /// - Parameter call: Which call, counted from 1.
    public func scheduleCrash(atCall call: Int) {
        state.withLock { $0.countdown.schedule(atCall: call) }
    }

    /// Runs `action` just before the `call`-th call from now (1 is the next) goes ahead or meets
    /// its fault: how a test makes something change while the code under test is running, such
    /// as a user saving a file between a sync's scan and its copy.
    ///
    /// ```swift
    /// fileSystem.beforeCall(5) { try? fake.write(Data("edited".utf8), to: notes) }
    /// ```
    ///
    /// The action runs outside the decorator's lock, on the calling thread, once. It should act
    /// on the wrapped implementation (or anything else), not on this decorator, whose calls it
    /// would count.
    ///
    /// - Parameters:
    ///   - call: Which call, counted from 1.
    ///   - action: What happens first.
    public func beforeCall(_ call: Int, run action: @escaping @Sendable () -> Void) {
        precondition(call >= 1, "calls are counted from 1")
        state.withLock { $0.actions[$0.countdown.count + call, default: []].append(action) }
    }

    /// Makes every later flush of this kind (``FileSystemOperation/synchronizeFile`` or
    /// ``FileSystemOperation/synchronizeDirectory``) answer success without reaching the wrapped
    /// file system, as a disk that lies about its cache or code that forgets a flush would. A
    /// crash suite runs its sweep with it as a control: a sweep that finds nothing wrong with
    /// ignored flushes cannot find a missing one either.
    ///
    /// ```swift
    /// // The data folders' flushes are lost, the state folder's are kept.
    /// fileSystem.ignoreFlushes(.synchronizeDirectory) { !$0.path.hasPrefix("/state") }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The flushes to ignore.
    ///   - applies: Which items' flushes; every item's by default.
    public func ignoreFlushes(
        _ operation: FileSystemOperation, of applies: @escaping @Sendable (URL) -> Bool = { _ in true }
    ) {
        state.withLock { $0.ignoredFlushes.append((operation, applies)) }
    }

    /// Whether this flush is ignored (``ignoreFlushes(_:of:)``).
    func ignores(_ operation: FileSystemOperation, _ url: URL) -> Bool {
        let rules = state.withLock { $0.ignoredFlushes }
        return rules.contains { $0.operation == operation && $0.applies(url) }
    }

    /// Whether a crash has happened and ``restart()`` was not called yet.
    public var hasCrashed: Bool {
        state.withLock { $0.countdown.stop != nil }
    }

    /// Lets calls through again after a crash (rules stay).
    public func restart() {
        state.withLock { $0.countdown.restart() }
    }

    /// Every call received, failed or not, in order.
    public var calls: [FileSystemCall] {
        state.withLock { $0.calls }
    }

    /// How many calls were received since creation or ``resetCalls()``.
    public var callCount: Int {
        state.withLock { $0.countdown.count }
    }

    /// Forgets the recorded calls and restarts the count (rule counters stay; a pending
    /// ``beforeCall(_:run:)`` action still runs before the same call as before).
    public func resetCalls() {
        state.withLock {
            $0.calls.removeAll()
            let counted = $0.countdown.count
            $0.actions = Dictionary(uniqueKeysWithValues: $0.actions.map { ($0.key - counted, $0.value) })
            $0.countdown.resetCount()
        }
    }
}
