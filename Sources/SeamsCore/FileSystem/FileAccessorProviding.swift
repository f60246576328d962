public import Foundation

/// Reads and writes whole files.
///
/// Production code takes the live ``DefaultFileAccessor`` through a default parameter; tests
/// inject `MockFileAccessor` or `InMemoryFileSystem` from `SeamsTesting`.
///
/// ```swift
/// struct Settings {
///     let accessor: any FileAccessorProviding
///     init(accessor: any FileAccessorProviding = DefaultFileAccessor()) { self.accessor = accessor }
///     func load(from url: URL) throws -> Data { try accessor.read(from: url) }
/// }
///
/// // In a test:
/// let mock = MockFileAccessor()
/// mock.readError = CocoaError(.fileReadCorruptFile)
/// #expect(throws: CocoaError.self) { try Settings(accessor: mock).load(from: url) }
/// ```
///
/// Errors are Foundation's: a `CocoaError` whose `NSUnderlyingErrorKey` holds the `POSIXError`.
public protocol FileAccessorProviding: Sendable {
    /// The whole content of the file at `url`.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The file's bytes.
    /// - Throws: `CocoaError` `.fileReadNoSuchFile` (ENOENT) when missing, `.fileReadUnknown`
    ///   (EISDIR, ENOTDIR) when a folder is in the way, `.fileReadNoPermission` (EACCES).
    func read(from url: URL) throws -> Data

    /// Replaces the file at `url` with `data`, atomically: readers see the old or the new
    /// content, never a mix.
    ///
    /// - Parameters:
    ///   - data: The new content.
    ///   - url: A file URL whose parent folder exists.
    /// - Throws: `CocoaError` `.fileNoSuchFile` (ENOENT) when the parent is missing,
    ///   `.fileWriteUnknown` (EISDIR) when a folder is in the way, `.fileWriteNoPermission` (EACCES),
    ///   `.fileWriteOutOfSpace` (ENOSPC), `.fileWriteVolumeReadOnly` (EROFS).
    func write(_ data: Data, to url: URL) throws

    /// Whether anything (file or folder) exists at `url`.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: `true` when the path names an existing item.
    func fileExists(at url: URL) -> Bool
}
