public import Foundation
public import Seams
public import Testing

/// A `DirectoryAccessorProviding` that fails the test when touched: each call records a Swift
/// Testing issue at the line that created the double, then throws ``UnimplementedError``.
///
/// ```swift
/// let manager = SyncManager(
///     fileSystem: MockFileSystemProvider(containerURL: nil),
///     directoryAccessor: UnimplementedDirectoryAccessor()   // no folder may be listed or changed
/// )
/// ```
public struct UnimplementedDirectoryAccessor: DirectoryAccessorProviding {
    private let reporter: UnimplementedReporter

    /// Creates the double.
    ///
    /// - Parameter sourceLocation: Where issues are reported; defaults to the caller's line.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        reporter = UnimplementedReporter(sourceLocation: sourceLocation)
    }

    private func fail(_ requirement: String, _ url: URL) -> UnimplementedError {
        reporter.report("DirectoryAccessorProviding.\(requirement)", url.path)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        throw fail("contentsOfDirectory(at:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func metadata(at url: URL) throws -> FileMetadata {
        throw fail("metadata(at:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        throw fail("createDirectory(at:withIntermediateDirectories:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func removeItem(at url: URL, recursively: Bool) throws {
        throw fail("removeItem(at:recursively:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        throw fail("moveItem(at:to:replacingExisting:)", source)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func copyItem(at source: URL, to destination: URL) throws {
        throw fail("copyItem(at:to:)", source)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func copyItemReadingMetadata(at source: URL, to destination: URL) throws -> (
        source: FileMetadata, copy: FileMetadata
    ) {
        throw fail("copyItemReadingMetadata(at:to:)", source)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func linkItem(at source: URL, to destination: URL) throws {
        throw fail("linkItem(at:to:)", source)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func destinationOfSymbolicLink(at url: URL) throws -> String {
        throw fail("destinationOfSymbolicLink(at:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        throw fail("createSymbolicLink(at:withDestination:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func synchronizeFile(at url: URL) throws {
        throw fail("synchronizeFile(at:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func synchronizeDirectory(at url: URL) throws {
        throw fail("synchronizeDirectory(at:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func setPermissions(_ permissions: UInt16, at url: URL) throws {
        throw fail("setPermissions(_:at:)", url)
    }

    /// Records an issue and throws ``UnimplementedError``.
    public func setModificationDate(_ date: Date, at url: URL) throws {
        throw fail("setModificationDate(_:at:)", url)
    }
}
