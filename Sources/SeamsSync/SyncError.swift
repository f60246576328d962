public import Foundation
public import SeamsCore

/// Why a sync did not happen or did not finish; a value a test can compare.
///
/// ```swift
/// await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
/// ```
public enum SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sync container is not available (signed out of iCloud, an unmounted folder).
    case containerNotAvailable
    /// A file could not be read; the boundary's error is kept.
    case readFailed(URL, UnderlyingError)
    /// A file could not be written; the boundary's error is kept.
    case writeFailed(URL, UnderlyingError)
    /// No local folder was chosen yet (``SyncManager/chooseLocalFolder(_:)``).
    case localFolderNotChosen
    /// A folder of the pair does not exist or is not a folder (an unmounted volume); nothing changed.
    case folderNotAvailable(URL)
    /// The container is a server's collection that could not be used: unreachable, refused
    /// credentials (401, 403), missing, or not a collection; `reason` says which. Nothing changed.
    case serverNotAvailable(URL, reason: String)
    /// The server stopped answering during the run (no connection, no answer in time); `reason`
    /// says which. What was done before is kept and nothing was lost; the next run does the rest.
    case serverLost(URL, reason: String)
    /// The remembered local folder was replaced or moved: the folder at its path is another one.
    case staleLocalFolder(URL)
    /// A side is empty while the last sync knew `known` items there; nothing changed.
    case emptySide(Side, known: Int)
    /// The run would delete more than the limit on a side; nothing changed.
    case tooManyDeletions(Side, count: Int, known: Int, limitPercent: Int)
    /// Another run holds the lock of this container.
    case lockHeld(owner: String)
    /// The state file was written by a newer version; it was left untouched.
    case unsupportedState(URL, version: Int)
    /// The two folders are one, or one lies inside the other (by device and inode, so a bind
    /// mount or a link counts too); nothing changed.
    case overlappingFolders(URL, URL)
    /// The state folder lies inside one of the two folders: it would be synced and changed
    /// under the run that writes it; nothing changed.
    case stateInsideFolder(URL, URL)
    /// The run was asked to stop (``SyncStopToken``) before it changed anything.
    case interrupted
    /// No folder for the sync state was given and none can be derived (neither
    /// `XDG_STATE_HOME` nor `HOME` is set); a temporary folder would lose the state at reboot.
    case noStateDirectory
    /// An ignore rule cannot be read: a pattern that cannot mean what it says (`line` counts from 1), or an
    /// ignore file that is not UTF-8 text (`line` 0); `source` is the file's path or `--exclude`.
    /// Nothing was changed.
    case badIgnoreRule(source: String, line: Int, pattern: String, reason: String)

    /// Whether the run was refused before changing anything (a guard or a missing folder).
    public var isRefusal: Bool {
        switch self {
        case .containerNotAvailable, .folderNotAvailable, .serverNotAvailable, .staleLocalFolder, .emptySide,
            .tooManyDeletions:
            true
        default:
            false
        }
    }

    /// The C library's words for a POSIX error ("Operation not permitted (EPERM)"), the error's
    /// own description otherwise.
    static func reason(_ underlying: UnderlyingError) -> String {
        guard let code = underlying.posixCode else { return underlying.description }
        return "\(String(cString: strerror(code.rawValue))) (\(POSIXError(code).code))"
    }

    /// A folder's path, or a server's whole URL.
    private static func shown(_ url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }

    /// What failed where: the path the boundary's error names (a `CocoaError`'s file path, a
    /// ``BookmarkStorageError``'s store), else `fallback`.
    static func writeFailed(_ error: any Error, near fallback: URL) -> SyncError {
        let named: URL?
        switch error {
        case let error as CocoaError:
            // A server's item is named by its URL (`https://…`, `s3://…`), a file by its path.
            named = error.filePath.flatMap { path in
                guard !path.isEmpty else { return nil }
                if !path.hasPrefix("/"), path.contains("://"), let url = URL(string: path), url.scheme != nil {
                    return url
                }
                return URL(filePath: path)
            }
        case BookmarkStorageError.corruptStore(let store, _), BookmarkStorageError.unsupportedVersion(let store, _):
            named = store
        default:
            named = nil
        }
        return .writeFailed(named ?? fallback, UnderlyingError(error))
    }

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .containerNotAvailable:
            "The sync container is not available."
        case .readFailed(let url, let underlying):
            "Could not read \(Self.shown(url)): \(Self.reason(underlying))"
        case .writeFailed(let url, let underlying):
            "Could not write \(Self.shown(url)): \(Self.reason(underlying))"
        case .localFolderNotChosen:
            "No local folder was chosen yet."
        case .folderNotAvailable(let url):
            "\(url.path) is not available (missing, not a folder, or not mounted); nothing was changed."
        case .serverNotAvailable(let url, let reason):
            "The server's folder \(url.absoluteString) could not be used (\(reason)); nothing was changed."
        case .serverLost(let url, let reason):
            "The server of \(url.absoluteString) stopped answering during the run (\(reason)); "
                + "nothing was lost, and the next run does the rest."
        case .staleLocalFolder(let url):
            "The folder at \(url.path) is not the one chosen before (it was replaced or moved); choose it again."
        case .emptySide(let side, let known):
            "The \(side) folder is empty but the last sync knew \(known) items there; refusing to delete "
                + "them on the other side. Nothing was changed. Use --force if this is intended."
        case .tooManyDeletions(let side, let count, let known, let limit):
            "This run would delete \(count) of \(known) items on the \(side) side, more than \(limit)%. "
                + "Nothing was changed. Use --force or a higher --max-delete if this is intended."
        case .lockHeld(let owner):
            "Another sync of this container is running (\(owner)); try again when it has finished."
        case .overlappingFolders(let local, let container):
            "\(local.path) and \(container.path) are the same folder, or one is inside the other (a bind mount or a "
                + "link counts); they must be two separate folders. Nothing was changed."
        case .stateInsideFolder(let state, let folder):
            "The state folder \(state.path) is inside \(folder.path); choose another with --state-dir. Nothing was changed."
        case .noStateDirectory:
            "No folder for the sync state: set HOME or XDG_STATE_HOME, or pass --state-dir."
        case .interrupted:
            "Interrupted before anything was changed; run again to sync."
        case .badIgnoreRule(let source, let line, let pattern, let reason):
            line == 0
                ? "The ignore file \(source) cannot be used: \(reason). Nothing was changed."
                : "The ignore rule \"\(pattern)\" (\(source), line \(line)) cannot be read: \(reason). Nothing was changed."
        case .unsupportedState(let url, let version):
            "The state file \(url.path) has format version \(version), newer than this program reads; it was left untouched."
        }
    }
}
