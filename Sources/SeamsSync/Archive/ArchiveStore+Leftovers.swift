import Foundation
import SeamsCore

/// The temp files of archive commits, and the ones crashed commits left behind.
///
/// A commit writes `.seams-tmp-archive-pair-<hash>-<run>` in the state folder and renames it over
/// `pair-<hash>.…`; a run that crashes between the two leaves the temp file. The name carries the
/// pair, because several pairs may share one state folder and run at the same time (each under its
/// own container's lock): a run removes only its own pair's leftovers, and only while it holds the
/// lock, when no other run of the pair can be committing.
extension ArchiveStore {
    /// `.seams-tmp-archive-pair-<hash>-`: the start of every commit temp name of this pair.
    var temporaryPrefix: String {
        Snapshot.temporaryPrefix + "archive-" + url.deletingPathExtension().lastPathComponent + "-"
    }

    /// Where the commit of run `runID` writes the new archive before renaming it into place.
    func temporaryURL(runID: String) -> URL {
        stateDirectory.appending(path: temporaryPrefix + runID, directoryHint: .notDirectory)
    }

    /// Removes the temp files that crashed commits of this pair left in the state folder.
    ///
    /// Call it only while holding the container's lock. Files of other pairs, and anything that is
    /// not a file, are left alone. Failures are ignored: a leftover costs only space and is tried
    /// again by the next run.
    ///
    /// - Returns: How many were removed.
    @discardableResult
    func removeLeftoverTemporaries() -> Int {
        guard let entries = try? directories.contentsOfDirectory(at: stateDirectory) else { return 0 }
        let prefix = temporaryPrefix
        var removed = 0
        for entry in entries where entry.metadata.kind == .file && entry.name.hasPrefix(prefix) {
            let leftover = stateDirectory.appending(path: entry.name, directoryHint: .notDirectory)
            if (try? directories.removeItem(at: leftover, recursively: false)) != nil { removed += 1 }
        }
        return removed
    }
}
