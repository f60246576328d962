public import Foundation
public import SeamsCore

/// Keeps a local folder in step with the sync container, two-way, without losing a version.
///
/// Every external concern comes in through a protocol with a live default, so production code
/// writes `SyncManager()` and tests inject doubles from `SeamsTesting`:
///
/// ```swift
/// let manager = SyncManager()                                  // production
/// try await manager.chooseLocalFolder(URL(filePath: "/home/me/Notes"))
/// let report = try await manager.sync()
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
    private let directoryAccessor: any DirectoryAccessorProviding
    private let bookmarkStorage: any BookmarkStorageProviding
    private let stateDirectory: URL
    private let options: SyncOptions
    private let engine: SyncEngine

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - fileSystem: Locates the sync container.
    ///   - fileAccessor: Reads and writes files.
    ///   - directoryAccessor: Lists, copies, moves and flushes.
    ///   - bookmarkStorage: Remembers the local folder the user chose.
    ///   - stateDirectory: Where the sync state lives; `nil` is `$XDG_STATE_HOME/seams-sync`.
    ///   - options: Guards and retention.
    ///   - clock: The time now.
    public init(
        fileSystem: any FileSystemProviding = DefaultFileSystemProvider(),
        fileAccessor: any FileAccessorProviding = DefaultFileAccessor(),
        directoryAccessor: any DirectoryAccessorProviding = DefaultDirectoryAccessor(),
        bookmarkStorage: any BookmarkStorageProviding = DefaultBookmarkStorage(),
        stateDirectory: URL? = nil,
        options: SyncOptions = SyncOptions(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.fileSystem = fileSystem
        self.fileAccessor = fileAccessor
        self.directoryAccessor = directoryAccessor
        self.bookmarkStorage = bookmarkStorage
        self.stateDirectory = stateDirectory ?? Self.defaultStateDirectory()
        self.options = options
        self.engine = SyncEngine(directories: directoryAccessor, files: fileAccessor, clock: clock)
    }

    /// `$XDG_STATE_HOME/seams-sync` (`~/.local/state/seams-sync` when unset).
    ///
    /// - Parameter environment: The environment to read.
    /// - Returns: The default state folder.
    public static func defaultStateDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        (XDGDirectory.state.url(environment: environment) ?? FileManager.default.temporaryDirectory)
            .appending(path: "seams-sync", directoryHint: .isDirectory)
    }

    /// Remembers `folder` as the local folder to sync, with its identity.
    ///
    /// - Parameter folder: An existing folder.
    /// - Throws: ``SyncError/folderNotAvailable(_:)``, or ``SyncError/writeFailed(_:_:)`` when the
    ///   bookmark cannot be saved.
    public func chooseLocalFolder(_ folder: URL) async throws {
        let bookmark = try FolderBookmark(folder: folder, directories: directoryAccessor)
        do {
            try bookmarkStorage.saveBookmark(try bookmark.encoded(), for: FolderBookmark.localFolderKey)
        } catch {
            throw SyncError.writeFailed(error, near: folder)
        }
    }

    /// Syncs the chosen local folder with the sync container, two-way.
    ///
    /// - Returns: What was done.
    /// - Throws: ``SyncError/containerNotAvailable`` without a container (checked first),
    ///   ``SyncError/localFolderNotChosen``, ``SyncError/staleLocalFolder(_:)``, a guard's refusal,
    ///   or ``SyncError/readFailed(_:_:)`` / ``SyncError/writeFailed(_:_:)`` with the boundary's error.
    @discardableResult
    public func sync() async throws -> SyncReport {
        guard let container = fileSystem.containerURL(for: .sync) else { throw SyncError.containerNotAvailable }
        let data: Data?
        do {
            data = try bookmarkStorage.loadBookmark(for: FolderBookmark.localFolderKey)
        } catch {
            throw SyncError.readFailed(URL(filePath: FolderBookmark.localFolderKey), UnderlyingError(error))
        }
        guard let data else { throw SyncError.localFolderNotChosen }
        let local = try FolderBookmark(data: data).resolve(directories: directoryAccessor)
        return try await sync(local: local, container: container)
    }

    /// Syncs two given folders, two-way.
    ///
    /// - Parameters:
    ///   - local: The local folder.
    ///   - container: The container folder.
    /// - Returns: What was done.
    /// - Throws: ``SyncError``.
    @discardableResult
    public func sync(local: URL, container: URL) async throws -> SyncReport {
        // The engine throws only ``SyncError``.
        try engine.run(local: local, container: container, stateDirectory: stateDirectory, options: options)
    }

    /// The bytes of `data.json` in the sync container.
    ///
    /// - Returns: The file's content.
    /// - Throws: ``SyncError/containerNotAvailable`` or ``SyncError/readFailed(_:_:)``.
    public func loadData() async throws -> Data {
        guard let container = fileSystem.containerURL(for: .sync) else { throw SyncError.containerNotAvailable }
        let url = container.appending(path: Self.dataFileName, directoryHint: .notDirectory)
        do {
            return try fileAccessor.read(from: url)
        } catch {
            throw SyncError.readFailed(url, UnderlyingError(error))
        }
    }
}
