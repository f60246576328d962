import Foundation
import Seams

/// The decision rules: from the archive and the two scans to one ``Decision`` per path. Pure:
/// no I/O, so every rule is tested with plain values.
///
/// - Changed on one side only: propagate. Same change on both: nothing (files of equal size are
///   compared by content). Different changes: a conflict that keeps both.
/// - Deleted on one side, unchanged on the other: delete (into the trash). Deleted on one side,
///   changed on the other: keep the changed one.
/// - A file on one side and a folder on the other, both changed: the folder keeps the name.
/// - A folder deleted on one side that still holds something kept on the other is restored.
public struct Reconciler: Sendable {
    /// Creates a reconciler.
    public init() {}

    /// Decides every path.
    ///
    /// - Parameters:
    ///   - archive: The state of the last successful sync.
    ///   - local: The local scan.
    ///   - container: The container scan.
    /// - Returns: One decision per path that exists anywhere, sorted parents first.
    public func plan(archive: Archive, local: Snapshot, container: Snapshot) -> SyncPlan {
        var paths = Set(local.items.keys)
        paths.formUnion(container.items.keys)
        paths.formUnion(archive.entries.keys)
        let sorted = paths.sorted()
        var decisions: [SyncPath: Decision] = [:]
        decisions.reserveCapacity(sorted.count)
        for path in sorted {
            decisions[path] = decide(path, archive: archive, local: local, container: container)
        }
        restoreNeededFolders(sorted, &decisions, local: local, container: container)
        return SyncPlan(paths: sorted, decisions: decisions, local: local, container: container)
    }

    func decide(_ path: SyncPath, archive: Archive, local: Snapshot, container: Snapshot) -> Decision {
        if local.isUnknown(path) || container.isUnknown(path) { return .skip("inside a folder that could not be read") }
        let l = local.items[path]
        let c = container.items[path]
        for item in [l, c].compactMap({ $0 }) where item.kind != .file && item.kind != .directory {
            return .skip("not a regular file or folder")
        }
        let localChanged = changed(l, path, .local, archive)
        let containerChanged = changed(c, path, .container, archive)
        switch (localChanged, containerChanged) {
        case (false, false): return .nothing
        case (true, false): return .propagate(from: .local)
        case (false, true): return .propagate(from: .container)
        case (true, true): break
        }
        switch (l, c) {
        case (nil, nil): return .nothing
        case (nil, _?): return .propagate(from: .container)
        case (_?, nil): return .propagate(from: .local)
        case (let l?, let c?):
            if l.kind == .directory, c.kind == .directory { return .nothing }
            if l.kind == .directory { return .typeConflict(fileSide: .container) }
            if c.kind == .directory { return .typeConflict(fileSide: .local) }
            if l.size == c.size { return .compare }
            return .conflict(winner: Self.newer(local: l, container: c))
        }
    }

    /// The side whose version keeps the name: the newer; the local one on a tie.
    static func newer(local: FileMetadata, container: FileMetadata) -> Side {
        container.modificationDate > local.modificationDate ? .container : .local
    }

    private func changed(_ item: FileMetadata?, _ path: SyncPath, _ side: Side, _ archive: Archive) -> Bool {
        guard let item else { return archive.entries[path] != nil }
        return !archive.isUnchanged(item, at: path, on: side)
    }

    /// Walks deepest first: a folder that must stay (something kept inside it on a side) is not
    /// deleted or replaced by a file there.
    private func restoreNeededFolders(
        _ sorted: [SyncPath], _ decisions: inout [SyncPath: Decision], local: Snapshot, container: Snapshot
    ) {
        var needed: [Side: Set<SyncPath>] = [.local: [], .container: []]
        for path in sorted.reversed() {
            let l = local.items[path]
            let c = container.items[path]
            var decision = decisions[path] ?? .nothing
            for side in Side.allCases where needed[side]!.contains(path) {
                guard Self.finalKind(decision, on: side, local: l, container: c) != .directory else { continue }
                let mine = side == .local ? l : c
                let theirs = side == .local ? c : l
                if mine?.kind == .directory {
                    decision = theirs == nil ? .propagate(from: side) : .typeConflict(fileSide: side.other)
                } else if theirs?.kind == .directory {
                    decision = mine == nil ? .propagate(from: side.other) : .typeConflict(fileSide: side)
                }
            }
            decisions[path] = decision
            for side in Side.allCases where Self.finalKind(decision, on: side, local: l, container: c) != nil {
                var parent = path.parent
                while let folder = parent, needed[side]!.insert(folder).inserted {
                    parent = folder.parent
                }
            }
        }
    }

    /// What `side` holds at a path once `decision` is carried out.
    static func finalKind(
        _ decision: Decision, on side: Side, local: FileMetadata?, container: FileMetadata?
    ) -> FileMetadata.Kind? {
        switch decision {
        case .nothing, .skip: (side == .local ? local : container)?.kind
        case .propagate(let from): (from == .local ? local : container)?.kind
        case .compare, .conflict: .file
        case .typeConflict: .directory
        }
    }
}
