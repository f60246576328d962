import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// What a ``SyncError`` for a failed write says, and which path it names.
@Suite struct SyncErrorWordingTests {
    @Test("an I/O error outside a path's change names the path that failed and the C library's words")
    func lockWriteFailureNamesTheLock() throws {
        let local = URL(filePath: "/local", directoryHint: .isDirectory)
        let container = URL(filePath: "/container", directoryHint: .isDirectory)
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem)
        faulty.addRule(.operation(.linkItem, fails: .permissionDenied))
        let engine = SyncEngine(directories: faulty, files: faulty, clock: { fileSystem.now }, owner: "test")
        do {
            _ = try engine.run(local: local, container: container, stateDirectory: URL(filePath: "/state"))
            Issue.record("the run went on without its lock")
        } catch let error as SyncError {
            guard case .writeFailed(let url, let underlying) = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(url.path.hasPrefix("/container/.seams"), "the lock's path, not the local folder: \(url.path)")
            #expect(underlying.posixCode == .EACCES)
            #expect(
                error.description == "Could not write \(url.path): Permission denied (EACCES)", "\(error.description)")
        }
    }

    @Test(
        "a server's failure thrown outside a path's change names the server's URL (https and s3), not a file path made of it",
        arguments: ["https://dav.example/notes/.seams-lock", "s3://bucket/notes/.seams-lock"])
    func remoteFailureNamesItsURL(address: String) throws {
        let url = try #require(URL(string: address))
        let local = URL(filePath: "/local", directoryHint: .isDirectory)
        let refused = CocoaError.remoteError(errno: ECONNREFUSED, url: url, writing: true, reason: nil)
        guard case .writeFailed(let named, let underlying) = SyncError.writeFailed(refused, near: local) else {
            Issue.record("expected writeFailed")
            return
        }
        // Named so, a lost server is told as one (exit 5), not as any other failure (exit 1).
        #expect(named.absoluteString == address)
        #expect(underlying.posixCode == .ECONNREFUSED)
        let onDisk = CocoaError.fileSystemError(errno: EACCES, path: "/data/a b:c.txt", writing: true)
        guard case .writeFailed(let file, _) = SyncError.writeFailed(onDisk, near: local) else {
            Issue.record("expected writeFailed")
            return
        }
        #expect(file == URL(filePath: "/data/a b:c.txt"))
    }

    @Test("a bookmark that cannot be saved names the bookmark store, not the chosen folder")
    func bookmarkSaveFailureNamesTheStore() async throws {
        let folder = URL(filePath: "/home/me/Notes", directoryHint: .isDirectory)
        let fileSystem = InMemoryFileSystem()
        try fileSystem.createDirectory(at: folder, withIntermediateDirectories: true)
        let storage = MockBookmarkStorage()
        storage.saveError = CocoaError.fileSystemError(
            errno: ENOSPC, path: "/home/me/.local/state/bookmarks.json", writing: true)
        let manager = SyncManager(
            directoryAccessor: fileSystem, bookmarkStorage: storage, stateDirectory: URL(filePath: "/state"))
        do {
            try await manager.chooseLocalFolder(folder)
            Issue.record("the save failure was swallowed")
        } catch let error as SyncError {
            guard case .writeFailed(let url, let underlying) = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(url.path == "/home/me/.local/state/bookmarks.json")
            #expect(underlying.posixCode == .ENOSPC)
            #expect(
                error.description
                    == "Could not write /home/me/.local/state/bookmarks.json: No space left on device (ENOSPC)")
        }
    }
}
