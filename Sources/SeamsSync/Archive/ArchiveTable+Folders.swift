import Foundation
import SeamsCore

extension ArchiveTable {
    /// The ordinals of the entries below `folder`: all of them for the root. In path order
    /// (`/` below every other byte) a folder's contents follow it without a gap.
    func ordinals(below folder: SyncPath?) -> Range<Int> {
        guard let folder else { return 0..<count }
        guard count > 0 else { return 0..<0 }
        let path = Array(folder.rawValue.utf8)
        // `folder/` starts the contents; `folder` followed by the lowest other byte comes after them.
        let first = path + [UInt8(ascii: "/")]
        let past = path + [0]
        return data.withUnsafeBytes { raw in
            let lower = first.withUnsafeBytes { seek($0, raw) }.ordinal
            let upper = past.withUnsafeBytes { seek($0, raw) }.ordinal
            return lower..<max(lower, upper)
        }
    }

    /// The entries directly in `folder` (the root: `nil`), in path order: a walk along them that
    /// jumps past each child folder's contents.
    func children(of folder: SyncPath?) -> [(ordinal: Int, name: String, kind: FileMetadata.Kind)] {
        guard count > 0 else { return [] }
        var prefix = Array((folder?.rawValue ?? "").utf8)
        if folder != nil { prefix.append(UInt8(ascii: "/")) }
        var found: [(ordinal: Int, name: String, kind: FileMetadata.Kind)] = []
        data.withUnsafeBytes { raw in
            var cursor = prefix.withUnsafeBytes { seek($0, raw) }
            while cursor.isValid, cursor.path.starts(with: prefix) {
                let rest = cursor.path[prefix.count...]
                if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
                    // Inside a child folder: jump past its contents.
                    let past = Array(cursor.path[..<slash]) + [0]
                    cursor = past.withUnsafeBytes { seek($0, raw) }
                    continue
                }
                found.append((cursor.ordinal, String(decoding: rest, as: UTF8.self), cursor.entry.kind))
                advance(&cursor, raw)
            }
        }
        return found
    }
}
