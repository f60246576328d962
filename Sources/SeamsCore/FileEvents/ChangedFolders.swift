/// The folders of one side that changed since the last sync, as a watcher saw them: a sync
/// given them lists only these and trusts the state for the rest.
///
/// Paths are relative to the synced folder, `/`-separated, `""` for the folder itself.
///
/// ```swift
/// var changed = ChangedFolders()
/// changed.folders.insert("Notes/2026")     // a file in it was saved
/// changed.trees.insert("Notes/Trips")      // a folder made or moved in while watched
/// // SeamsSync: SyncScope(local: changed, container: ChangedFolders())
/// ```
public struct ChangedFolders: Hashable, Sendable {
    /// Folders whose entries changed (an item made, removed, renamed or written in them): each
    /// is listed again; the subfolders it holds as the state recorded them are trusted.
    public var folders: Set<String>
    /// Folders made or moved in while watched: each is listed with everything it holds.
    public var trees: Set<String>

    /// Creates a set of changed folders.
    public init(folders: Set<String> = [], trees: Set<String> = []) {
        self.folders = folders
        self.trees = trees
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { folders.isEmpty && trees.isEmpty }

    /// Adds what `other` holds.
    public mutating func formUnion(_ other: ChangedFolders) {
        folders.formUnion(other.folders)
        trees.formUnion(other.trees)
    }
}
