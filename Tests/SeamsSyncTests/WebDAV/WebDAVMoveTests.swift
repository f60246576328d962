import Foundation
import HTTPTypes
import Seams
import SeamsSync
import SeamsTesting
import SeamsWebDAV
import Testing

/// Renames and moves between a folder on this machine's disk and a WebDAV server (Apache, rclone,
/// and the in-memory double): a local folder renamed is one `MOVE` on the server, a file renamed
/// on the server (its ETag kept) is a local rename, and neither sends a file's bytes.
@Suite struct WebDAVMoveTests {
    /// A local folder and a server's collection, synced once, with the requests of each run.
    final class Pair: Sendable {
        let running: WebDAVServerUnderTest.Running
        let local: URL
        let state: URL
        let transport: CountingTransport
        let accessor: WebDAVAccessor

        init(_ server: WebDAVServerUnderTest) throws {
            running = try server.start()
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "seams-move-\(UUID().uuidString)", directoryHint: .isDirectory)
            local = folder.appending(path: "local", directoryHint: .isDirectory)
            state = folder.appending(path: "state", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            transport = CountingTransport(wrapping: running.transport)
            accessor = WebDAVAccessor(
                baseURL: running.baseURL, credentials: WebDAVServerUnderTest.credentials, transport: transport,
                timeout: .seconds(20),
                pause: { _ in })
        }

        deinit {
            running.stop()
            try? FileManager.default.removeItem(at: local.deletingLastPathComponent())
        }

        /// One run; its requests by method.
        func sync() throws -> (SyncReport, [String: Int]) {
            transport.reset()
            let report = try SyncEngine(
                directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor(), remote: accessor
            )
            .run(local: local, container: running.baseURL, stateDirectory: state)
            return (report, transport.methods)
        }

        func write(_ text: String, _ path: String) throws {
            let url = local.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// The server's files, read through the accessor (its own `.seams…` names left out).
        func served(_ path: String) -> String? {
            (try? accessor.read(from: running.baseURL.appending(path: path))).map {
                String(decoding: $0, as: UTF8.self)
            }
        }

        func localText(_ path: String) -> String? {
            (try? Data(contentsOf: local.appending(path: path))).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test(
        "a local folder renamed is one MOVE on the server, with no file sent, nothing in the trash, and no listing of its subfolders again",
        arguments: WebDAVServerUnderTest.allCases)
    func localFolderRename(server: WebDAVServerUnderTest) async throws {
        if let reason = server.unavailableReason { return print("skipped on \(server.rawValue): \(reason)") }
        try await onOwnThread {
            let pair = try Pair(server)
            // In 10 subfolders: the scan's listings of them are what the plan reads, not new ones.
            for index in 0..<20 { try pair.write("photo \(index)", "Photos/d\(index % 10)/IMG_\(index).JPG") }
            try pair.write("keep", "notes.txt")
            _ = try pair.sync()
            let (_, quiet) = try pair.sync()
            try FileManager.default.moveItem(
                at: pair.local.appending(path: "Photos"), to: pair.local.appending(path: "Photos 2024"))
            let (report, requests) = try pair.sync()
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.moves == [SyncReport.Move(from: "Photos", to: "Photos 2024", madeOn: .container)])
            #expect(report.copiedToContainer == 0 && report.deletedContainer == 0)
            #expect(requests["MOVE", default: 0] == 1, "\(requests)")
            #expect(
                requests["PUT", default: 0] == 0 && requests["GET", default: 0] == 0
                    && requests["DELETE", default: 0] == 0)
            let extra = requests.values.reduce(0, +) - quiet.values.reduce(0, +)
            print(
                "\(server.rawValue): a folder of 20 files in 10 subfolders renamed: \(extra) requests about its paths more than a run with no change (\(requests))"
            )
            #expect(extra <= 5)
            // Beyond a run with no change: the MOVE's own look at where it goes and what it moves.
            #expect(
                requests["PROPFIND", default: 0] <= quiet["PROPFIND", default: 0] + 2, "\(requests) against \(quiet)")
            #expect(pair.served("Photos 2024/d9/IMG_19.JPG") == "photo 19")
            #expect(pair.served("Photos/d9/IMG_19.JPG") == nil)
            let (again, _) = try pair.sync()
            #expect(
                again.moves.isEmpty
                    && again.copiedToLocal + again.copiedToContainer + again.deletedLocal + again.deletedContainer == 0)
        }
    }

    @Test(
        "a file and a folder renamed on the server (by another client's MOVE) are renamed here, one rename each, with no download",
        arguments: WebDAVServerUnderTest.allCases)
    func serverSideMoves(server: WebDAVServerUnderTest) async throws {
        if let reason = server.unavailableReason { return print("skipped on \(server.rawValue): \(reason)") }
        try await onOwnThread {
            let pair = try Pair(server)
            try pair.write("draft", "docs/draft.txt")
            // Of one size, saved together: on Apache (whose ETag is size and date) several may share an ETag.
            for index in 0..<5 { try pair.write("song \(index)", "Music/song\(index).mp3") }
            try pair.write("keep", "notes.txt")
            _ = try pair.sync()
            let base = pair.running.baseURL
            try pair.accessor.moveItem(
                at: base.appending(path: "docs/draft.txt"), to: base.appending(path: "docs/final.txt"),
                replacingExisting: false)
            try pair.accessor.moveItem(
                at: base.appending(path: "Music"), to: base.appending(path: "Music 2024"), replacingExisting: false)
            let (report, requests) = try pair.sync()
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.copiedToLocal == 0, "nothing downloaded: \(requests)")
            #expect(
                requests["GET", default: 0] == 0 && requests["PUT", default: 0] == 0,
                "no file sent either way: \(requests)")
            // A collection's ETag, where a server gives one, changes with what it holds: a folder
            // renamed there is known by what it holds (the same names, each with its ETag).
            #expect(Set(report.moves.map(\.to)) == ["docs/final.txt", "Music 2024"], "\(report.moves)")
            #expect(report.moves.allSatisfy { $0.madeOn == .local })
            #expect(pair.localText("docs/final.txt") == "draft" && pair.localText("docs/draft.txt") == nil)
            #expect(pair.localText("Music 2024/song4.mp3") == "song 4")
            #expect(!FileManager.default.fileExists(atPath: pair.local.appending(path: "Music").path))
            print("\(server.rawValue): server-side moves: \(report.moves.count) made locally, requests \(requests)")
        }
    }

    @Test(
        "a chain and a swap made locally are MOVEs on the server (one item of the swap through the trash), with no file sent",
        arguments: WebDAVServerUnderTest.allCases)
    func chainAndSwap(server: WebDAVServerUnderTest) async throws {
        if let reason = server.unavailableReason { return print("skipped on \(server.rawValue): \(reason)") }
        try await onOwnThread {
            let pair = try Pair(server)
            for (name, text) in [("a", "a"), ("b", "bb"), ("x", "xxx"), ("y", "yyyy"), ("k", "keep")] {
                try pair.write(text, "\(name).txt")
            }
            _ = try pair.sync()
            let fm = FileManager.default
            func move(_ from: String, _ to: String) throws {
                try fm.moveItem(at: pair.local.appending(path: from), to: pair.local.appending(path: to))
            }
            try move("b.txt", "c.txt")
            try move("a.txt", "b.txt")
            try move("x.txt", "t.txt")
            try move("y.txt", "x.txt")
            try move("t.txt", "y.txt")
            let (report, requests) = try pair.sync()
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.moves.count == 4 && report.moves.allSatisfy { $0.madeOn == .container }, "\(report.moves)")
            #expect(report.copiedToContainer == 0 && report.deletedContainer == 0)
            #expect(
                requests["PUT", default: 0] == 0 && requests["GET", default: 0] == 0
                    && requests["DELETE", default: 0] == 0, "\(requests)")
            // b→c, a→b, y→x, and x into the trash (its way back to y starts in the trash: not counted).
            #expect(requests["MOVE", default: 0] == 4, "\(requests)")
            for (path, text) in [
                ("b.txt", "a"), ("c.txt", "bb"), ("x.txt", "yyyy"), ("y.txt", "xxx"), ("k.txt", "keep"),
            ] {
                #expect(pair.served(path) == text, "\(path)")
            }
            #expect(pair.served("a.txt") == nil)
            let (again, _) = try pair.sync()
            #expect(
                again.moves.isEmpty
                    && again.copiedToLocal + again.copiedToContainer + again.deletedLocal + again.deletedContainer == 0)
        }
    }
}

/// Passes requests on, counting by method those about the user's paths (not the run's lock,
/// marker and trash, which every run that changes something writes).
final class CountingTransport: HTTPTransportProviding {
    private let wrapped: any HTTPTransportProviding
    private let counts = LockedValue<[String: Int]>([:])

    init(wrapping wrapped: any HTTPTransportProviding) { self.wrapped = wrapped }

    var methods: [String: Int] { counts.withLock { $0 } }

    func reset() { counts.withLock { $0 = [:] } }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
        HTTPResponse, Data
    ) {
        if request.path?.contains("/.seams") != true {
            counts.withLock { $0[request.method.rawValue, default: 0] += 1 }
        }
        return try await wrapped.send(request, body: body, timeout: timeout)
    }
}
