public import Foundation

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
public struct SyncPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path as written, without a leading or trailing `/`.
    public let rawValue: String

    /// Creates a path from its `/`-separated text.
    ///
    /// - Parameter rawValue: A relative path such as `docs/report.txt`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The last component.
    public var name: String {
        guard let slash = rawValue.utf8.lastIndex(of: UInt8(ascii: "/")) else { return rawValue }
        return String(rawValue[rawValue.utf8.index(after: slash)...])
    }

    /// The folder that holds this path, or `nil` for an item at the root.
    public var parent: SyncPath? {
        guard let slash = rawValue.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return SyncPath(String(rawValue[..<slash]))
    }

    /// This path with one more component.
    ///
    /// - Parameter component: A name inside this folder.
    /// - Returns: The child's path.
    public func appending(_ component: String) -> SyncPath {
        SyncPath(rawValue + "/" + component)
    }

    /// A path whose last component is replaced.
    ///
    /// - Parameter newName: The new last component.
    /// - Returns: The sibling's path.
    public func replacingName(with newName: String) -> SyncPath {
        parent.map { $0.appending(newName) } ?? SyncPath(newName)
    }

    /// Whether `self` lies strictly inside the folder `ancestor`.
    ///
    /// - Parameter ancestor: A folder's path.
    /// - Returns: `true` for a descendant.
    public func isDescendant(of ancestor: SyncPath) -> Bool {
        let mine = Array(rawValue.utf8)
        let theirs = Array(ancestor.rawValue.utf8)
        return mine.count > theirs.count && mine.starts(with: theirs)
            && mine[theirs.count] == UInt8(ascii: "/")
    }

    /// The file URL of this path inside `root`.
    ///
    /// - Parameter root: The synced folder.
    /// - Returns: `root` followed by this path.
    public func url(in root: URL) -> URL {
        let base = root.path(percentEncoded: false)
        return URL(filePath: (base.hasSuffix("/") ? base : base + "/") + rawValue, directoryHint: .notDirectory)
    }

    /// Equal when the UTF-8 bytes are equal.
    public static func == (lhs: SyncPath, rhs: SyncPath) -> Bool {
        guard lhs.rawValue.utf8.count == rhs.rawValue.utf8.count else { return false }
        return compareBytes(lhs, rhs) == 0
    }

    /// Byte order, so a folder sorts before everything inside it.
    public static func < (lhs: SyncPath, rhs: SyncPath) -> Bool {
        compareBytes(lhs, rhs) < 0
    }

    /// `memcmp` order of the UTF-8 bytes, the shorter first on a common prefix.
    private static func compareBytes(_ lhs: SyncPath, _ rhs: SyncPath) -> Int {
        var left = lhs.rawValue
        var right = rhs.rawValue
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let common = min(a.count, b.count)
                for index in 0..<common where a[index] != b[index] {
                    return Int(a[index]) - Int(b[index])
                }
                return a.count - b.count
            }
        }
    }

    /// Hashes the UTF-8 bytes.
    public func hash(into hasher: inout Hasher) {
        var text = rawValue
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(0xFF as UInt8)
    }

    /// The path's text.
    public var description: String { rawValue }
}
