/// How far a run is: while it scans, the items found so far; while it applies its plan, paths
/// and bytes done of those to do.
///
/// A run reports progress while it scans (after each folder listed) and while it applies its
/// plan (at least every 64 paths, after each file of a mebibyte or more, and once at the end).
///
/// ```swift
/// let report = try await manager.sync { progress in
///     print("\(progress.completed) of \(progress.total)")
/// }
/// ```
public struct SyncProgress: Hashable, Sendable {
    /// What the run is doing.
    public enum Phase: String, Hashable, Sendable {
        /// Listing both sides: ``SyncProgress/completed`` counts the items found, and there is no
        /// total yet.
        case scanning
        /// Carrying out the plan: copies, deletions, conflicts.
        case applying
    }

    /// What the run is doing.
    public var phase: Phase
    /// Items found (scanning) or paths done (applying) so far.
    public var completed: Int
    /// Paths the plan holds (0 while scanning).
    public var total: Int
    /// Bytes of the files the plan copies that are done so far.
    public var bytesCompleted: Int64
    /// Bytes of all the files the plan copies.
    public var bytesTotal: Int64

    /// Creates a progress value of the applying phase, without bytes.
    public init(completed: Int, total: Int) {
        self.init(phase: .applying, completed: completed, total: total)
    }

    /// Creates a progress value.
    public init(phase: Phase, completed: Int, total: Int, bytesCompleted: Int64 = 0, bytesTotal: Int64 = 0) {
        self.phase = phase
        self.completed = completed
        self.total = total
        self.bytesCompleted = bytesCompleted
        self.bytesTotal = bytesTotal
    }

    /// How much is done, from 0 to 1: by bytes where the plan copies any, else by paths; 0 while
    /// scanning, 1 when there is nothing to do.
    public var fractionCompleted: Double {
        if phase == .scanning { return 0 }
        if bytesTotal > 0 { return Double(bytesCompleted) / Double(bytesTotal) }
        return total == 0 ? 1 : Double(completed) / Double(total)
    }
}
