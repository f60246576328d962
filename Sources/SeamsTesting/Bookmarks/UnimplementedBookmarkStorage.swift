public import Foundation
public import Seams
public import Testing

/// A `BookmarkStorageProviding` that fails the test when touched: each call records a Swift
/// Testing issue at the line that created it, then throws ``UnimplementedError``.
///
/// ```swift
/// let storage = UnimplementedBookmarkStorage()
/// ```
public struct UnimplementedBookmarkStorage: BookmarkStorageProviding {
    private let reporter: UnimplementedReporter

    /// Creates the double.
    ///
    /// - Parameter sourceLocation: Where issues are reported; defaults to the caller's line.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        reporter = UnimplementedReporter(sourceLocation: sourceLocation)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func saveBookmark(_ data: Data, for key: String) throws {
        throw reporter.report("BookmarkStorageProviding.saveBookmark(_:for:)", "key \(key)")
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func loadBookmark(for key: String) throws -> Data? {
        throw reporter.report("BookmarkStorageProviding.loadBookmark(for:)", "key \(key)")
    }
}
