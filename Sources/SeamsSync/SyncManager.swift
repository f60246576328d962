public import Foundation
public import Seams

/// Keeps the data of an app in step with its sync container.
///
/// Every external concern comes in through a protocol with a live default, so production code
/// writes `SyncManager()` and tests inject doubles from `SeamsTesting`:
///
/// ```swift
/// let manager = SyncManager()                                  // production
///
/// let manager = SyncManager(                                   // a test
///     fileSystem: MockFileSystemProvider(containerURL: nil)
/// )
/// await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
/// ```
public actor SyncManager {
    /// The name of the data file inside the sync container.
    public static let dataFileName = "data.json"

    private let fileSystem: any FileSystemProviding
    private let fileAccessor: any FileAccessorProviding

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - fileSystem: Locates the sync container.
    ///   - fileAccessor: Reads and writes files.
    public init(
        fileSystem: any FileSystemProviding = DefaultFileSystemProvider(),
        fileAccessor: any FileAccessorProviding = DefaultFileAccessor()
    ) {
        self.fileSystem = fileSystem
        self.fileAccessor = fileAccessor
    }

    /// Reads `data.json` from the sync container and checks that it is JSON.
    ///
    /// - Throws: ``SyncError/containerNotAvailable`` without a container,
    ///   ``SyncError/readFailed(_:_:)`` when the file cannot be read,
    ///   ``SyncError/corruptData(_:)`` when it is not JSON.
    public func sync() async throws {
        let url = try dataFileURL()
        let data = try read(url)
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            throw SyncError.corruptData(url)
        }
    }

    /// The bytes of `data.json` in the sync container.
    ///
    /// - Returns: The file's content.
    /// - Throws: ``SyncError/containerNotAvailable`` or ``SyncError/readFailed(_:_:)``.
    public func loadData() async throws -> Data {
        try read(try dataFileURL())
    }

    private func dataFileURL() throws(SyncError) -> URL {
        guard let container = fileSystem.containerURL(for: .sync) else {
            throw .containerNotAvailable
        }
        return container.appending(path: Self.dataFileName, directoryHint: .notDirectory)
    }

    private func read(_ url: URL) throws(SyncError) -> Data {
        do {
            return try fileAccessor.read(from: url)
        } catch {
            throw .readFailed(url, UnderlyingError(error))
        }
    }
}
