import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

/// A sync whose local side is the in-memory file system transfers files on the path the live
/// file system takes: a download in ranges, each piece written through the local boundary as it
/// comes (`createFile(at:pieces:)`), and an upload read through that boundary.
@Suite struct TransferPathTests {
    let local = URL(filePath: "/home/me/Notes", directoryHint: .isDirectory)
    let served = URL(filePath: "/srv/dav", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    @Test(
        "with an in-memory local side, a download goes in ranges through the local boundary and an upload reads through it"
    )
    func inMemoryTakesTheRangedPath() async throws {
        let fileSystem = InMemoryFileSystem()
        try fileSystem.createDirectory(at: local, withIntermediateDirectories: true)
        try fileSystem.createDirectory(at: served, withIntermediateDirectories: true)
        let server = InMemoryWebDAVServer(
            serving: served, of: fileSystem, baseURL: URL(string: "http://dav.test/dav/")!)
        let remote = WebDAVAccessor(baseURL: server.baseURL, transport: server, pause: { _ in }, pieceSize: 4)
        let recorder = FaultInjectingFileSystem(wrapping: fileSystem)
        try fileSystem.write(Data("ten bytes!".utf8), to: served.appending(path: "down.txt"))
        try fileSystem.write(Data("from here".utf8), to: local.appending(path: "up.txt"))

        let engine = SyncEngine(directories: recorder, files: recorder, remote: remote)
        let report = try await engine.run(local: local, container: server.baseURL, stateDirectory: state)

        #expect(report.copiedToLocal == 1 && report.copiedToContainer == 1 && report.failures.isEmpty)
        #expect(try fileSystem.read(from: local.appending(path: "down.txt")) == Data("ten bytes!".utf8))
        #expect(try fileSystem.read(from: served.appending(path: "up.txt")) == Data("from here".utf8))
        let pieces = server.requests.filter { $0.method == .get && $0.path.hasSuffix("/down.txt") }
        #expect(pieces.map(\.status) == [206, 206, 206], "three ranges of at most 4 bytes: \(pieces)")
        let calls = recorder.calls.map { "\($0.operation) \($0.url?.lastPathComponent ?? "")" }
        #expect(
            calls.contains { $0.hasPrefix("write .seams-tmp-") },
            "the download was made through the local boundary: \(calls)")
        #expect(calls.contains("read up.txt"), "the upload was read through the local boundary: \(calls)")
    }
}
