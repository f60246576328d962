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

    /// Reads the whole file with `Data(contentsOf:)`.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The file's bytes.
    /// - Throws: Foundation's `CocoaError` (see ``FileAccessorProviding/read(from:)``).
    public func read(from url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    /// Writes with `Data.write(to:options: .atomic)`.
    ///
    /// - Parameters:
    ///   - data: The new content.
    ///   - url: A file URL whose parent folder exists.
    /// - Throws: Foundation's `CocoaError` (see ``FileAccessorProviding/write(_:to:)``).
    public func write(_ data: Data, to url: URL) throws {
        try data.write(to: url, options: .atomic)
    }

    /// Whether anything exists at `url`, through `FileManager.fileExists(atPath:)`.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: `true` when the path names an existing item.
    public func fileExists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }
}
