import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import SeamsWebDAV
import Testing

/// Uploads from and downloads to local files (`createFile(contentsOf:at:)`,
/// `download(_:toNewFile:)`): streamed on the real servers (`URLSessionHTTPTransport`), through
/// memory on the in-memory server (a transport without file transfers), with the same outcomes.
@Suite(
    "WebDAV file transfers",
    .disabled(
        if: CrashConsistencyTests.underThreadSanitizer,
        "megabytes through three servers at once under the sanitizer starved the loopback transport tests past their time limits; the upload's threads are covered by FileTransferTests"
    ))
struct WebDAVFileTransferTests {
    @Test("a file uploaded from disk downloads to the same bytes", arguments: WebDAVServerUnderTest.allCases)
    func roundTrip(server: WebDAVServerUnderTest) async throws {
        try await with(server) { dav, folder in
            let content = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
            let local = folder.appending(path: "video.bin")
            try content.write(to: local)
            let remote = dav.baseURL.appending(path: "video.bin")
            try dav.createFile(contentsOf: local, at: remote)
            #expect(try dav.metadata(at: remote).size == UInt64(content.count))
            let back = folder.appending(path: "back.bin")
            try dav.download(remote, toNewFile: back)
            #expect(try Data(contentsOf: back) == content)
            // And an empty file.
            let empty = folder.appending(path: "empty")
            try Data().write(to: empty)
            try dav.createFile(contentsOf: empty, at: dav.baseURL.appending(path: "empty"))
            try dav.download(dav.baseURL.appending(path: "empty"), toNewFile: folder.appending(path: "empty-back"))
            #expect(try Data(contentsOf: folder.appending(path: "empty-back")).isEmpty)
        }
    }

    @Test(
        "an upload onto a name that is taken is EEXIST, and the server's file stays",
        arguments: WebDAVServerUnderTest.allCases)
    func uploadOntoExisting(server: WebDAVServerUnderTest) async throws {
        try await with(server) { dav, folder in
            let remote = dav.baseURL.appending(path: "taken.txt")
            try dav.createFile(Data("theirs".utf8), at: remote)
            let local = folder.appending(path: "mine.txt")
            try Data("mine".utf8).write(to: local)
            try expectFailure(.fileWriteFileExists, EEXIST) { try dav.createFile(contentsOf: local, at: remote) }
            #expect(try dav.read(from: remote) == Data("theirs".utf8))
        }
    }

    @Test(
        "an upload of a missing local file is ENOENT, and nothing is made on the server",
        arguments: WebDAVServerUnderTest.allCases)
    func uploadOfMissingFile(server: WebDAVServerUnderTest) async throws {
        try await with(server) { dav, folder in
            let remote = dav.baseURL.appending(path: "never.txt")
            try expectFailure(nil, ENOENT) {
                try dav.createFile(contentsOf: folder.appending(path: "missing"), at: remote)
            }
            #expect(try dav.contentsOfDirectory(at: dav.baseURL).map(\.name) == [])
        }
    }

    @Test("a download of a missing file is ENOENT and leaves no local file", arguments: WebDAVServerUnderTest.allCases)
    func downloadOfMissingFile(server: WebDAVServerUnderTest) async throws {
        try await with(server) { dav, folder in
            let local = folder.appending(path: "never")
            try expectFailure(.fileReadNoSuchFile, ENOENT) {
                try dav.download(dav.baseURL.appending(path: "missing"), toNewFile: local)
            }
            #expect(!FileManager.default.fileExists(atPath: local.path))
        }
    }

    @Test("a download never replaces a local file: EEXIST, and it stays", arguments: WebDAVServerUnderTest.allCases)
    func downloadOntoExisting(server: WebDAVServerUnderTest) async throws {
        try await with(server) { dav, folder in
            let remote = dav.baseURL.appending(path: "theirs.txt")
            try dav.createFile(Data("theirs".utf8), at: remote)
            let local = folder.appending(path: "mine.txt")
            try Data("mine".utf8).write(to: local)
            try expectFailure(.fileWriteFileExists, EEXIST) { try dav.download(remote, toNewFile: local) }
            #expect(try Data(contentsOf: local) == Data("mine".utf8))
        }
    }

    @Test("in-memory server: a download whose answer is lost is retried, and the file is whole once")
    func lostDownloadIsRetried() async throws {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false, now: Date())
        let served = URL(filePath: "/served", directoryHint: .isDirectory)
        try fileSystem.createDirectory(at: served, withIntermediateDirectories: false)
        try fileSystem.write(Data("payload".utf8), to: served.appending(path: "f.txt"))
        let server = InMemoryWebDAVServer(serving: served, of: fileSystem)
        let dav = WebDAVAccessor(baseURL: server.baseURL, transport: server, pause: { _ in })
        server.inject(.loseAnswer, on: .get, pathEndingWith: "f.txt", times: 2)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await onOwnThread {
            try dav.download(dav.baseURL.appending(path: "f.txt"), toNewFile: folder.appending(path: "f.txt"))
        }
        #expect(try Data(contentsOf: folder.appending(path: "f.txt")) == Data("payload".utf8))
        #expect(server.requests.filter { $0.method == .get }.count == 3)
    }

    @Test("in-memory server: a download asks for ranges of the piece size, each after the first with If-Match")
    func ranges() async throws {
        let (fileSystem, served, server) = try inMemoryServer()
        let content = Data((0..<10_500).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try fileSystem.write(content, to: served.appending(path: "f.bin"))
        let recorder = RecordingTransport(wrapping: server)
        let dav = WebDAVAccessor(baseURL: server.baseURL, transport: recorder, pause: { _ in }, pieceSize: 4096)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await onOwnThread {
            try dav.download(dav.baseURL.appending(path: "f.bin"), toNewFile: folder.appending(path: "f.bin"))
        }
        #expect(try Data(contentsOf: folder.appending(path: "f.bin")) == content)
        let sent = recorder.sent
        #expect(sent.map { $0.headerFields[.range] } == ["bytes=0-4095", "bytes=4096-8191", "bytes=8192-12287"])
        #expect(sent[0].headerFields[.ifMatch] == nil)
        #expect(
            sent[1].headerFields[.ifMatch] != nil && sent[1].headerFields[.ifMatch] == sent[2].headerFields[.ifMatch])
    }

    @Test("in-memory server: a file changed on the server during its download is EAGAIN, and no local file is left")
    func changedDuringDownload() async throws {
        let (fileSystem, served, server) = try inMemoryServer()
        let remote = served.appending(path: "f.bin")
        try fileSystem.write(Data(repeating: 1, count: 10_000), to: remote)
        // Another client rewrites the file (same size) after the first range was answered.
        let recorder = RecordingTransport(wrapping: server) { count in
            if count == 1 { try? fileSystem.write(Data(repeating: 2, count: 10_000), to: remote) }
        }
        let dav = WebDAVAccessor(baseURL: server.baseURL, transport: recorder, pause: { _ in }, pieceSize: 4096)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let local = folder.appending(path: "f.bin")
        try await onOwnThread {
            try expectFailure(nil, EAGAIN) { try dav.download(dav.baseURL.appending(path: "f.bin"), toNewFile: local) }
        }
        #expect(!FileManager.default.fileExists(atPath: local.path))
        #expect(recorder.sent.count == 2, "the second range was refused (412) and nothing more was asked")
    }

    @Test("in-memory server: an empty file downloads as an empty file (416 for the first range)")
    func emptyFile() async throws {
        let (fileSystem, served, server) = try inMemoryServer()
        try fileSystem.write(Data(), to: served.appending(path: "empty"))
        let dav = WebDAVAccessor(baseURL: server.baseURL, transport: server, pause: { _ in })
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await onOwnThread {
            try dav.download(dav.baseURL.appending(path: "empty"), toNewFile: folder.appending(path: "empty"))
        }
        #expect(try Data(contentsOf: folder.appending(path: "empty")).isEmpty)
    }

    private func inMemoryServer() throws -> (InMemoryFileSystem, URL, InMemoryWebDAVServer) {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false, now: Date())
        let served = URL(filePath: "/served", directoryHint: .isDirectory)
        try fileSystem.createDirectory(at: served, withIntermediateDirectories: false)
        return (fileSystem, served, InMemoryWebDAVServer(serving: served, of: fileSystem))
    }

    private func with(_ server: WebDAVServerUnderTest, _ body: @escaping @Sendable (WebDAVAccessor, URL) throws -> Void)
        async throws
    {
        if let reason = server.unavailableReason {
            print("skipped on \(server.rawValue): \(reason)")
            return
        }
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Starting and stopping a real server waits for it: off the cooperative pool too.
        try await onOwnThread {
            let running = try server.start()
            defer { running.stop() }
            try body(running.accessor, folder)
        }
    }

    private func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "seams-davfile-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Passes requests to a transport, keeping each request and calling `after` with the count of
/// answered requests.
private final class RecordingTransport: HTTPTransportProviding {
    private let wrapped: any HTTPTransportProviding
    private let after: @Sendable (Int) -> Void
    private let log = LockedValue<[HTTPRequest]>([])

    init(wrapping wrapped: any HTTPTransportProviding, after: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.wrapped = wrapped
        self.after = after
    }

    var sent: [HTTPRequest] { log.withLock { $0 } }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
        HTTPResponse, Data
    ) {
        let answer = try await wrapped.send(request, body: body, timeout: timeout)
        after(
            log.withLock {
                $0.append(request)
                return $0.count
            })
        return answer
    }
}
