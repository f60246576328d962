public import Foundation

/// Stores small opaque blobs by key: on Apple platforms the security-scoped bookmarks a sandboxed
/// app needs to reopen a folder the user chose; on Linux a record of the path and the folder's
/// identity.
///
/// Production code takes the live ``DefaultBookmarkStorage``; tests inject `MockBookmarkStorage`
/// from `SeamsTesting`.
///
/// ```swift
/// try storage.saveBookmark(bookmark, for: "local-folder")
/// let restored = try storage.loadBookmark(for: "local-folder")   // nil when never saved
/// ```
public protocol BookmarkStorageProviding: Sendable {
    /// Saves `data` under `key`, replacing what was there.
    ///
    /// - Parameters:
    ///   - data: The bookmark's bytes.
    ///   - key: Any string; it is a key, never a path.
    /// - Throws: The storage's error when the bookmark could not be saved.
    func saveBookmark(_ data: Data, for key: String) throws

    /// The bookmark saved under `key`, or `nil` when there is none.
    ///
    /// - Parameter key: Any string.
    /// - Returns: The saved bytes, or `nil`.
    /// - Throws: The storage's error when the store exists but cannot be read.
    func loadBookmark(for key: String) throws -> Data?
}
