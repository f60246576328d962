import Foundation
import SeamsCore

/// A boundary that can replace a file only while it is still the version the caller saw, in one
/// step on its side: a WebDAV server's `MOVE` with an `If` condition on the target's ETag
/// (``WebDAVAccessor/moveItem(at:to:ifStill:)``).
///
/// The applier uses it, where it is there, for the last step of a replace that has no atomic
/// exchange: a change saved at the target after the applier's last look then becomes a
/// conflict, not an overwrite.
protocol ConditionalReplacing {
    /// Moves `source` over `destination` only while `destination` is still `expected`.
    ///
    /// - Returns: `false` when `destination` is no longer `expected`: nothing was moved.
    func moveItem(at source: URL, to destination: URL, ifStill expected: FileMetadata) throws -> Bool
}
