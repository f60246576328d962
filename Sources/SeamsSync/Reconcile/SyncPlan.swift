import Foundation
import Seams

/// Every path's decision, with what the guards need to judge the run before it changes anything.
public struct SyncPlan: Sendable {
    /// Every path, sorted so a folder comes before what it holds.
    public let paths: [SyncPath]
    /// The decision per path.
    public let decisions: [SyncPath: Decision]
    /// The local scan the plan was made from.
    public let local: Snapshot
    /// The container scan the plan was made from.
    public let container: Snapshot

    /// Creates a plan.
    public init(paths: [SyncPath], decisions: [SyncPath: Decision], local: Snapshot, container: Snapshot) {
        self.paths = paths
        self.decisions = decisions
        self.local = local
        self.container = container
    }

    /// The scan of one side.
    public func snapshot(_ side: Side) -> Snapshot { side == .local ? local : container }

    /// How many items the plan deletes or replaces by another kind on `side`.
    ///
    /// - Parameter side: The side that loses items.
    /// - Returns: The count.
    public func deletions(on side: Side) -> Int {
        var count = 0
        for path in paths {
            guard case .propagate(let from) = decisions[path], from == side.other else { continue }
            let source = snapshot(from).items[path]
            if let target = snapshot(side).items[path], source == nil || source?.kind != target.kind {
                count += 1
            }
        }
        return count
    }

    /// The paths whose decision changes something, in order.
    public var changes: [(SyncPath, Decision)] {
        paths.compactMap { path in
            let decision = decisions[path] ?? .nothing
            return decision == .nothing ? nil : (path, decision)
        }
    }
}
