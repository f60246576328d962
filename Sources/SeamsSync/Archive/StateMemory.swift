import Foundation
import SeamsCore

/// The state a run loaded or committed, kept in memory for the next run of the same engine:
/// `seams-sync watch` syncs one pair again and again, and a million-entry state file read and
/// checked in full for a one-file edit would cost more than the edit.
///
/// What is kept is used only while the state file is the very one it describes: the file's
/// identity, size and modification date are looked at (one `stat`) at every load, and any
/// difference (another process committed, the file was restored or removed) reads the file
/// again. A commit always writes a new file and renames it into place, so a file that was
/// replaced has another identity. A run that fails keeps what was kept: the file it did not
/// replace is still the one described.
///
/// A committed archive is kept in the form a load would give: its entries a table over the
/// bytes just written (the restarts known from writing them, so nothing is decoded or checked
/// again), with no changes on top. A loaded one is kept as it was read.
final class StateMemory: Sendable {
    /// The file a kept archive is the contents of, as its metadata tells it apart.
    struct Fingerprint: Hashable, Sendable {
        var fileIdentifier: UInt64
        var volumeIdentifier: UInt64
        var size: Int64
        var modificationDate: Date

        init(_ metadata: FileMetadata) {
            fileIdentifier = metadata.fileIdentifier
            volumeIdentifier = metadata.volumeIdentifier
            size = metadata.size
            modificationDate = metadata.modificationDate
        }
    }

    private struct Kept {
        var url: URL
        var file: Fingerprint
        var archive: Archive
    }

    private struct State {
        var kept: Kept?
        /// The archive written to a temp file not placed yet.
        var staged: (temp: URL, archive: Archive)?
    }

    private let state = LockedValue(State())

    /// Creates an empty memory.
    init() {}

    /// The archive kept for the state file at `url`, when `file` is the file it was kept for.
    func archive(at url: URL, file: Fingerprint) -> Archive? {
        state.withLock { state in
            guard let found = state.kept, found.url == url, found.file == file else { return nil }
            return found.archive
        }
    }

    /// Keeps `archive` as the contents of the state file at `url`, which is now `file`.
    func keep(_ archive: Archive, at url: URL, file: Fingerprint) {
        state.withLock { $0.kept = Kept(url: url, file: file, archive: archive) }
    }

    /// Notes that `archive` was written to `temp`, to be kept once `temp` is placed.
    func stage(_ archive: Archive, as temp: URL) {
        state.withLock { $0.staged = (temp, archive) }
    }

    /// `temp` was placed at `url`, which is now `file` (`nil`: it could not be looked at): the
    /// archive staged there is kept, and nothing when none was or the file is unknown.
    func placed(_ temp: URL, at url: URL, file: Fingerprint?) {
        state.withLock { state in
            let staged = state.staged
            state.staged = nil
            guard let staged, staged.temp == temp, let file else {
                state.kept = nil
                return
            }
            state.kept = Kept(url: url, file: file, archive: staged.archive)
        }
    }
}
