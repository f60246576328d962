import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

#if canImport(Glibc)
    import Glibc
#endif

/// The engine itself refuses the same folder twice, nested folders and a state folder inside
/// either, by device and inode: a link in a path or a bind mount cannot get around it.
@Suite struct FolderOverlapTests {
    func fake() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for path in ["/a/notes/inner", "/b", "/states"] {
            try fileSystem.createDirectory(at: URL(filePath: path), withIntermediateDirectories: true)
        }
        try fileSystem.write(Data("x".utf8), to: URL(filePath: "/a/notes/x.txt"))
        return fileSystem
    }

    func run(
        _ directories: any DirectoryAccessorProviding & FileAccessorProviding, _ local: String, _ container: String,
        state: String
    ) throws -> SyncReport {
        try SyncEngine(directories: directories, files: directories, owner: "test")
            .run(
                local: URL(filePath: local, directoryHint: .isDirectory),
                container: URL(filePath: container, directoryHint: .isDirectory),
                stateDirectory: URL(filePath: state, directoryHint: .isDirectory))
    }

    @Test(
        "the same folder, a folder inside the other (either way), or the same folder by another spelling: refused, nothing written",
        arguments: [
            ("/a/notes", "/a/notes"), ("/a/notes", "/a/notes/inner"), ("/a/notes/inner", "/a/notes"),
            ("/a/notes", "/a/notes/inner/.."), ("/a/notes/inner/../inner", "/a/notes"),
        ])
    func overlapping(local: String, container: String) throws {
        let fileSystem = try fake()
        fileSystem.resetCalls()
        #expect(
            throws: SyncError.overlappingFolders(
                URL(filePath: local, directoryHint: .isDirectory), URL(filePath: container, directoryHint: .isDirectory)
            )
        ) {
            try run(fileSystem, local, container, state: "/states/s")
        }
        #expect(
            !fileSystem.calls.contains { $0.operation.isWriting },
            "nothing written: \(fileSystem.calls.filter { $0.operation.isWriting })")
    }

    @Test(
        "a state folder inside either folder, existing or not yet: refused",
        arguments: [
            ("/a/notes/.state", "/a/notes"), ("/b/deep/state", "/b"), ("/a/notes/inner/../st", "/a/notes"),
        ])
    func stateInside(state: String, folder: String) throws {
        let fileSystem = try fake()
        #expect(
            throws: SyncError.stateInsideFolder(
                URL(filePath: state, directoryHint: .isDirectory), URL(filePath: folder, directoryHint: .isDirectory))
        ) {
            try run(fileSystem, "/a/notes", "/b", state: state)
        }
        #expect(!fileSystem.fileExists(at: URL(filePath: "/b/x.txt")))
    }

    @Test("separate folders with a state beside them sync")
    func separate() throws {
        let fileSystem = try fake()
        let report = try run(fileSystem, "/a/notes", "/b", state: "/states/s")
        #expect(report.copiedToContainer == 1)
    }

    @Test("live: a container path that passes through a symbolic link into the local folder is refused")
    func throughLink() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "seams-overlap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let local = base.appending(path: "local")
        try FileManager.default.createDirectory(at: local.appending(path: "inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: base.appending(path: "door"), withDestinationURL: local)
        let live = LiveBoundary()
        let container = base.path + "/door/inner"
        #expect(
            throws: SyncError.overlappingFolders(
                URL(filePath: local.path, directoryHint: .isDirectory),
                URL(filePath: container, directoryHint: .isDirectory))
        ) {
            try run(live, local.path, container, state: base.path + "/state")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: local.path + "/inner").isEmpty)
    }

    /// Whether this process can bind-mount (root, and mounts allowed here); tried once.
    static let canBindMount: Bool = {
        guard getuid() == 0 else { return false }
        let base = FileManager.default.temporaryDirectory.appending(path: "seams-bind-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let (source, target) = (base.appending(path: "s"), base.appending(path: "t"))
        for folder in [source, target] {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        guard shell("/bin/mount", ["--bind", source.path, target.path]) == 0 else { return false }
        return shell("/bin/umount", [target.path]) == 0
    }()

    @Test(
        "live: a bind mount of the local folder inside the container is refused",
        .enabled(if: FolderOverlapTests.canBindMount, "needs root and permission to bind-mount"))
    func bindMount() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "seams-bind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let local = base.appending(path: "local")
        let container = base.appending(path: "container")
        let mountPoint = container.appending(path: "mirror")
        for folder in [local, mountPoint] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try #require(Self.shell("/bin/mount", ["--bind", local.path, mountPoint.path]) == 0, "mount --bind")
        defer { _ = Self.shell("/bin/umount", [mountPoint.path]) }
        try Data("x".utf8).write(to: local.appending(path: "x.txt"))
        // The local folder reached through the mount: inside the container, by identity.
        #expect(
            throws: SyncError.overlappingFolders(
                URL(filePath: mountPoint.path, directoryHint: .isDirectory),
                URL(filePath: container.path, directoryHint: .isDirectory))
        ) {
            try run(LiveBoundary(), mountPoint.path, container.path, state: base.path + "/state")
        }
        #expect(!FileManager.default.fileExists(atPath: container.path + "/x.txt"))
    }

    static func shell(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
