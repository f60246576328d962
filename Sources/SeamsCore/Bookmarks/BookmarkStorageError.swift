public import Foundation

/// Why ``DefaultBookmarkStorage`` refused to read or change its store.
///
/// A damaged store is never overwritten: every bookmark in it may still be recovered by hand, so
/// saving into a corrupt store throws too.
public enum BookmarkStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store file exists but is not a bookmark store this version can read.
    case corruptStore(URL, reason: String)
    /// The store file was written by a newer version of the format.
    case unsupportedVersion(URL, version: Int)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .corruptStore(let url, let reason):
            "The bookmark store at \(url.path) is damaged (\(reason)); it was left untouched. "
                + "Move it aside to start a new one."
        case .unsupportedVersion(let url, let version):
            "The bookmark store at \(url.path) has format version \(version), newer than this "
                + "program reads; it was left untouched."
        }
    }
}
