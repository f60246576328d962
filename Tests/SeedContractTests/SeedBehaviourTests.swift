import Foundation
import Seams
import SeamsSync
import SeamsTesting
import Testing

/// What the seed's examples promise, checked more tightly than the examples themselves do.
@Suite struct SeedBehaviourTests {
    let container = URL(filePath: "/virtual/container", directoryHint: .isDirectory)
    var dataURL: URL { container.appending(path: "data.json") }

    @Test("a missing container stops before any file is touched")
    func missingContainerTouchesNoFile() async {
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: nil),
            fileAccessor: UnimplementedFileAccessor()
        )
        await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
        await #expect(throws: SyncError.containerNotAvailable) { _ = try await manager.loadData() }
    }

    @Test("the manager asks for the sync container and reads data.json inside it")
    func readsDataFileOfSyncContainer() async throws {
        let fileSystem = MockFileSystemProvider(containerURL: container)
        let accessor = MockFileAccessor(files: [dataURL: Data("[1,2]".utf8)])
        let manager = SyncManager(fileSystem: fileSystem, fileAccessor: accessor)
        try await manager.sync()
        #expect(try await manager.loadData() == Data("[1,2]".utf8))
        #expect(fileSystem.requestedPurposes == [.sync, .sync])
        #expect(accessor.calls == [.read(dataURL), .read(dataURL)])
    }

    @Test("a read failure reaches the caller as a SyncError that keeps the underlying error")
    func readFailureKeepsUnderlyingError() async {
        let accessor = MockFileAccessor()
        accessor.readError = CocoaError(.fileReadCorruptFile)
        let manager = SyncManager(fileSystem: MockFileSystemProvider(containerURL: container), fileAccessor: accessor)
        await #expect(throws: SyncError.readFailed(dataURL, UnderlyingError(CocoaError(.fileReadCorruptFile)))) {
            try await manager.sync()
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
    func missingDataFile() async {
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: container),
            fileAccessor: MockFileAccessor()
        )
        let expected = UnderlyingError(CocoaError.fileSystemError(errno: ENOENT, path: dataURL.path, writing: false))
        await #expect(throws: SyncError.readFailed(dataURL, expected)) { try await manager.sync() }
        #expect(expected.code == CocoaError.Code.fileReadNoSuchFile.rawValue)
        #expect(expected.posixCode == .ENOENT)
    }

    @Test("data.json that is not JSON is reported as corrupt", arguments: ["", "{", "not json", "\u{FFFD}"])
    func corruptData(content: String) async {
        let manager = SyncManager(
            fileSystem: MockFileSystemProvider(containerURL: container),
            fileAccessor: MockFileAccessor(files: [dataURL: Data(content.utf8)])
        )
        await #expect(throws: SyncError.corruptData(dataURL)) { try await manager.sync() }
    }

    @Test("the seed's fixture container is real and empty, so the mock serves every byte")
    func fixtureContainerIsReal() async throws {
        let container = seedContainer  // creates the fixture and sets XDG_DATA_HOME first
        let provider = DefaultFileSystemProvider()
        #expect(provider.containerURL(for: .sync)?.standardizedFileURL == container.standardizedFileURL)
        #expect(try FileManager.default.contentsOfDirectory(atPath: seedContainer.path).isEmpty)
    }
}
