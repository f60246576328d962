public import Foundation
public import Seams

/// A file system in memory with the semantics of Linux's: one fake for every file-related
/// protocol of `Seams` (`FileSystemProviding`, `FileAccessorProviding`,
/// `BookmarkStorageProviding`, `DirectoryAccessorProviding`).
///
/// It has folders whose parents must exist, sizes, inode numbers, hard links, permission bits
/// (checked as for a non-root owner, unless `enforcesPermissions` is `false`), byte-exact
/// case-sensitive names, atomic replace, copies that share nothing, and modification dates from
/// a clock the test sets (and, in folders made by ``createCaseFoldingDirectory(at:)``, names
/// that fold case as on FAT and exFAT). It throws the `CocoaError` Foundation throws for the same failure, and
/// passes the same conformance suites as the live implementations.
///
/// It also models power loss: content not flushed with `synchronizeFile` and names not flushed
/// with `synchronizeDirectory` are lost by ``cutPower()``, or at a call chosen with
/// ``schedulePowerCut(atCall:)``. Every call is recorded in ``calls``.
///
/// ```swift
/// let fileSystem = InMemoryFileSystem(containerURL: URL(filePath: "/container"))
/// try fileSystem.createDirectory(at: URL(filePath: "/container"), withIntermediateDirectories: false)
/// try fileSystem.write(Data("{}".utf8), to: URL(filePath: "/container/data.json"))
/// let manager = SyncManager(fileSystem: fileSystem, fileAccessor: fileSystem)
/// ```
///
/// Race-free: all state is behind one lock (`LockedValue`, a `Mutex` the thread sanitizer can see); share one instance with any number of tasks.
///
/// Where it differs from the live file system, on purpose or because the platform forces it:
/// - Permission bits are checked as for a non-root owner; a live process running as root ignores
///   them, so the conformance behaviours about permissions need a live process that is not root
///   (`enforcesPermissions: false` makes the fake act as root).
/// - New files get `0o644` and folders `0o755` (umask 022); live modes follow the process umask.
/// - Symbolic links are followed as Linux follows them (before the last name always, the last
///   name by `read`, `fileExists`, listing, flushing and `setPermissions`; never by `metadata`,
///   removal, moves, copies, hard links or `setModificationDate`), up to 40 (ELOOP). A link's
///   target text is durable as soon as the link exists (a short target lives in the inode on
///   ext4); its name is durable with its folder's flush. There are no special files;
///   ``importTree(from:to:using:)`` skips them.
/// - A folder's link count is 2 plus its subfolders (as ext4); other file systems differ.
/// - A recursive removal or a copy that fails partway keeps what it did before the failure, as
///   the live walk does, but goes through a folder's items in the order of their names' bytes;
///   the live walk goes in the order `readdir` gives, so what was done first may differ.
/// - Paths are walked as the kernel walks them (`..` leaves the folder reached, so
///   `a/missing/../b` is ENOENT; `NAME_MAX` 255 and `PATH_MAX` 4,096 bytes give ENAMETOOLONG);
///   a trailing slash is dropped with `url.path`, as the live implementations drop it.
/// - Foundation's atomic write first makes `.dat.nosync<pid in hex>.XXXXXX` beside the target,
///   so live a write whose folder path leaves no room for that name within `PATH_MAX` fails with
///   ENOENT (from about 4,073 bytes); the fake does not model that temporary name.
/// - By default the power model is the worst POSIX allows: after a cut, each folder holds exactly
///   its flushed names, so a move between two folders of which only one was flushed can leave the
///   item under both names or neither (a journaling file system keeps the move whole). With
///   ``powerLossSelection`` a cut keeps a chosen part of the unflushed changes instead: any subset
///   of each folder's per-call changes and a prefix of each file's (see ``PowerLossSelection``).
/// - `volumeIdentifier` is always 1.
public final class InMemoryFileSystem: Sendable {
    struct State: Sendable {
        var tree: MemoryTree
        var container: URL?
        var containers: [Purpose: URL] = [:]
        var bookmarks: [String: Data] = [:]
        var recordsCalls: Bool
        var calls: [FileSystemCall] = []
        var countdown = CallCountdown(cause: .powerCut)
    }

    let state: LockedValue<State>

    /// Creates an empty file system holding only the root folder `/`.
    ///
    /// - Parameters:
    ///   - containerURL: The folder ``containerURL(for:)`` answers while it exists here.
    ///   - enforcesPermissions: Whether permission bits are checked as for a non-root owner of
    ///     every item (`true`) or ignored as for root (`false`).
    ///   - now: The clock's start; every change stamps this date until ``advanceTime(by:)``.
    ///   - recordsCalls: Whether ``calls`` keeps a record (turn off for long benchmarks).
    public init(
        containerURL: URL? = nil,
        enforcesPermissions: Bool = true,
        now: Date = Date(timeIntervalSince1970: 1_700_000_000),
        recordsCalls: Bool = true
    ) {
        state = LockedValue(
            State(
                tree: MemoryTree(now: now, enforcesPermissions: enforcesPermissions),
                container: containerURL,
                recordsCalls: recordsCalls
            ))
    }

    // MARK: - Clock

    /// The date the next change is stamped with.
    public var now: Date {
        get { state.withLock { $0.tree.now } }
        set { state.withLock { $0.tree.now = FileTimestamp.quantized(newValue) } }
    }

    /// Moves the clock forward.
    ///
    /// - Parameter seconds: How far; fractions are kept to the nanosecond.
    public func advanceTime(by seconds: TimeInterval) {
        state.withLock { $0.tree.now = FileTimestamp.quantized($0.tree.now.addingTimeInterval(seconds)) }
    }

    // MARK: - Calls

    /// Every call received, in order (while `recordsCalls` is on).
    public var calls: [FileSystemCall] {
        state.withLock { $0.calls }
    }

    /// How many calls were received since creation or ``resetCalls()``.
    public var callCount: Int {
        state.withLock { $0.countdown.count }
    }

    /// Forgets the recorded calls and restarts the count.
    public func resetCalls() {
        state.withLock {
            $0.calls.removeAll()
            $0.countdown.resetCount()
        }
    }

    // MARK: - Power

    /// Cuts the power now and turns it back on: every change not flushed is lost.
    ///
    /// A file's content, permissions and date survive as of its last `synchronizeFile`; a
    /// folder's names as of its last `synchronizeDirectory`. Unflushed new files come back empty
    /// or not at all; unflushed renames and removals are undone.
    public func cutPower() {
        state.withLock { $0.tree.cutPower() }
    }

    /// Cuts the power at a later call: the `call`-th call from now (1 is the next) is not made,
    /// the unflushed changes are lost, and it and every later call throw ``SimulatedCrash``
    /// (`fileExists` answers `false`) until ``restart()``.
    ///
    /// - Parameter call: Which call, counted from 1.
    public func schedulePowerCut(atCall call: Int) {
        state.withLock { $0.countdown.schedule(atCall: call) }
    }

    /// Whether a scheduled power cut has happened and ``restart()`` was not called yet.
    public var isPoweredOff: Bool {
        state.withLock { $0.countdown.stop != nil }
    }

    /// What a power cut keeps of the changes not yet flushed: nothing (``PowerLossSelection/flushedOnly``,
    /// the default) or a chosen part of them. Set it before the changes are made: only then are
    /// they journalled.
    public var powerLossSelection: PowerLossSelection {
        get { state.withLock { $0.tree.powerLossSelection } }
        set { state.withLock { $0.tree.powerLossSelection = newValue } }
    }

    /// What a folder's flush makes durable besides that folder's names: nothing (``PowerLossModel/perItem``,
    /// the default, the worst POSIX allows) or every earlier name change, as a journal's commit
    /// does (``PowerLossModel/journaling``). Set it before the changes are made.
    public var powerLossModel: PowerLossModel {
        get { state.withLock { $0.tree.powerLossModel } }
        set { state.withLock { $0.tree.powerLossModel = newValue } }
    }

    /// Whether ``exchangeItems(at:and:)`` swaps two items (`true`, as `renameat2(RENAME_EXCHANGE)`
    /// does on ext4, XFS, Btrfs and tmpfs) or answers `false` as on a file system that cannot
    /// (FAT, exFAT, most FUSE file systems). Folders that fold case never swap.
    public var exchangesItems: Bool {
        get { state.withLock { $0.tree.exchangesItems } }
        set { state.withLock { $0.tree.exchangesItems = newValue } }
    }

    /// What the last power cut could have kept and what it kept (`nil` before the first cut).
    public var lastPowerCut: PowerCutReport? {
        state.withLock { $0.tree.lastPowerCut }
    }

    /// Turns the power back on after a scheduled cut (and cancels one not yet reached).
    public func restart() {
        state.withLock { $0.countdown.restart() }
    }

    /// Creates an empty folder whose names fold case, as a FAT or exFAT volume mounted there
    /// would: `A.txt` reaches an existing `a.txt` (which keeps its name), a new name keeps the
    /// case it was given, a rename to another case of an item's own name changes its case, and
    /// listings show each name as it was created. Case is folded by each Unicode scalar's simple
    /// uppercase mapping (exFAT's up-case table); Unicode forms stay apart, as on exFAT. Folders
    /// made inside fold too. Not a call of the protocols: it is neither counted nor recorded.
    ///
    /// - Parameter url: The folder to create; its parent must exist.
    public func createCaseFoldingDirectory(at url: URL) throws {
        let result: Result<Void, MemoryFailure> = state.withLock { state in
            do throws(MemoryFailure) {
                try state.tree.createDirectory(MemoryPath(url), intermediates: false)
                let inode = try state.tree.lookup(MemoryPath(url))
                state.tree.nodes[inode]!.foldsNames = true
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let failure) = result { throw failure.cocoa(writing: true) }
    }

    /// Flushes everything, as `sync(2)` does: what exists now survives any later power cut.
    public func synchronizeAll() {
        state.withLock { $0.tree.flushAll() }
    }

    // MARK: - Containers

    /// Sets the container answered for one purpose.
    ///
    /// - Parameters:
    ///   - url: The folder, or `nil` to fall back to the one given at init.
    ///   - purpose: The purpose it answers.
    public func setContainerURL(_ url: URL?, for purpose: Purpose) {
        state.withLock { $0.containers[purpose] = url }
    }
}
