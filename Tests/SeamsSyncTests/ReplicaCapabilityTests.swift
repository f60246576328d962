import Foundation
import Seams
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

/// The stages decide by what a replica declares it can do, never by its type or its URL's scheme:
/// a replica of another kind (a test's, here) is handled by its capabilities alone.
@Suite struct ReplicaCapabilityTests {
    /// A replica that declares whatever a test says, on the boundaries it is given.
    struct DeclaredReplica: Replica {
        let root: URL
        let capabilities: ReplicaCapabilities
        let directories: any DirectoryAccessorProviding
        let files: any FileAccessorProviding

        init(root: URL, capabilities: ReplicaCapabilities, on boundary: FaultInjectingFileSystem) {
            self.root = root
            self.capabilities = capabilities
            directories = boundary
            files = boundary
        }
    }

    /// A replica off this machine, declaring what a test says: an upload is a read of the local
    /// file and a create here, a download the other way round.
    struct DeclaredRemote: RemoteReplica {
        let root: URL
        let capabilities: ReplicaCapabilities
        let boundary: FaultInjectingFileSystem
        var directories: any DirectoryAccessorProviding { boundary }
        var files: any FileAccessorProviding { boundary }

        func upload(_ source: URL, from local: any Replica, to destination: URL) throws {
            try boundary.createFile(try local.files.read(from: source), at: destination)
        }

        func download(_ source: URL, to destination: URL, in local: any Replica) throws {
            try local.files.createFile(try boundary.read(from: source), at: destination)
        }
    }

    let container = URL(filePath: "/container", directoryHint: .isDirectory)

    /// The calls a lock's acquire and release make on a replica declaring `capabilities`.
    func lockCalls(_ capabilities: ReplicaCapabilities) throws -> [FileSystemOperation] {
        let base = InMemoryFileSystem()
        try base.createDirectory(at: container, withIntermediateDirectories: false)
        let recorded = FaultInjectingFileSystem(wrapping: base)
        let lock = SyncLock(
            in: DeclaredReplica(root: container, capabilities: capabilities, on: recorded), owner: "test", runID: "r1",
            clock: { base.now }, expiry: 60)
        try lock.acquire()
        #expect(base.fileExists(at: container.appending(path: ".seams-lock")))
        lock.release()
        #expect(!base.fileExists(at: container.appending(path: ".seams-lock")))
        #expect(try base.contentsOfDirectory(at: container).isEmpty, "no temp file left")
        return recorded.calls.map(\.operation)
    }

    @Test(
        "a lock on a replica with hard links is placed by a link; on one with a no-replace move and none, by that move")
    func lockPlacedAsDeclared() throws {
        let linked = try lockCalls(
            LocalFolderReplica(root: container, directories: InMemoryFileSystem(), files: InMemoryFileSystem())
                .capabilities)
        #expect(linked.contains(.linkItem) && !linked.contains(.moveItem), "\(linked)")
        let moved = try lockCalls([.noReplaceMove, .durableWhenAnswered])
        #expect(moved.contains(.moveItem) && !moved.contains(.linkItem), "\(moved)")
    }

    @Test(
        "a container the engine's server serves is a collection there; any other URL a local folder; their capabilities differ where they must"
    )
    func replicasByServer() throws {
        let fileSystem = InMemoryFileSystem()
        try fileSystem.createDirectory(
            at: URL(filePath: "/served", directoryHint: .isDirectory), withIntermediateDirectories: false)
        let server = InMemoryWebDAVServer(
            serving: URL(filePath: "/served", directoryHint: .isDirectory), of: fileSystem,
            baseURL: try #require(URL(string: "http://dav.test/notes/")))
        let engine = SyncEngine(
            directories: InMemoryFileSystem(), files: InMemoryFileSystem(),
            remote: WebDAVAccessor(baseURL: server.baseURL, transport: server))
        let folder = engine.replica(at: URL(filePath: "/notes", directoryHint: .isDirectory))
        let collection = engine.replica(at: server.baseURL)
        let elsewhere = engine.replica(at: try #require(URL(string: "https://dav.example.com/notes/")))
        #expect(folder is LocalFolderReplica && collection is WebDAVReplica && elsewhere is LocalFolderReplica)
        #expect(
            folder.capabilities.isSuperset(of: [
                .symbolicLinks, .hardLinks, .flush, .localIdentities, .permissionsAndDates,
            ]))
        #expect(folder.capabilities.isDisjoint(with: [.networked, .durableWhenAnswered, .contentTags]))
        #expect(
            collection.capabilities.isSuperset(of: [
                .networked, .durableWhenAnswered, .noReplaceMove, .replaceIfUnchanged, .contentTags,
            ]))
        #expect(
            collection.capabilities.isDisjoint(with: [
                .symbolicLinks, .hardLinks, .localIdentities, .flush, .permissionsAndDates,
            ]))
    }

    /// A base file system with `/local` and `/remote`, and a recording boundary over it.
    func twoFolders() throws -> (InMemoryFileSystem, FaultInjectingFileSystem) {
        let base = InMemoryFileSystem()
        for folder in ["/local", "/remote"] {
            try base.createDirectory(
                at: URL(filePath: folder, directoryHint: .isDirectory), withIntermediateDirectories: false)
        }
        return (base, FaultInjectingFileSystem(wrapping: base))
    }

    @Test("a flush is asked only of a replica made durable by one; two on this machine share one call")
    func flushAsDeclared() throws {
        let (_, recorded) = try twoFolders()
        let file = URL(filePath: "/remote/f")
        let folder = URL(filePath: "/remote", directoryHint: .isDirectory)
        var durables = Durables()
        durables.add(file: file, on: .container)
        durables.add(folder: folder, on: .container)
        let local = DeclaredReplica(
            root: URL(filePath: "/local"), capabilities: [.flush, .localIdentities], on: recorded)
        try recorded.createFile(Data("x".utf8), at: file)
        let flushes: Set<FileSystemOperation> = [.synchronizeFile, .synchronizeDirectory]

        let answered = DeclaredReplica(root: folder, capabilities: [.durableWhenAnswered], on: recorded)
        let before = recorded.calls.count
        try ReplicaTransfers(local: local, container: answered).flush(durables)
        #expect(
            recorded.calls.dropFirst(before).filter { flushes.contains($0.operation) }.isEmpty,
            "nothing asked of a replica without flushes")

        let flushed = DeclaredReplica(root: folder, capabilities: [.flush], on: recorded)
        let start = recorded.calls.count
        try ReplicaTransfers(local: local, container: flushed).flush(durables)
        let asked = recorded.calls.dropFirst(start).map(\.operation)
        #expect(asked.contains(.synchronizeFile) && asked.contains(.synchronizeDirectory), "\(asked)")
    }

    @Test("a download sets the remote file's date only where the local replica can set dates")
    func datesAsDeclared() throws {
        let (base, recorded) = try twoFolders()
        try base.write(Data("remote".utf8), to: URL(filePath: "/remote/f"))
        let remote = DeclaredRemote(root: URL(filePath: "/remote"), capabilities: [.networked], boundary: recorded)
        for (capabilities, name, setsDate) in [(ReplicaCapabilities.permissionsAndDates, "a", true), ([], "b", false)] {
            let local = DeclaredReplica(root: URL(filePath: "/local"), capabilities: capabilities, on: recorded)
            let start = recorded.calls.count
            try ReplicaTransfers(local: local, container: remote)
                .copy(URL(filePath: "/remote/f"), from: .container, to: URL(filePath: "/local/\(name)"), on: .local)
            #expect(try base.read(from: URL(filePath: "/local/\(name)")) == Data("remote".utf8))
            let asked = recorded.calls.dropFirst(start).map(\.operation)
            #expect(asked.contains(.setModificationDate) == setsDate, "\(capabilities): \(asked)")
        }
    }

    @Test("a copy within a replica that copies by itself is its own copy; within one that cannot, a read and a create")
    func storeSideCopyAsDeclared() throws {
        let (base, recorded) = try twoFolders()
        try base.write(Data("kept".utf8), to: URL(filePath: "/local/f"))
        for (capabilities, name, byStore) in [(ReplicaCapabilities.storeSideCopyAndMove, "a", true), ([], "b", false)] {
            let local = DeclaredReplica(root: URL(filePath: "/local"), capabilities: capabilities, on: recorded)
            let start = recorded.calls.count
            try ReplicaTransfers(local: local, container: local)
                .copy(URL(filePath: "/local/f"), from: .local, to: URL(filePath: "/local/\(name)"), on: .local)
            #expect(try base.read(from: URL(filePath: "/local/\(name)")) == Data("kept".utf8))
            let asked = recorded.calls.dropFirst(start).map(\.operation)
            #expect(asked.contains(.copyItem) == byStore, "\(capabilities): \(asked)")
            #expect(asked.contains(.read) == !byStore, "\(capabilities): \(asked)")
        }
    }

    @Test("a conditional replace on a replica without one is refused (ENOTSUP), and nothing moves")
    func conditionalReplaceAsDeclared() throws {
        let (base, recorded) = try twoFolders()
        try base.write(Data("new".utf8), to: URL(filePath: "/local/t"))
        try base.write(Data("old".utf8), to: URL(filePath: "/local/f"))
        let expected = try base.metadata(at: URL(filePath: "/local/f"))
        let local = DeclaredReplica(root: URL(filePath: "/local"), capabilities: [.flush], on: recorded)
        #expect(throws: CocoaError.self) {
            try local.moveItem(at: URL(filePath: "/local/t"), over: URL(filePath: "/local/f"), ifStill: expected)
        }
        #expect(try base.read(from: URL(filePath: "/local/f")) == Data("old".utf8))
        #expect(try base.read(from: URL(filePath: "/local/t")) == Data("new".utf8))
    }
}
