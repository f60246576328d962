import Foundation
import Seams
import SeamsSync
import SeamsTesting
import Testing

/// What the seed's examples promise, checked more tightly than the examples themselves do.
@Suite struct SeedBehaviourTests {
    let container = URL(filePath: "/virtual/container", directoryHint: .isDirectory)
    var dataURL: URL { container.appending(path: "data.json") }

    @Test("a missing container stops sync and loadData before anything else is touched")
    func missingContainerTouchesNothing() async {
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: nil),
            fileAccessor: UnimplementedFileAccessor(),
            directoryAccessor: UnimplementedDirectoryAccessor(),
            bookmarkStorage: UnimplementedBookmarkStorage()
        )
        await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
        await #expect(throws: SyncError.containerNotAvailable) { _ = try await manager.loadData() }
    }

    @Test("loadData asks for the sync container and reads data.json inside it")
    func readsDataFileOfSyncContainer() async throws {
        let fileSystem = MockFileSystemProvider(containerURL: container)
        let accessor = MockFileAccessor(files: [dataURL: Data("[1,2]".utf8)])
        let manager = SyncManager(fileSystem: fileSystem, fileAccessor: accessor)
        #expect(try await manager.loadData() == Data("[1,2]".utf8))
        #expect(fileSystem.requestedPurposes == [.sync])
        #expect(accessor.calls == [.read(dataURL)])
    }

    @Test("a read failure reaches the caller as a SyncError that keeps the underlying error")
    func readFailureKeepsUnderlyingError() async {
        let accessor = MockFileAccessor()
        accessor.readError = CocoaError(.fileReadCorruptFile)
        let manager = SyncManager(fileSystem: MockFileSystemProvider(containerURL: container), fileAccessor: accessor)
        await #expect(throws: SyncError.readFailed(dataURL, UnderlyingError(CocoaError(.fileReadCorruptFile)))) {
            _ = try await manager.loadData()
        }
        do {
            _ = try await manager.loadData()
            Issue.record("loadData() returned despite the read error")
        } catch let SyncError.readFailed(url, underlying) {
            #expect(url == dataURL)
            #expect((underlying.error as? CocoaError)?.code == .fileReadCorruptFile)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a missing data.json reads as Foundation's missing-file error, kept inside the SyncError")
    func missingDataFile() async throws {
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: container),
            fileAccessor: MockFileAccessor()
        )
        let thrown = await #expect(throws: SyncError.self) { _ = try await manager.loadData() }
        guard case .readFailed(let url, let underlying)? = thrown else {
            Issue.record("expected SyncError.readFailed, got \(String(describing: thrown))")
            return
        }
        #expect(url == dataURL)
        #expect(underlying.domain == NSCocoaErrorDomain)
        #expect(underlying.code == 260)  // NSFileReadNoSuchFileError
        #expect(underlying.posixCode == .ENOENT)
        #expect((underlying.error as NSError).userInfo[NSFilePathErrorKey] as? String == dataURL.path)

        // The same error Foundation itself throws for a file that is not there.
        let missing = FileManager.default.temporaryDirectory.appending(path: "seams-missing-\(UUID().uuidString)")
        do {
            _ = try Data(contentsOf: missing)
            Issue.record("Data(contentsOf:) read a file that does not exist")
        } catch {
            let foundation = UnderlyingError(error)
            #expect(foundation.domain == underlying.domain)
            #expect(foundation.code == underlying.code)
            #expect(foundation.posixCode == underlying.posixCode)
        }
    }

    @Test("with a container but no local folder chosen, sync says so and changes nothing")
    func noLocalFolderChosen() async {
        let bookmarks = MockBookmarkStorage()
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: container),
            fileAccessor: UnimplementedFileAccessor(),
            directoryAccessor: UnimplementedDirectoryAccessor(),
            bookmarkStorage: bookmarks
        )
        await #expect(throws: SyncError.localFolderNotChosen) { try await manager.sync() }
        #expect(bookmarks.calls.count == 1)
    }

    @Test("a bookmark store that cannot be read reaches the caller with its error")
    func bookmarkLoadFailure() async {
        let bookmarks = MockBookmarkStorage()
        bookmarks.loadError = BookmarkStorageError.corruptStore(URL(filePath: "/cfg/bookmarks.json"), reason: "test")
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: container),
            fileAccessor: UnimplementedFileAccessor(),
            directoryAccessor: UnimplementedDirectoryAccessor(),
            bookmarkStorage: bookmarks
        )
        do {
            try await manager.sync()
            Issue.record("sync() returned despite the unreadable bookmark store")
        } catch let SyncError.readFailed(_, underlying) {
            #expect(
                underlying.error as? BookmarkStorageError
                    == .corruptStore(URL(filePath: "/cfg/bookmarks.json"), reason: "test"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("the seed's fixture isolates every default location in a fresh temporary folder")
    func fixtureIsIsolated() async throws {
        let container = seedContainer  // made, with the XDG variables, when the test binary loaded
        let provider = DefaultFileSystemProvider()
        #expect(provider.containerURL(for: .sync)?.standardizedFileURL == container.standardizedFileURL)
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.path).isEmpty)
        let root = container.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path
        #expect(DefaultBookmarkStorage().storeURL.standardizedFileURL.path.hasPrefix(root))
        #expect(SyncManager.defaultStateDirectory()?.standardizedFileURL.path.hasPrefix(root) == true)
    }
}
