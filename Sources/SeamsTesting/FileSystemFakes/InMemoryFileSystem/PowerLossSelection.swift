/// Which of the unflushed changes a power cut of ``InMemoryFileSystem`` keeps.
///
/// Real disks and file systems may keep any part of what was not flushed. The fake keeps a journal
/// of the changes made since each item's last flush, one entry per call: the folder names one
/// call added, replaced or removed (in every folder it touched: a rename, even between two
/// folders, is kept or lost whole), and each file's state after each call (content, permissions,
/// date). A cut keeps any subset of the calls' name changes, applied in order onto what each
/// folder's last flush made durable, and for every file a prefix of its states (a later write
/// never survives without the earlier one). A folder's flush commits every call up to its last
/// change of that folder, whole, under ``PowerLossModel/journaling``, as a journaling file
/// system's commit does (ext4, XFS); under ``PowerLossModel/perItem`` (the default) a flush makes
/// only that folder durable. Between them they cover what a sync engine must survive.
///
/// ```swift
/// let fileSystem = InMemoryFileSystem()
/// fileSystem.powerLossSelection = .seeded(42)
/// fileSystem.schedulePowerCut(atCall: 17)
/// // … run the code under test, restart, check what survived …
/// print(fileSystem.lastPowerCut?.combinations ?? 0)   // how many outcomes that cut could have had
/// ```
public enum PowerLossSelection: Hashable, Sendable {
    /// Nothing unflushed survives: every item is as its last flush left it, a flush under
    /// ``PowerLossModel/journaling`` having committed every earlier name change (the default; under
    /// ``PowerLossModel/perItem`` the only selection that keeps no journal).
    case flushedOnly
    /// Everything survives, as if the power had not failed at all.
    case everything
    /// Each folder entry kept or lost and each file's prefix chosen by a generator seeded with
    /// this value: the same seed and the same calls give the same outcome.
    case seeded(UInt64)
    /// Outcome number `index` of ``PowerCutReport/combinations``: one bit per call's name changes
    /// (oldest first), then one digit per file with unflushed states (in inode order); 0 is
    /// ``flushedOnly``, the last one ``everything``, so a test can try every outcome of a cut
    /// with few changes.
    case combination(Int)
}

/// What the last power cut of an ``InMemoryFileSystem`` could have kept and what it did keep.
public struct PowerCutReport: Hashable, Sendable {
    /// The journal entries (calls' name changes and file states) that were not flushed at the cut.
    public var unflushedChanges: Int
    /// How many of them the cut kept.
    public var keptChanges: Int
    /// How many of the kept ones were calls' name changes (the rest are file states).
    public var keptNameChanges: Int
    /// How many different outcomes the cut could have had (saturating at `Int.max`).
    public var combinations: Int

    /// Creates a report.
    public init(unflushedChanges: Int, keptChanges: Int, combinations: Int, keptNameChanges: Int = 0) {
        self.unflushedChanges = unflushedChanges
        self.keptChanges = keptChanges
        self.keptNameChanges = keptNameChanges
        self.combinations = combinations
    }
}

/// What a folder's flush makes durable in ``InMemoryFileSystem``, beside the folder's own names.
///
/// POSIX promises only that `fsync` of a folder makes that folder's entries durable. Journaling
/// file systems do more: ext4 (`data=ordered`) and XFS commit every earlier metadata change with
/// the transaction that holds the flushed folder's. A sync engine must be right under both: the
/// strict model finds a missing flush that a later flush elsewhere would hide under a journal;
/// the journaling one finds orders that only a journal's whole commits make possible.
///
/// ```swift
/// let fileSystem = InMemoryFileSystem()
/// fileSystem.powerLossModel = .journaling
/// fileSystem.powerLossSelection = .flushedOnly   // a cut keeps nothing unflushed…
/// // …but a flush of one folder has made every earlier rename durable, whole.
/// ```
public enum PowerLossModel: Hashable, Sendable, CaseIterable {
    /// A folder's flush makes its own names durable, nothing else: the worst POSIX allows, and
    /// the default.
    case perItem
    /// A folder's flush commits every earlier call's name changes too, each call whole, as a
    /// journaling file system's commit does.
    case journaling
}
