public import Foundation
public import Seams
public import Testing

/// A `FileSystemProviding` that fails the test when touched: it records a Swift Testing issue
/// at the line that created it and answers `nil`.
///
/// ```swift
/// let manager = SyncManager(fileSystem: UnimplementedFileSystemProvider())
/// ```
public struct UnimplementedFileSystemProvider: FileSystemProviding {
    private let reporter: UnimplementedReporter

    /// Creates the double.
    ///
    /// - Parameter sourceLocation: Where issues are reported; defaults to the caller's line.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        reporter = UnimplementedReporter(sourceLocation: sourceLocation)
    }

    /// Records an issue and answers `nil`.
    public func containerURL(for purpose: Purpose) -> URL? {
        reporter.report("FileSystemProviding.containerURL(for:)", "purpose \(purpose)")
        return nil
    }
}
