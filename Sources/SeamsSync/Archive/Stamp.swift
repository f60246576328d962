import Foundation
import SeamsCore

/// What the archive remembers of one side of a path: enough metadata to see a change without
/// reading content.
struct Stamp: Hashable, Sendable, Codable {
    /// The size in bytes (0 for folders).
    var size: Int64
    /// The modification date in nanoseconds since 1970.
    var modified: Int64

    /// Creates a stamp.
    init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    /// The stamp of an item's metadata.
    ///
    /// - Parameter metadata: What a listing returned.
    init(_ metadata: FileMetadata) {
        self.size = metadata.kind == .directory ? 0 : metadata.size
        self.modified = metadata.kind == .directory ? 0 : Self.nanoseconds(metadata.modificationDate)
    }

    /// A date as whole nanoseconds since 1970, the same for the same date every time.
    static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000_000).rounded())
    }
}

extension FileMetadata {
    /// The metadata's stamp.
    var stamp: Stamp { Stamp(self) }
}
