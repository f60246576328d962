public import Foundation
public import Seams
public import Testing

/// A `FileAccessorProviding` that fails the test when touched: each call records a Swift
/// Testing issue at the line that created the double, then throws ``UnimplementedError``
/// (`fileExists(at:)` answers `false`).
///
/// Inject it where a test expects no file access, so that a forgotten dependency fails loudly
/// instead of touching the disk.
///
/// ```swift
/// let manager = SyncManager(
///     fileSystem: MockFileSystemProvider(containerURL: nil),
///     fileAccessor: UnimplementedFileAccessor()      // the test fails here if a file is read
/// )
/// ```
public struct UnimplementedFileAccessor: FileAccessorProviding {
    private let reporter: UnimplementedReporter

    /// Creates the double.
    ///
    /// - Parameter sourceLocation: Where issues are reported; defaults to the caller's line.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        reporter = UnimplementedReporter(sourceLocation: sourceLocation)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func read(from url: URL) throws -> Data {
        throw reporter.report("FileAccessorProviding.read(from:)", url.path)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func write(_ data: Data, to url: URL) throws {
        throw reporter.report("FileAccessorProviding.write(_:to:)", "\(data.count) bytes to \(url.path)")
    }

    /// Records an issue and answers `false`.
    public func fileExists(at url: URL) -> Bool {
        reporter.report("FileAccessorProviding.fileExists(at:)", url.path)
        return false
    }
}
