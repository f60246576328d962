import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

@Suite struct SyncManagerTests {
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let local = URL(filePath: "/home/me/Notes", directoryHint: .isDirectory)

    func fileSystem() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem(containerURL: container)
        try fileSystem.createDirectory(at: container, withIntermediateDirectories: false)
        try fileSystem.createDirectory(at: local, withIntermediateDirectories: true)
        return fileSystem
    }

    func manager(
        _ fileSystem: some FileSystemProviding & FileAccessorProviding & DirectoryAccessorProviding
            & BookmarkStorageProviding
    ) -> SyncManager {
        SyncManager(
            fileSystem: fileSystem, fileAccessor: fileSystem, directoryAccessor: fileSystem,
            bookmarkStorage: fileSystem,
            stateDirectory: URL(filePath: "/state"))
    }

    @Test("with a server, a container URL on it syncs through WebDAV, both ways, and a second run changes nothing")
    func throughAServer() async throws {
        let fileSystem = try fileSystem()
        let server = InMemoryWebDAVServer(
            serving: container, of: fileSystem, baseURL: URL(string: "http://dav.test/notes/")!)
        let manager = SyncManager(
            fileSystem: fileSystem, fileAccessor: fileSystem, directoryAccessor: fileSystem,
            bookmarkStorage: fileSystem,
            stateDirectory: URL(filePath: "/state"),
            server: WebDAVAccessor(baseURL: server.baseURL, transport: server, pause: { _ in }))
        try fileSystem.write(Data("local".utf8), to: local.appending(path: "a.txt"))
        try fileSystem.write(Data("served".utf8), to: container.appending(path: "b.txt"))
        var report = try await manager.sync(local: local, container: server.baseURL)
        #expect(report.copiedToContainer == 1 && report.copiedToLocal == 1 && report.failures.isEmpty)
        #expect(try fileSystem.read(from: container.appending(path: "a.txt")) == Data("local".utf8))
        #expect(try fileSystem.read(from: local.appending(path: "b.txt")) == Data("served".utf8))
        #expect(
            server.requests.contains { $0.method.rawValue == "MOVE" && $0.path.contains(".seams-tmp-lock-new-") },
            "the files went through the server")
        report = try await manager.sync(local: local, container: server.baseURL)
        #expect(report.copiedToContainer == 0 && report.copiedToLocal == 0 && report.inSync == 2)
    }

    @Test("seed: a missing container throws containerNotAvailable")
    func missingContainer() async {
        let manager = SyncManager(fileSystem: MockFileSystemProvider(containerURL: nil))
        await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
    }

    @Test("seed: a read failure reaches the caller as a SyncError that keeps the configured error")
    func readError() async throws {
        // Every boundary is injected: the container and the chosen folder exist in the fake, the
        // bookmark store is the fake's, and every read goes to the seed's mock, so the first read
        // the run makes (its state file) meets exactly the configured error, and nothing on this
        // machine is touched.
        let fileSystem = try fileSystem()
        let accessor = MockFileAccessor()
        accessor.readError = CocoaError(.fileReadCorruptFile)
        let state = URL(filePath: "/state", directoryHint: .isDirectory)
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: container),
            fileAccessor: ReadsFromMock(mock: accessor, fake: fileSystem),
            directoryAccessor: fileSystem, bookmarkStorage: fileSystem, stateDirectory: state)
        try await manager.chooseLocalFolder(local)
        let thrown = await #expect(throws: SyncError.self) { try await manager.sync() }
        guard case .readFailed(let url, let underlying)? = thrown else {
            Issue.record("expected SyncError.readFailed, got \(String(describing: thrown))")
            return
        }
        #expect(underlying == UnderlyingError(CocoaError(.fileReadCorruptFile)))
        #expect(url.deletingLastPathComponent().path == state.path)
        #expect(accessor.calls.contains(.read(url)))
    }

    @Test("a read failure in the container keeps the underlying error")
    func readFailureKept() async throws {
        let fileSystem = try fileSystem()
        let manager = manager(fileSystem)
        try await manager.chooseLocalFolder(local)
        try fileSystem.write(Data("x".utf8), to: local.appending(path: "a.txt"))
        try await manager.sync()
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem)
        faulty.addRule(.operation(.read, fails: .ioError))
        let failing = SyncManager(
            fileSystem: fileSystem, fileAccessor: faulty, directoryAccessor: fileSystem, bookmarkStorage: fileSystem,
            stateDirectory: URL(filePath: "/state"))
        do {
            try await failing.sync()
            Issue.record("expected a failure")
        } catch let error as SyncError {
            guard case .readFailed(_, let underlying) = error else {
                Issue.record("expected readFailed, got \(error)")
                return
            }
            #expect(underlying.posixCode == .EIO)
        }
    }

    @Test("seed: loadData returns data.json from the container")
    func loadData() async throws {
        let fileSystem = try fileSystem()
        try fileSystem.write(Data("{\"a\":1}".utf8), to: container.appending(path: "data.json"))
        #expect(try await manager(fileSystem).loadData() == Data("{\"a\":1}".utf8))
    }

    @Test("without a chosen local folder, sync says so")
    func notChosen() async throws {
        await #expect(throws: SyncError.localFolderNotChosen) { try await manager(try fileSystem()).sync() }
    }

    @Test("the chosen folder is remembered and synced both ways")
    func syncsChosenFolder() async throws {
        let fileSystem = try fileSystem()
        try await manager(fileSystem).chooseLocalFolder(local)
        try fileSystem.write(Data("local".utf8), to: local.appending(path: "l.txt"))
        try fileSystem.write(Data("container".utf8), to: container.appending(path: "c.txt"))
        let report = try await manager(fileSystem).sync()
        #expect(report.copiedToContainer == 1 && report.copiedToLocal == 1)
        #expect(try fileSystem.read(from: container.appending(path: "l.txt")) == Data("local".utf8))
        #expect(try fileSystem.read(from: local.appending(path: "c.txt")) == Data("container".utf8))
    }

    @Test("a replaced local folder reads as stale, not as empty")
    func staleFolder() async throws {
        let fileSystem = try fileSystem()
        let manager = manager(fileSystem)
        try fileSystem.write(Data("x".utf8), to: local.appending(path: "a.txt"))
        try await manager.chooseLocalFolder(local)
        try await manager.sync()
        try fileSystem.removeItem(at: local, recursively: true)
        try fileSystem.createDirectory(at: local, withIntermediateDirectories: false)
        await #expect(throws: SyncError.staleLocalFolder(local)) { try await manager.sync() }
        #expect(try fileSystem.read(from: container.appending(path: "a.txt")) == Data("x".utf8))
    }

    @Test("a moved local folder reads as not available")
    func movedFolder() async throws {
        let fileSystem = try fileSystem()
        let manager = manager(fileSystem)
        try await manager.chooseLocalFolder(local)
        try fileSystem.moveItem(at: local, to: URL(filePath: "/home/me/Moved"), replacingExisting: false)
        await #expect(throws: SyncError.folderNotAvailable(local)) { try await manager.sync() }
    }
}

/// Reads from the seed's mock (so its `readError` is what every read meets); writes and existence
/// checks go to the fake, since the engine moves what it writes with the fake's directory accessor.
private struct ReadsFromMock: FileAccessorProviding {
    let mock: MockFileAccessor
    let fake: InMemoryFileSystem
    func read(from url: URL) throws -> Data { try mock.read(from: url) }
    func write(_ data: Data, to url: URL) throws { try fake.write(data, to: url) }
    func fileExists(at url: URL) -> Bool { fake.fileExists(at: url) }
}
