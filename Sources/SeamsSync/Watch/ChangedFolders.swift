public import SeamsCore

extension ChangedFolders {
    /// The folders to list, as paths (`nil`: the root), in path order (a folder before what it
    /// holds), each with whether its whole tree is listed; a folder inside a listed tree is left
    /// out, the tree covers it.
    var listed: [(folder: SyncPath?, tree: Bool)] {
        func path(_ text: String) -> SyncPath? {
            let trimmed = text.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
            return trimmed.isEmpty ? nil : SyncPath(trimmed)
        }
        let trees = Set(self.trees.map(path))
        var all: [(folder: SyncPath?, tree: Bool)] = trees.map { ($0, true) }
        for folder in Set(folders.map(path)) where !trees.contains(folder) { all.append((folder, false)) }
        all.sort { a, b in
            guard let second = b.folder else { return false }
            guard let first = a.folder else { return true }
            return first < second
        }
        return all.filter { item in
            var above = item.folder?.parent
            if item.folder != nil, trees.contains(nil) { return false }
            while let folder = above {
                if trees.contains(folder) { return false }
                above = folder.parent
            }
            return true
        }
    }
}

/// Which folders a sync lists: every folder of both sides (``full``, what `seams-sync sync`
/// does), or on a side only the folders a watcher saw change.
///
/// A side given as `ChangedFolders` is listed only there; the rest of it is taken to be as the
/// last sync recorded. A sync of a pair with no state yet, or where a changed folder is gone
/// without its parent being among the changed ones, lists that side whole.
public struct SyncScope: Hashable, Sendable {
    /// What changed on the local side; `nil` lists it whole.
    public var local: ChangedFolders?
    /// What changed on the container side; `nil` lists it whole.
    public var container: ChangedFolders?

    /// Creates a scope.
    public init(local: ChangedFolders? = nil, container: ChangedFolders? = nil) {
        self.local = local
        self.container = container
    }

    /// Both sides listed whole.
    public static let full = SyncScope()

    /// What changed on `side`.
    func changes(_ side: Side) -> ChangedFolders? { side == .local ? local : container }
}
