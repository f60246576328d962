import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsTesting
import SeamsWebDAV
import Testing

@testable import SeamsSync

/// Several requests to a server at once: the scan lists folders together and the copies to and
/// from the server are written to their temp names together, never more than asked for, with the
/// same outcome as one request at a time.
@Suite struct ConcurrentRequestsTests {
    /// A transport in front of the in-memory server that counts the watched requests in flight
    /// (a method, on paths holding a piece) and holds the first `gathering` of them until all of
    /// them have arrived, so that calls meant to overlap overlap for sure, however slowly a busy
    /// machine starts them; later ones pass at once. A run that sends them one by one would wait
    /// out the 30-second deadline and fail on `most`.
    final class Gate: HTTPTransportProviding {
        let server: InMemoryWebDAVServer
        let watched: Set<String>
        let pathPiece: String
        let gathering: Int
        private let state = LockedValue((inFlight: 0, most: 0, arrived: 0))

        init(
            _ server: InMemoryWebDAVServer, watching watched: Set<String>, pathsHolding pathPiece: String,
            gathering: Int
        ) {
            self.server = server
            self.watched = watched
            self.pathPiece = pathPiece
            self.gathering = gathering
        }

        /// The most watched requests that were in flight at once.
        var most: Int { state.withLock { $0.most } }

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
            HTTPResponse, Data
        ) {
            guard watched.contains(request.method.rawValue), request.path?.contains(pathPiece) == true else {
                return try await server.send(request, body: body, timeout: timeout)
            }
            let held = state.withLock { state in
                state.inFlight += 1
                state.most = max(state.most, state.inFlight)
                state.arrived += 1
                return state.arrived <= gathering
            }
            defer { state.withLock { $0.inFlight -= 1 } }
            let deadline = ContinuousClock.now + .seconds(30)
            while held, state.withLock({ $0.arrived }) < gathering, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(2))
            }
            return try await server.send(request, body: body, timeout: timeout)
        }
    }

    struct Fixture {
        let fileSystem: InMemoryFileSystem
        let server: InMemoryWebDAVServer
        let gate: Gate
        let dav: WebDAVAccessor

        static let local = URL(filePath: "/local")
        static let state = URL(filePath: "/state")
        var container: URL { server.baseURL }

        init(watching watched: Set<String> = [], pathsHolding pathPiece: String = "", gathering: Int = 1) throws {
            fileSystem = InMemoryFileSystem(enforcesPermissions: false)
            for folder in ["/served", "/local", "/state"] {
                try fileSystem.createDirectory(at: URL(filePath: folder), withIntermediateDirectories: false)
            }
            server = InMemoryWebDAVServer(serving: URL(filePath: "/served"), of: fileSystem)
            gate = Gate(server, watching: watched, pathsHolding: pathPiece, gathering: gathering)
            dav = WebDAVAccessor(baseURL: server.baseURL, transport: gate, pause: { _ in }, outageCooldown: .zero)
        }

        /// `folders` folders of `files` files each under `root`, and one file at the top.
        func fill(_ root: URL, folders: Int, files: Int) throws {
            try fileSystem.write(Data("top".utf8), to: root.appending(path: "top.txt"))
            for folder in 0..<folders {
                let url = root.appending(path: "f\(folder)")
                try fileSystem.createDirectory(at: url, withIntermediateDirectories: false)
                for file in 0..<files {
                    try fileSystem.write(Data("\(folder)/\(file)".utf8), to: url.appending(path: "n\(file).txt"))
                }
            }
        }

        func engine(requestsInFlight: Int) -> SyncEngine {
            SyncEngine(
                directories: fileSystem, files: fileSystem, runID: { "r" }, requestsInFlight: requestsInFlight,
                remote: dav)
        }

        func run(requestsInFlight: Int) throws -> SyncReport {
            try engine(requestsInFlight: requestsInFlight)
                .run(local: Self.local, container: container, stateDirectory: Self.state)
        }

        /// Every file under `root` by relative path (the tool's own names left out).
        func files(under root: URL) throws -> [String: Data] {
            var found: [String: Data] = [:]
            func walk(_ url: URL, _ prefix: String) throws {
                for entry in try fileSystem.contentsOfDirectory(at: url) where !entry.name.hasPrefix(".seams") {
                    let child = url.appending(path: entry.name)
                    if entry.metadata.kind == .directory {
                        try walk(child, prefix + entry.name + "/")
                    } else {
                        found[prefix + entry.name] = try fileSystem.read(from: child)
                    }
                }
            }
            try walk(root, "")
            return found
        }
    }

    @Test("the executor's map returns every result by index and never runs more calls at once than its width")
    func mapBounds() {
        let running = LockedValue((now: 0, most: 0, arrived: 0))
        let results = BlockingExecutor.shared.map(40, width: 3) { index -> Int in
            let held = running.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
                state.arrived += 1
                return state.arrived <= 3
            }
            // The first three wait for each other (however slowly the threads start): all three
            // threads are running calls at once for sure.
            let deadline = Date(timeIntervalSinceNow: 30)
            while held, running.withLock({ $0.arrived }) < 3, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            running.withLock { $0.now -= 1 }
            return index * index
        }
        #expect(results == (0..<40).map { $0 * $0 })
        let most = running.withLock { $0.most }
        #expect(most == 3, "\(most) at once")
        // Width 1: in order, on the calling thread.
        let caller = pthread_self()
        let order = LockedValue<[Int]>([])
        let onCaller = BlockingExecutor.shared.map(5, width: 1) { index -> Bool in
            order.withLock { $0.append(index) }
            return pthread_equal(pthread_self(), caller) != 0
        }
        #expect(onCaller == Array(repeating: true, count: 5))
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test("a scan of a server lists up to `readers` folders at once and finds what one reader finds")
    func scanTogether() async throws {
        let f = try Fixture(watching: ["PROPFIND"], pathsHolding: "/dav/f", gathering: 4)
        try f.fill(URL(filePath: "/served"), folders: 12, files: 3)
        try f.fileSystem.write(Data("left".utf8), to: URL(filePath: "/served/f3/.seams-tmp-old-1"))
        try f.fileSystem.write(Data("mine".utf8), to: URL(filePath: "/served/f5/.seams-notes"))
        let scanner = Scanner(directories: f.dav)
        let together = try await BlockingExecutor.shared.run { try scanner.scan(f.container, readers: 4) }
        #expect(f.gate.most == 4, "\(f.gate.most) listings at once")
        let alone = try await BlockingExecutor.shared.run { try scanner.scan(f.container, readers: 1) }
        #expect(together.items == alone.items)
        #expect(together.items.count == 49)  // twelve folders of three files, top.txt
        #expect(
            together.leftovers == [SyncPath("f3/.seams-tmp-old-1")]
                && together.reserved == [SyncPath("f5/.seams-notes")])
        #expect(Set(alone.leftovers) == Set(together.leftovers) && Set(alone.reserved) == Set(together.reserved))
    }

    @Test(
        "a folder the server refuses to list is recorded as unreadable when listed beside others, and the rest is found"
    )
    func unreadableAmongOthers() async throws {
        let f = try Fixture()
        try f.fill(URL(filePath: "/served"), folders: 10, files: 2)
        f.server.inject(.respond(status: 403), on: HTTPRequest.Method("PROPFIND")!, pathEndingWith: "/f7/", times: 1)
        let snapshot = try await BlockingExecutor.shared.run {
            try Scanner(directories: f.dav).scan(f.container, readers: 4)
        }
        #expect(snapshot.unreadableFolders.keys.map(\.rawValue) == ["f7"])
        #expect(snapshot.items.count == 29)  // ten folders, nine listed with two files each, top.txt
    }

    @Test(
        "a first sync to a server uploads several files at once, at most `requestsInFlight`, and lands every file once")
    func uploadsTogether() async throws {
        let f = try Fixture(watching: ["PUT"], pathsHolding: "/.seams-tmp-r-", gathering: 3)
        try f.fill(Fixture.local, folders: 4, files: 10)
        let report = try await BlockingExecutor.shared.run { try f.run(requestsInFlight: 3) }
        #expect(report.failures.isEmpty && report.copiedToContainer == 41)
        #expect(f.gate.most == 3, "\(f.gate.most) uploads at once")
        #expect(try f.files(under: URL(filePath: "/served")) == f.files(under: Fixture.local))
        // Each file went up once, to a temp name, and was moved into place.
        let uploads = f.server.requests.filter { $0.method == .put && $0.path.contains("/.seams-tmp-r-") }
        #expect(uploads.count == 41 && uploads.allSatisfy { $0.status == 201 })
        #expect(
            try f.fileSystem.contentsOfDirectory(at: URL(filePath: "/served/f2")).allSatisfy {
                !$0.name.hasPrefix(".seams-tmp")
            })
        let again = try await BlockingExecutor.shared.run { try f.run(requestsInFlight: 3) }
        #expect(again.copiedToContainer == 0 && again.copiedToLocal == 0 && again.failures.isEmpty)
    }

    @Test("a first sync from a server downloads several files at once and lands every file")
    func downloadsTogether() async throws {
        let f = try Fixture(watching: ["GET"], pathsHolding: "/dav/f", gathering: 4)
        try f.fill(URL(filePath: "/served"), folders: 3, files: 8)
        let report = try await BlockingExecutor.shared.run { try f.run(requestsInFlight: 4) }
        #expect(report.failures.isEmpty && report.copiedToLocal == 25)
        #expect(f.gate.most == 4, "\(f.gate.most) downloads at once")
        #expect(try f.files(under: Fixture.local) == f.files(under: URL(filePath: "/served")))
    }

    @Test(
        "an upload the server refuses among others fails that path alone: no temp file left, the others land, the next run sends it"
    )
    func oneRefusedAmongOthers() async throws {
        let f = try Fixture()
        try f.fill(Fixture.local, folders: 2, files: 10)
        // Temp names are given in plan order: f0's ten files are 1 to 10, f1/n1.txt is the 12th.
        f.server.inject(.respond(status: 507), on: .put, pathEndingWith: "/f1/.seams-tmp-r-12", times: 1)
        let report = try await BlockingExecutor.shared.run { try f.run(requestsInFlight: 4) }
        let failed = report.failures.map(\.path)
        #expect(failed == ["f1/n1.txt"] && report.copiedToContainer == 20, "\(report.failures)")
        let onServer = try f.files(under: URL(filePath: "/served"))
        #expect(onServer.count == 20 && onServer[failed.first ?? ""] == nil)
        for folder in ["/served/f0", "/served/f1"] {
            #expect(
                try f.fileSystem.contentsOfDirectory(at: URL(filePath: folder)).allSatisfy {
                    !$0.name.hasPrefix(".seams-tmp")
                })
        }
        let again = try await BlockingExecutor.shared.run { try f.run(requestsInFlight: 4) }
        #expect(again.failures.isEmpty && again.copiedToContainer == 1)
        #expect(try f.files(under: URL(filePath: "/served")) == f.files(under: Fixture.local))
    }

    @Test("with one request in flight the requests go in the same order every run")
    func oneAtATimeIsRepeatable() async throws {
        var orders: [[String]] = []
        for _ in 0..<2 {
            let f = try Fixture()
            try f.fill(Fixture.local, folders: 3, files: 4)
            _ = try await BlockingExecutor.shared.run { try f.run(requestsInFlight: 1) }
            orders.append(
                Self.withoutHeartbeats(
                    f.server.requests.map { "\($0.method.rawValue) \($0.path.split(separator: "/").last ?? "")" }
                        .map {
                            $0.replacingOccurrences(
                                of: #"seams-tmp-[^-]+-"#, with: "seams-tmp-", options: .regularExpression)
                        }))
        }
        #expect(orders[0] == orders[1])
        #expect(orders[0].contains("MOVE .seams-tmp-13") && orders[0].last == "DELETE .seams-lock", "\(orders[0])")
    }

    /// `requests` without the lock's heartbeats (the lock read, then its new content put to a temp
    /// name and moved over it): they come every 20 real seconds, so a run slowed past that (under
    /// the thread sanitizer, beside other suites) has one that another run has not. The heartbeat's
    /// read and its put need not be next to each other (the run's own requests take turns with
    /// them), so every look at the lock (`GET`, and the `PROPFIND` a heartbeat may begin with) goes,
    /// from both runs alike.
    private static func withoutHeartbeats(_ requests: [String]) -> [String] {
        requests.filter {
            !["GET .seams-lock", "PROPFIND .seams-lock", "PUT .seams-tmp-beat-r", "MOVE .seams-tmp-beat-r"].contains($0)
        }
    }
}
