/// What a sync does with one path, decided from the archive and the two scans.
enum Decision: Hashable, Sendable, CustomStringConvertible {
    /// Both sides agree (or both deleted it): nothing to change.
    case nothing
    /// One side changed (created, edited, deleted, changed kind): make the other side like it.
    /// A version it replaces or deletes goes to the trash.
    case propagate(from: Side)
    /// Both sides changed the file to the same size: read both; equal is nothing, different a conflict.
    case compare
    /// Both sides changed the file differently: `winner` (the newer) keeps the name, the other
    /// version becomes a conflict copy on both sides.
    case conflict(winner: Side)
    /// A file on one side, a folder on the other: the folder keeps the name, the file becomes a
    /// conflict copy on both sides.
    case typeConflict(fileSide: Side)
    /// Left as it is this time (an unreadable folder, a special file); the archive keeps what it had.
    case skip(String)
    /// Left as it is on both sides until the user settles it, reported as failed every run (a
    /// symbolic link on one side where the other has a folder); the archive keeps what it had.
    case unresolved(String)

    /// A short phrase for reports.
    var description: String {
        switch self {
        case .nothing: "in sync"
        case .propagate(let side): "copy from \(side)"
        case .compare: "compare"
        case .conflict(let winner): "conflict (\(winner) keeps the name)"
        case .typeConflict(let side): "file/folder conflict (\(side) file becomes a copy)"
        case .skip(let reason): "skipped: \(reason)"
        case .unresolved(let reason): "left for you: \(reason)"
        }
    }
}
