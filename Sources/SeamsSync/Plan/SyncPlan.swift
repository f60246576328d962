import Foundation
import SeamsCore

/// Every path's decision, with what the guards need to judge the run before it changes anything.
struct SyncPlan: Sendable {
    /// One path of the plan: what each side holds and what the run does there.
    struct Entry: Hashable, Sendable {
        /// The path.
        var path: SyncPath
        /// The local item, if there is one.
        var local: FileMetadata?
        /// The container's item, if there is one.
        var container: FileMetadata?
        /// What the archive remembered of the path, if anything.
        var archived: Archive.Entry?
        /// What the run does.
        var decision: Decision

        /// Creates an entry.
        init(
            path: SyncPath, local: FileMetadata?, container: FileMetadata?, archived: Archive.Entry? = nil,
            decision: Decision
        ) {
            self.path = path
            self.local = local
            self.container = container
            self.archived = archived
            self.decision = decision
        }

        /// The item on one side.
        ///
        /// - Parameter side: The side.
        /// - Returns: Its item, if there is one.
        func item(on side: Side) -> FileMetadata? {
            side == .local ? local : container
        }
    }

    /// Every path that exists on a side or in the archive and is not in sync on both sides, in
    /// ``SyncPath`` order, so a folder comes right before what it holds.
    let entries: [Entry]
    /// How many paths are in sync on both sides (same kind on both sides and in the archive, both
    /// stamps as recorded): their decision is `.nothing`, and they are left out of ``entries``.
    let inSync: Int
    /// The local scan the plan was made from.
    let local: Snapshot
    /// The container scan the plan was made from.
    let container: Snapshot
    /// Renames and moves made on one side because the user made them on the other, in the order
    /// they are made, before anything else. The scans show the moved items at their new paths
    /// already, and ``entries`` decide them there.
    let moves: [PlannedMove]

    /// Creates a plan.
    ///
    /// - Parameters:
    ///   - entries: One entry per path, in ``SyncPath`` order.
    ///   - inSync: How many paths in sync on both sides were left out of `entries`.
    ///   - local: The local scan.
    ///   - container: The container scan.
    ///   - moves: The moves made first.
    init(entries: [Entry], inSync: Int = 0, local: Snapshot, container: Snapshot, moves: [PlannedMove] = []) {
        self.entries = entries
        self.inSync = inSync
        self.local = local
        self.container = container
        self.moves = moves
    }

    /// Every path of ``entries``, in order.
    var paths: [SyncPath] { entries.map(\.path) }

    /// How many paths the plan covers: its entries and the paths in sync.
    var pathCount: Int { entries.count + inSync }

    /// The entry of `path`, found by binary search in ``entries`` (which are in ``SyncPath`` order).
    ///
    /// - Parameter path: Any path.
    /// - Returns: Its entry, or `nil` when no side and not the archive has it, or when it is in sync.
    func entry(at path: SyncPath) -> Entry? {
        var low = entries.startIndex
        var high = entries.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].path < path { low = middle + 1 } else { high = middle }
        }
        return low < entries.endIndex && entries[low].path == path ? entries[low] : nil
    }

    /// The decision per path of ``entries`` (built on each call; the engine walks ``entries``).
    /// A path in sync on both sides has none here: its decision is `.nothing`.
    var decisions: [SyncPath: Decision] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0.decision) })
    }

    /// The scan of one side.
    func snapshot(_ side: Side) -> Snapshot { side == .local ? local : container }

    /// How many items the plan deletes or replaces by another kind on `side`.
    ///
    /// - Parameter side: The side that loses items.
    /// - Returns: The count.
    func deletions(on side: Side) -> Int {
        var count = 0
        for entry in entries {
            guard case .propagate(let from) = entry.decision, from == side.other else { continue }
            let source = entry.item(on: from)
            if let target = entry.item(on: side), source == nil || source?.kind != target.kind {
                count += 1
            }
        }
        return count
    }

    /// The paths whose decision changes something, in order.
    var changes: [(SyncPath, Decision)] {
        entries.compactMap { $0.decision == .nothing ? nil : ($0.path, $0.decision) }
    }
}
