public import Foundation

/// Locates the containers an app keeps its files in.
///
/// Production code takes the live ``DefaultFileSystemProvider`` through a default parameter;
/// tests inject `MockFileSystemProvider` from `SeamsTesting`.
///
/// ```swift
/// actor Exporter {
///     private let fileSystem: any FileSystemProviding
///     init(fileSystem: any FileSystemProviding = DefaultFileSystemProvider()) {
///         self.fileSystem = fileSystem
///     }
/// }
///
/// // In a test:
/// let exporter = Exporter(fileSystem: MockFileSystemProvider(containerURL: nil))
/// ```
public protocol FileSystemProviding: Sendable {
    /// The folder that holds the files for `purpose`, or `nil` when it is not available now
    /// (not signed in to iCloud, an unmounted volume, a folder that does not exist).
    ///
    /// - Parameter purpose: What the container is for.
    /// - Returns: The container's URL, or `nil` when it is not available.
    func containerURL(for purpose: Purpose) -> URL?
}
