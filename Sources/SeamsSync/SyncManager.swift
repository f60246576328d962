public import Foundation
public import SeamsCore
public import SeamsWebDAV

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
///
/// let dav = WebDAVAccessor(baseURL: notesURL, credentials: credentials, transport: URLSessionHTTPTransport.shared)
/// try await SyncManager(server: dav).sync(local: notesFolder, container: notesURL)   // through a server
/// ```
public actor SyncManager {
    /// The name of the data file inside the sync container.
    public static let dataFileName = "data.json"

    private let fileSystem: any FileSystemProviding
    private let fileAccessor: any FileAccessorProviding
    private let directoryAccessor: any DirectoryAccessorProviding
    private let bookmarkStorage: any BookmarkStorageProviding
    private let stateDirectory: URL?
    private let options: SyncOptions
    private let engine: SyncEngine
    /// One sync of this manager at a time (the actor lets calls interleave at `await`; two runs
    /// of one pair at once would only meet the lock).
    nonisolated let turns = TurnQueue()

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - fileSystem: Locates the sync container.
    ///   - fileAccessor: Reads and writes files.
    ///   - directoryAccessor: Lists, copies, moves and flushes.
    ///   - bookmarkStorage: Remembers the local folder the user chose.
    ///   - stateDirectory: Where the sync state lives; `nil` is `$XDG_STATE_HOME/seams-sync`
    ///     (`~/.local/state/seams-sync`). With neither that nor `HOME` set, a sync throws
    ///     ``SyncError/noStateDirectory``: a state in a temporary folder would be lost at reboot.
    ///   - options: Guards and retention.
    ///   - clock: The time now.
    ///   - server: A WebDAV server whose collection may be the container: a container URL it
    ///     serves (`https://dav.example.com/notes/`) is synced through it, with uploads and
    ///     downloads between the sides. `nil` (the default) when the container is a folder.
    public init(
        fileSystem: any FileSystemProviding = DefaultFileSystemProvider(),
        fileAccessor: any FileAccessorProviding = DefaultFileAccessor(),
        directoryAccessor: any DirectoryAccessorProviding = DefaultDirectoryAccessor(),
        bookmarkStorage: any BookmarkStorageProviding = DefaultBookmarkStorage(),
        stateDirectory: URL? = nil,
        options: SyncOptions = SyncOptions(),
        clock: @escaping @Sendable () -> Date = { Date() },
        server: WebDAVAccessor? = nil
    ) {
        self.fileSystem = fileSystem
        self.fileAccessor = fileAccessor
        self.directoryAccessor = directoryAccessor
        self.bookmarkStorage = bookmarkStorage
        self.stateDirectory = stateDirectory ?? Self.defaultStateDirectory()
        self.options = options
        self.engine = SyncEngine(directories: directoryAccessor, files: fileAccessor, clock: clock, remote: server)
    }

    /// `$XDG_STATE_HOME/seams-sync` (`~/.local/state/seams-sync` when unset).
    ///
    /// - Parameter environment: The environment to read.
    /// - Returns: The default state folder, or `nil` when neither `XDG_STATE_HOME` nor `HOME`
    ///   is set to an absolute path (never a temporary folder, which a reboot may empty).
    public static func defaultStateDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        XDGDirectory.state.url(environment: environment)?.appending(path: "seams-sync", directoryHint: .isDirectory)
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
    /// The work runs on a thread of its own, not in Swift's cooperative pool, so a long sync never
    /// holds one of the pool's few threads; the caller's task waits without blocking. Calls on one
    /// manager run one after the other.
    ///
    /// Cancelling the calling task stops the run at its next safe point (between paths, never
    /// inside one change): what was done is flushed and recorded, the lock is released, and the
    /// call throws `CancellationError`; the next call finishes the rest.
    ///
    /// Progress reaches `progress` on the sync's own thread; hop to the main actor to show it:
    ///
    /// ```swift
    /// @MainActor @Observable final class SyncModel {
    ///     var fraction = 0.0
    ///     let manager = SyncManager()
    ///
    ///     func syncNow(local: URL, container: URL) async throws {
    ///         try await manager.sync(local: local, container: container) { progress in
    ///             Task { @MainActor in self.fraction = progress.fractionCompleted }
    ///         }
    ///     }
    /// }
    /// // In a view: ProgressView(value: model.fraction); a Cancel button cancels the task.
    /// ```
    ///
    /// - Parameters:
    ///   - local: The local folder.
    ///   - container: The container folder.
    ///   - progress: Told how far the run is, now and then and once at the end.
    /// - Returns: What was done.
    /// - Throws: ``SyncError``, or `CancellationError` when the task was cancelled.
    @discardableResult
    public func sync(
        local: URL, container: URL, progress: (@Sendable (SyncProgress) -> Void)? = nil
    ) async throws -> SyncReport {
        try await turns.begin()
        defer { turns.end() }
        try Task.checkCancellation()
        guard let stateDirectory else { throw SyncError.noStateDirectory }
        let stop = SyncStopToken()
        let (engine, options) = (self.engine, self.options)
        let told: @Sendable (SyncProgress) -> Void = progress ?? { _ in }
        let report: SyncReport
        do {
            report = try await withTaskCancellationHandler {
                try await engine.run(
                    local: local, container: container, stateDirectory: stateDirectory, options: options,
                    stop: stop, progress: told)
            } onCancel: {
                stop.requestStop()
            }
        } catch SyncError.interrupted {
            throw CancellationError()
        }
        if report.interruption != nil { throw CancellationError() }
        return report
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
