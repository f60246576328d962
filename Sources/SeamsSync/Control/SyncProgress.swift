/// How far a run is: paths done of paths to do.
///
/// A run reports progress while it applies its plan (the scan before it has no total yet), at
/// least every 64 paths and once at the end.
///
/// ```swift
/// let report = try await manager.sync { progress in
///     print("\(progress.completed) of \(progress.total)")
/// }
/// ```
public struct SyncProgress: Hashable, Sendable {
    /// Paths done so far.
    public var completed: Int
    /// Paths the plan holds.
    public var total: Int

    /// Creates a progress value.
    public init(completed: Int, total: Int) {
        self.completed = completed
        self.total = total
    }

    /// `completed / total`, from 0 to 1 (1 when there is nothing to do).
    public var fractionCompleted: Double {
        total == 0 ? 1 : Double(completed) / Double(total)
    }
}
