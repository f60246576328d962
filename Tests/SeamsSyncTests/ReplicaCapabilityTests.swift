import Foundation
import Seams
@testable import SeamsSync
import SeamsTesting
import Testing

/// The stages decide by what a replica declares it can do, never by its type or its URL's scheme:
/// a replica of another kind (a test's, here) is handled by its capabilities alone.
@Suite struct ReplicaCapabilityTests {
    /// A replica that declares whatever a test says.
    struct DeclaredReplica: Replica {
        let root: URL
        let capabilities: ReplicaCapabilities
    }

    let container = URL(filePath: "/container", directoryHint: .isDirectory)

    /// The calls a lock's acquire and release make on a replica declaring `capabilities`.
    func lockCalls(_ capabilities: ReplicaCapabilities) throws -> [FileSystemOperation] {
        let base = InMemoryFileSystem()
        try base.createDirectory(at: container, withIntermediateDirectories: false)
        let recorded = FaultInjectingFileSystem(wrapping: base)
        let lock = SyncLock(
            in: DeclaredReplica(root: container, capabilities: capabilities), owner: "test", runID: "r1",
            directories: recorded, files: recorded, clock: { base.now }, expiry: 60)
        try lock.acquire()
        #expect(base.fileExists(at: container.appending(path: ".seams-lock")))
        lock.release()
        #expect(!base.fileExists(at: container.appending(path: ".seams-lock")))
        #expect(try base.contentsOfDirectory(at: container).isEmpty, "no temp file left")
        return recorded.calls.map(\.operation)
    }

    @Test("a lock on a replica with hard links is placed by a link; on one with a no-replace move and none, by that move")
    func lockPlacedAsDeclared() throws {
        let linked = try lockCalls(LocalFolderReplica(root: container).capabilities)
        #expect(linked.contains(.linkItem) && !linked.contains(.moveItem), "\(linked)")
        let moved = try lockCalls([.noReplaceMove, .durableWhenAnswered])
        #expect(moved.contains(.moveItem) && !moved.contains(.linkItem), "\(moved)")
    }

    @Test("a file URL is a local folder and any other URL a server's collection; their capabilities differ where they must")
    func replicasByURL() throws {
        let folder = replica(at: URL(filePath: "/notes", directoryHint: .isDirectory))
        let server = replica(at: try #require(URL(string: "https://dav.example.com/notes/")))
        #expect(folder is LocalFolderReplica && server is WebDAVReplica)
        #expect(folder.capabilities.isSuperset(of: [.symbolicLinks, .hardLinks, .flush, .localIdentities]))
        #expect(folder.capabilities.isDisjoint(with: [.networked, .durableWhenAnswered]))
        #expect(server.capabilities.isSuperset(of: [.networked, .durableWhenAnswered, .noReplaceMove, .replaceIfUnchanged]))
        #expect(server.capabilities.isDisjoint(with: [.symbolicLinks, .hardLinks, .localIdentities]))
    }
}
