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

    /// Whether two files hold the same bytes.
    ///
    /// The live accessor compares them a chunk at a time, so two large files never sit in memory
    /// (a sync's first run compares every file present on both sides); the default reads both
    /// whole with ``read(from:)``, which is right for in-memory doubles.
    ///
    /// - Parameters:
    ///   - first: A file URL.
    ///   - second: Another file URL.
    /// - Returns: `true` when both have the same length and the same bytes.
    /// - Throws: What ``read(from:)`` throws for the file that cannot be read.
    func contentsEqual(_ first: URL, _ second: URL) throws -> Bool

    /// Creates a new file holding `data`, only if nothing is at `url`: the check and the creation
    /// are one step (`open` with `O_CREAT | O_EXCL`), so of two processes that try at once exactly
    /// one succeeds, on every local file system, FAT and exFAT included. The content is flushed
    /// before the call returns.
    ///
    /// - Parameters:
    ///   - data: The content.
    ///   - url: A file URL whose parent folder exists.
    /// - Throws: `CocoaError` `.fileWriteFileExists` (EEXIST) when anything is at `url`; otherwise
    ///   what ``write(_:to:)`` throws.
    func createFile(_ data: Data, at url: URL) throws

    /// Creates a new file, only if nothing is at `url`, from the pieces `nextPiece` returns, in
    /// order, until it returns `nil`: a file of gigabytes (a download in ranges) is never held in
    /// memory. The file holds every piece or is not left at all: when `nextPiece` or a write
    /// throws, what was written is removed and the error is rethrown as it was thrown. The content
    /// is not flushed; flush it with `DirectoryAccessorProviding.synchronizeFile(at:)`.
    ///
    /// The live accessor writes each piece as it comes; the default collects the pieces and calls
    /// ``createFile(_:at:)``, which is right for in-memory doubles.
    ///
    /// - Parameters:
    ///   - url: A file URL whose parent folder exists and where nothing is.
    ///   - nextPiece: The next piece of the content, or `nil` after the last.
    /// - Throws: `CocoaError` `.fileWriteFileExists` (EEXIST) when anything is at `url`, before
    ///   `nextPiece` is called; what ``write(_:to:)`` throws for a failed write; what `nextPiece` throws.
    func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws

    /// Whether the URLs this accessor takes name files of this machine's file system, which other
    /// code (a transport that streams a request body from a file) may open by their path.
    ///
    /// `true` for ``DefaultFileAccessor``; `false` by default, as for an in-memory double, whose
    /// files only its own calls can read.
    var usesThisMachinesFileSystem: Bool { get }
}

extension FileAccessorProviding {
    /// Reads both files whole and compares them.
    public func contentsEqual(_ first: URL, _ second: URL) throws -> Bool {
        try read(from: first) == read(from: second)
    }

    /// Checks, then writes: two steps, not atomic. Doubles that are used by one thread at a time
    /// may keep it; implementations shared across processes must override it.
    public func createFile(_ data: Data, at url: URL) throws {
        if fileExists(at: url) { throw CocoaError.fileSystemError(errno: EEXIST, path: url.path, writing: true) }
        try write(data, to: url)
    }

    /// Checks that nothing is at `url`, collects every piece, then calls ``createFile(_:at:)``.
    public func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        if fileExists(at: url) { throw CocoaError.fileSystemError(errno: EEXIST, path: url.path, writing: true) }
        var content = Data()
        while let piece = try nextPiece() { content.append(piece) }
        try createFile(content, at: url)
    }

    /// `false`: a double's files are read through its own calls only.
    public var usesThisMachinesFileSystem: Bool { false }
}
