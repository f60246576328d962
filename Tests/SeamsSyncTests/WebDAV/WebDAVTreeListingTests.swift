import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsTesting
import Testing

@testable import SeamsSync
@testable import SeamsWebDAV

/// A tree listed ahead in one `PROPFIND` with `Depth: infinity`: what it gives each folder, when
/// it is not asked for or not trusted, and a sync over a server that answers it.
@Suite("WebDAV tree listing")
struct WebDAVTreeListingTests {
    static let stamp = Date(timeIntervalSince1970: 1_700_000_000)

    static func file(_ path: String, size: Int64 = 1, etag: String? = "\"e\"") -> WebDAVResource {
        WebDAVResource(path: path, isCollection: false, size: size, modified: stamp, etag: etag)
    }

    static func folder(_ path: String) -> WebDAVResource {
        WebDAVResource(path: path, isCollection: true, size: 0, modified: stamp, etag: nil)
    }

    /// The names in each listing, by the folder's path as text (keys that differ in bytes only
    /// would be merged: the test that has such folders looks at the bytes).
    static func names(_ listings: [[UInt8]: [DirectoryEntry]]?) -> [String: [String]]? {
        guard let listings else { return nil }
        return Dictionary(
            listings.map { (String(decoding: $0.key, as: UTF8.self), $0.value.map(\.name)) }, uniquingKeysWith: +)
    }

    @Test(
        "each folder gets its own items, sorted by bytes, in any order the answer names them", arguments: ["/", "/dav"])
    func groupsByFolder(root: String) {
        let base = root == "/" ? "" : root
        let resources = [
            Self.file("\(base)/d/e/deep"), Self.folder(root), Self.file("\(base)/b"), Self.folder("\(base)/d"),
            Self.file("\(base)/d/x"), Self.folder("\(base)/d/e"), Self.file("\(base)/B"), Self.folder("\(base)/empty"),
        ]
        let listings = WebDAVAccessor.listings(of: resources, under: root) { _ in false }
        // A folder named with nothing in it has no listing: it is asked for by itself.
        #expect(
            Self.names(listings) == [
                root: ["B", "b", "d", "empty"], "\(base)/d": ["e", "x"], "\(base)/d/e": ["deep"],
            ])
        #expect(listings?[Array(root.utf8)]?.first { $0.name == "d" }?.metadata.kind == .directory)
        #expect(
            listings?[Array(root.utf8)]?.first { $0.name == "b" }?.metadata == WebDAVAccessor.metadata(Self.file("/b")))
    }

    @Test("two folders whose names differ only in Unicode normalization keep their own items")
    func normalizationKeptApart() {
        let composed = "/dav/caf\u{E9}"
        let decomposed = "/dav/cafe\u{301}"
        let resources = [
            Self.folder("/dav"), Self.folder(composed), Self.file(composed + "/one"), Self.folder(decomposed),
            Self.file(decomposed + "/two"), Self.file(composed + "/three"),
        ]
        let listings = WebDAVAccessor.listings(of: resources, under: "/dav") { _ in false }
        #expect(listings?[Array(composed.utf8)]?.map(\.name) == ["one", "three"])
        #expect(listings?[Array(decomposed.utf8)]?.map(\.name) == ["two"])
        #expect(listings?[Array("/dav".utf8)]?.count == 2)
    }

    @Test("a skipped folder is named in its parent, and neither it nor anything inside it is given out")
    func skipsFolders() {
        let resources = [
            Self.folder("/dav"), Self.folder("/dav/.trash"), Self.folder("/dav/.trash/old"),
            Self.file("/dav/.trash/old/v1"), Self.file("/dav/.trash/top"), Self.folder("/dav/keep"),
            Self.file("/dav/keep/.trash"), Self.folder("/dav/keep/.trash2"),
        ]
        let listings = WebDAVAccessor.listings(of: resources, under: "/dav") { $0 == ".trash" }
        #expect(Self.names(listings) == ["/dav": [".trash", "keep"], "/dav/keep": [".trash", ".trash2"]])
    }

    @Test(
        "an answer that cannot be trusted whole gives nothing",
        arguments: [
            ("no root", [folder("/dav/d"), file("/dav/d/x")]),
            ("the root a file", [file("/dav"), file("/dav/x")]),
            ("an item whose folder is missing", [folder("/dav"), file("/dav/a"), file("/dav/gone/x")]),
            ("an item outside the root", [folder("/dav"), file("/dav/a"), file("/elsewhere/z")]),
            ("an item beside the root", [folder("/dav"), file("/dav/a"), file("/davx/z")]),
            ("an empty path component", [folder("/dav"), folder("/dav/d"), file("/dav/d//x")]),
            (
                "an item without its properties",
                [
                    folder("/dav"),
                    WebDAVResource(
                        path: "/dav/big", isCollection: false, size: 0, modified: stamp, etag: nil, isComplete: false),
                ]
            ),
        ])
    func refusesUntrusted(_ label: String, _ resources: [WebDAVResource]) {
        #expect(WebDAVAccessor.listings(of: resources, under: "/dav") { _ in false } == nil, "\(label)")
    }

    @Test("a root the answer spells in another Unicode normalization is not found: nothing is given")
    func rootInAnotherNormalization() {
        let resources = [Self.folder("/dav/cafe\u{301}"), Self.file("/dav/cafe\u{301}/x")]
        #expect(WebDAVAccessor.listings(of: resources, under: "/dav/caf\u{E9}") { _ in false } == nil)
        #expect(
            Self.names(WebDAVAccessor.listings(of: resources, under: "/dav/cafe\u{301}") { _ in false }) == [
                "/dav/cafe\u{301}": ["x"]
            ])
    }

    @Test(
        "an answer of one level where a tree was asked (SabreDAV with Depth: infinity off) gives only the root's listing"
    )
    func oneLevelAnswer() {
        let resources = [Self.folder("/dav"), Self.file("/dav/a"), Self.folder("/dav/d"), Self.folder("/dav/e")]
        #expect(
            Self.names(WebDAVAccessor.listings(of: resources, under: "/dav") { _ in false }) == [
                "/dav": ["a", "d", "e"]
            ])
    }

    @Test("a response cut short (507) or without a propstat of 200 reads as incomplete; one of 200 as complete")
    func incompleteResponses() throws {
        let body = """
            <?xml version="1.0"?><D:multistatus xmlns:D="DAV:">
            <D:response><D:href>/dav/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop>
            <D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/dav/big/</D:href><D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>
            <D:response><D:href>/dav/hidden</D:href><D:propstat><D:prop><D:getetag/></D:prop>
            <D:status>HTTP/1.1 403 Forbidden</D:status></D:propstat></D:response>
            </D:multistatus>
            """
        let items = try WebDAVMultistatus.parse(Data(body.utf8))
        #expect(items.map(\.path) == ["/dav", "/dav/big", "/dav/hidden"])
        #expect(items.map(\.isComplete) == [true, false, false])
    }

    /// A served tree: `/served/a.txt`, `/served/d/x`, `/served/d/e/deep`, `/served/.seams-trash/old`.
    struct Served {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false)
        let server: InMemoryWebDAVServer
        let dav: WebDAVAccessor

        init(answersInfiniteDepth: Bool, oneLevel: Bool = false, outageCooldown: Duration = .seconds(10)) throws {
            let root = URL(filePath: "/served")
            try fileSystem.createDirectory(at: root.appending(path: "d/e"), withIntermediateDirectories: true)
            try fileSystem.createDirectory(at: root.appending(path: ".seams-trash"), withIntermediateDirectories: true)
            try fileSystem.write(Data("a".utf8), to: root.appending(path: "a.txt"))
            try fileSystem.write(Data("x".utf8), to: root.appending(path: "d/x"))
            try fileSystem.write(Data("deep".utf8), to: root.appending(path: "d/e/deep"))
            try fileSystem.write(Data("old".utf8), to: root.appending(path: ".seams-trash/old"))
            server = InMemoryWebDAVServer(
                serving: root, of: fileSystem, answersInfiniteDepth: answersInfiniteDepth,
                answersInfiniteDepthWithOneLevel: oneLevel)
            dav = WebDAVAccessor(
                baseURL: server.baseURL, transport: server, pause: { _ in }, outageCooldown: outageCooldown)
        }

        func url(_ path: String) -> URL {
            path.isEmpty ? server.baseURL : server.baseURL.appending(path: path, directoryHint: .isDirectory)
        }

        var propfinds: [String] {
            server.requests.filter { $0.method == .propfind }.map(\.path)
        }
    }

    @Test("a server that answers it: one request, each folder from memory once, then from the server again")
    func listsFromMemory() async throws {
        let served = try Served(answersInfiniteDepth: true)
        try await onOwnThread { () throws in
            let folders = ["", "d", "d/e", ".seams-trash"]
            let expected = try folders.map { try served.dav.contentsOfDirectory(at: served.url($0)) }
            let before = served.server.requests.count
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 4, skipping: OwnNames.isOwn))
            #expect(served.server.requests.count == before + 1)
            for (folder, entries) in zip(folders.dropLast(), expected) {
                #expect(try served.dav.contentsOfDirectory(at: served.url(folder)) == entries, "\(folder)")
            }
            #expect(served.server.requests.count == before + 1, "every folder but the skipped one from memory")
            // The skipped trash, and a folder asked for a second time, go to the server.
            #expect(try served.dav.contentsOfDirectory(at: served.url(".seams-trash")) == expected[3])
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")) == expected[1])
            #expect(served.server.requests.count == before + 3)
        }
    }

    @Test("a write through the accessor, or the listing's end, drops what was fetched")
    func writesDrop() async throws {
        let served = try Served(answersInfiniteDepth: true)
        try await onOwnThread { () throws in
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 4))
            try served.dav.write(Data("new".utf8), to: served.url("d").appending(path: "new"))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "new", "x"])
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 4))
            served.dav.endTreeListing()
            try served.fileSystem.write(Data("n2".utf8), to: URL(filePath: "/served/d/e/n2"))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d/e")).map(\.name) == ["deep", "n2"])
        }
    }

    /// A transport that holds each `PUT` before the server sees it, until it is let go.
    final class HeldWrites: WaitingHTTPTransportProviding {
        let server: InMemoryWebDAVServer
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        init(_ server: InMemoryWebDAVServer) { self.server = server }

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError) -> (
            HTTPResponse, Data
        ) {
            try await server.send(request, body: body, timeout: timeout)
        }

        @available(*, noasync)
        func sendWaiting(_ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration) throws(HTTPTransportError)
            -> (HTTPResponse, Data)
        {
            if request.method == .put {
                arrived.signal()
                release.wait()
            }
            return try server.sendWaiting(request, body: body, timeout: timeout)
        }
    }

    @Test("a tree listed while a write is on its way, before the server took it, is dropped when the write is answered")
    func writeInFlightDrops() async throws {
        let served = try Served(answersInfiniteDepth: true)
        let held = HeldWrites(served.server)
        let dav = WebDAVAccessor(baseURL: served.server.baseURL, transport: held, pause: { _ in })
        try await onOwnThread { () throws in
            let written = DispatchSemaphore(value: 0)
            let target = served.url("d").appending(path: "new")
            Thread.detachNewThread {
                _ = try? dav.write(Data("new".utf8), to: target)
                written.signal()
            }
            held.arrived.wait()
            #expect(
                try dav.beginTreeListing(at: served.url(""), expecting: 4), "listed before the server took the write")
            held.release.signal()
            written.wait()
            #expect(try dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "new", "x"])
        }
    }

    @Test("a tree of unknown size (a first sync), or expected over the limit, is not asked for")
    func largeTreeNotAsked() async throws {
        let served = try Served(answersInfiniteDepth: true)
        try await onOwnThread { () throws in
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 0))
            #expect(
                try !served.dav.beginTreeListing(at: served.url(""), expecting: WebDAVAccessor.treeListingLimit + 1))
            #expect(served.server.requests.isEmpty)
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: WebDAVAccessor.treeListingLimit))
            #expect(served.propfinds == ["/dav/"])
        }
    }

    @Test("a server that refuses it (403, as Apache does) is asked once; each folder is then listed by itself")
    func refusalRemembered() async throws {
        let served = try Served(answersInfiniteDepth: false)
        try await onOwnThread { () throws in
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 4))
            #expect(served.server.requests.map(\.status) == [403])
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 4))
            #expect(served.server.requests.count == 1, "not asked again")
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "x"])
        }
    }

    @Test("a tree listing that fails throws, keeps nothing, and is not asked for again")
    func failureGivesUp() async throws {
        let served = try Served(answersInfiniteDepth: true)
        served.server.inject(.respond(status: 500), on: .propfind, times: 1)
        try await onOwnThread { () throws in
            #expect(throws: CocoaError.self) {
                try served.dav.beginTreeListing(at: served.url(""), expecting: 4)
            }
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 4))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "x"])
            #expect(served.propfinds == ["/dav/", "/dav/d/"])
        }
    }

    @Test("a tree listing that finds the server out of reach is asked for again once the server answers")
    func outageNotHeldAgainst() async throws {
        let served = try Served(answersInfiniteDepth: true, outageCooldown: .zero)
        served.server.inject(.refuseConnection, on: .propfind, times: 4)  // the first try and its 3 retries
        try await onOwnThread { () throws in
            #expect(throws: CocoaError.self) {
                try served.dav.beginTreeListing(at: served.url(""), expecting: 4)
            }
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 4))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "x"])
            #expect(served.propfinds == Array(repeating: "/dav/", count: 5), "the folder from memory")
        }
    }

    @Test("a server that answers a tree with one level: the root from memory, every folder below from the server")
    func oneLevelServer() async throws {
        let served = try Served(answersInfiniteDepth: false, oneLevel: true)
        try await onOwnThread { () throws in
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 4, skipping: OwnNames.isOwn))
            #expect(
                try served.dav.contentsOfDirectory(at: served.url("")).map(\.name) == [".seams-trash", "a.txt", "d"])
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "x"])
            #expect(try served.dav.contentsOfDirectory(at: served.url("d/e")).map(\.name) == ["deep"])
            #expect(served.propfinds == ["/dav/", "/dav/d/", "/dav/d/e/"])
        }
    }

    @Test(
        "a sync over a server that answers it, or answers one level of it, ends as one over a server that refuses it; a no-change sync lists the server in one request"
    )
    func syncMatches() async throws {
        var outcomes: [[String: Data]] = []
        var listingRequests: [Int] = []
        // Refused, answered, answered with one level.
        for (answers, oneLevel) in [(false, false), (true, false), (false, true)] {
            let fileSystem = InMemoryFileSystem(enforcesPermissions: false)
            for folder in ["/served/s1/s2", "/local/l1/l2", "/state"] {
                try fileSystem.createDirectory(at: URL(filePath: folder), withIntermediateDirectories: true)
            }
            for (index, path) in ["/served/s1/a", "/served/s1/s2/b", "/local/l1/c", "/local/l1/l2/d", "/local/e"]
                .enumerated()
            {
                try fileSystem.write(Data("\(index)".utf8), to: URL(filePath: path))
            }
            let server = InMemoryWebDAVServer(
                serving: URL(filePath: "/served"), of: fileSystem, answersInfiniteDepth: answers,
                answersInfiniteDepthWithOneLevel: oneLevel)
            let dav = WebDAVAccessor(baseURL: server.baseURL, transport: server, pause: { _ in })
            let engine = SyncEngine(directories: fileSystem, files: fileSystem, runID: { "r" }, remote: dav)
            let propfinds = try await onOwnThread { () throws -> Int in
                for _ in 0..<2 {
                    _ = try engine.run(
                        local: URL(filePath: "/local"), container: server.baseURL,
                        stateDirectory: URL(filePath: "/state"))
                }
                // A third run with nothing to do: how many PROPFINDs list the server.
                let before = server.requests.count
                let report = try engine.run(
                    local: URL(filePath: "/local"), container: server.baseURL, stateDirectory: URL(filePath: "/state"))
                #expect(report.copiedToContainer == 0 && report.copiedToLocal == 0)
                return server.requests.dropFirst(before).filter { $0.method == .propfind }.count
            }
            listingRequests.append(propfinds)
            var files: [String: Data] = [:]
            for side in ["/served", "/local"] {
                for path in ["s1/a", "s1/s2/b", "l1/c", "l1/l2/d", "e"] {
                    files[side + "/" + path] = try fileSystem.read(from: URL(filePath: side + "/" + path))
                }
            }
            outcomes.append(files)
        }
        // Refused: the root and its four folders one by one; answered: the tree in one request;
        // one level: that answer for the root, and the four folders one by one.
        #expect(listingRequests[1] == listingRequests[0] - 4, "\(listingRequests)")
        #expect(listingRequests[2] == listingRequests[0], "\(listingRequests)")
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[0] == outcomes[2], "nothing below the level the server listed is taken as deleted")
        #expect(outcomes[1].count == 10)
    }
}
