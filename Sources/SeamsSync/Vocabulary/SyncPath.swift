import Foundation

/// A path relative to the root of a synced folder, `/`-separated, compared by its exact bytes.
///
/// Swift compares `String`s by canonical equivalence, so `"é"` (NFC) equals `"e\u{301}"` (NFD);
/// Linux file systems keep both as two different names. A `SyncPath` compares and hashes the
/// UTF-8 bytes, so two such files stay two paths and neither is lost.
///
/// ```swift
/// let path = SyncPath("docs/report.txt")
/// path.name        // "report.txt"
/// path.parent      // SyncPath("docs")
/// ```
struct SyncPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path as written, without a leading or trailing `/`.
    let rawValue: String

    /// Creates a path from its `/`-separated text.
    ///
    /// - Parameter rawValue: A relative path such as `docs/report.txt`.
    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The last component.
    var name: String {
        guard let slash = rawValue.utf8.lastIndex(of: UInt8(ascii: "/")) else { return rawValue }
        return String(rawValue[rawValue.utf8.index(after: slash)...])
    }

    /// The folder that holds this path, or `nil` for an item at the root.
    var parent: SyncPath? {
        guard let slash = rawValue.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return SyncPath(String(rawValue[..<slash]))
    }

    /// This path with one more component.
    ///
    /// - Parameter component: A name inside this folder.
    /// - Returns: The child's path.
    func appending(_ component: String) -> SyncPath {
        SyncPath(rawValue + "/" + component)
    }

    /// A path whose last component is replaced.
    ///
    /// - Parameter newName: The new last component.
    /// - Returns: The sibling's path.
    func replacingName(with newName: String) -> SyncPath {
        parent.map { $0.appending(newName) } ?? SyncPath(newName)
    }

    /// Whether `self` lies strictly inside the folder `ancestor`.
    ///
    /// - Parameter ancestor: A folder's path.
    /// - Returns: `true` for a descendant.
    func isDescendant(of ancestor: SyncPath) -> Bool {
        let mine = rawValue.utf8
        let theirs = ancestor.rawValue.utf8
        guard mine.count > theirs.count else { return false }
        let slash = mine[mine.index(mine.startIndex, offsetBy: theirs.count)]
        return slash == UInt8(ascii: "/") && Self.compareBytes(rawValue, ancestor.rawValue, length: theirs.count) == 0
    }

    /// The URL of this path inside `root` (a folder, or a server's collection).
    ///
    /// - Parameter root: The synced folder.
    /// - Returns: `root` followed by this path.
    func url(in root: URL) -> URL {
        // A server's collection: the path's components appended, percent-encoded.
        guard root.isFileURL else { return root.appending(path: rawValue, directoryHint: .notDirectory) }
        let base = root.path(percentEncoded: false)
        return URL(filePath: (base.hasSuffix("/") ? base : base + "/") + rawValue, directoryHint: .notDirectory)
    }

    /// Equal when the UTF-8 bytes are equal.
    static func == (lhs: SyncPath, rhs: SyncPath) -> Bool {
        let count = lhs.rawValue.utf8.count
        guard count == rhs.rawValue.utf8.count else { return false }
        return compareBytes(lhs.rawValue, rhs.rawValue, length: count) == 0
    }

    /// Path order: the UTF-8 bytes compared one by one with `/` below every other byte, the
    /// shorter first on a common prefix.
    ///
    /// A folder sorts before everything inside it, and everything inside it comes right after
    /// it, before any sibling: `a`, `a/b`, `a/c`, `a b`, `a-c`.
    static func < (lhs: SyncPath, rhs: SyncPath) -> Bool {
        let result = lhs.rawValue.utf8.withContiguousStorageIfAvailable { a in
            rhs.rawValue.utf8.withContiguousStorageIfAvailable { b in pathOrder(a, b) }
        }
        if let result = result ?? nil { return result < 0 }
        return pathOrder(Array(lhs.rawValue.utf8), Array(rhs.rawValue.utf8)) < 0
    }

    private static func pathOrder(_ a: some RandomAccessCollection<UInt8>, _ b: some RandomAccessCollection<UInt8>)
        -> Int
    {
        for (x, y) in zip(a, b) where x != y {
            let slash = UInt8(ascii: "/")
            return (x == slash ? -1 : Int(x)) - (y == slash ? -1 : Int(y))
        }
        return a.count - b.count
    }

    /// `memcmp` of the first `length` UTF-8 bytes of two strings that have at least that many.
    private static func compareBytes(_ lhs: String, _ rhs: String, length: Int) -> Int {
        let result = lhs.utf8.withContiguousStorageIfAvailable { a in
            rhs.utf8.withContiguousStorageIfAvailable { b in
                length == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, length))
            }
        }
        if let result = result ?? nil { return result }
        return lhs.utf8.prefix(length).elementsEqual(rhs.utf8.prefix(length)) ? 0 : 1
    }

    /// Hashes the UTF-8 bytes.
    func hash(into hasher: inout Hasher) {
        let hashed: Void? = rawValue.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            for byte in rawValue.utf8 { hasher.combine(byte) }
        }
        hasher.combine(0xFF as UInt8)
    }

    /// The path's text.
    var description: String { rawValue }
}
