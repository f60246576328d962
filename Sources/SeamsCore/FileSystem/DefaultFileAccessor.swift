public import Foundation

/// The live ``FileAccessorProviding``, on Foundation.
///
/// Writes are atomic (a temporary file renamed over the target), so a crash leaves the old or
/// the new content. Errors are exactly those Foundation throws.
///
/// ```swift
/// let accessor = DefaultFileAccessor()
/// try accessor.write(Data("hello".utf8), to: url)
/// let bytes = try accessor.read(from: url)
/// ```
public struct DefaultFileAccessor: FileAccessorProviding {
    /// Creates the live accessor.
    public init() {}

    /// Reads the whole file: on Linux the calls `Data(contentsOf:)` makes (`open`, `fstat`,
    /// `read`), with the descriptor closed on `exec`; on Apple platforms `Data(contentsOf:)`.
    ///
    /// Foundation on Linux opens the file without `O_CLOEXEC`, so a process started meanwhile
    /// (by any thread, with `Process` or `posix_spawn`) keeps it open for as long as it lives.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The file's bytes.
    /// - Throws: The `CocoaError` Foundation throws (see ``FileAccessorProviding/read(from:)``).
    public func read(from url: URL) throws -> Data {
        #if canImport(Darwin)
            try Data(contentsOf: url)
        #else
            try Self.readWhole(url.path)
        #endif
    }

    /// Writes atomically: on Linux the calls `Data.write(to:options: .atomic)` makes (a temporary
    /// file `.dat.nosync<pid>.<random>` beside the target, written, flushed and renamed over it),
    /// with the descriptor closed on `exec`; on Apple platforms `Data.write(to:options: .atomic)`.
    ///
    /// - Parameters:
    ///   - data: The new content.
    ///   - url: A file URL whose parent folder exists.
    /// - Throws: The `CocoaError` Foundation throws (see ``FileAccessorProviding/write(_:to:)``).
    public func write(_ data: Data, to url: URL) throws {
        #if canImport(Darwin)
            try data.write(to: url, options: .atomic)
        #else
            try Self.writeAtomically(data, to: url.path)
        #endif
    }

    /// Whether anything exists at `url`, through `FileManager.fileExists(atPath:)`.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: `true` when the path names an existing item.
    public func fileExists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }
}
