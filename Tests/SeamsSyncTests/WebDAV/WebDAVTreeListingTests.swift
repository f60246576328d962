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
        var resources = [
            Self.file("\(base)/d/e/deep"), Self.folder(root), Self.file("\(base)/b"), Self.folder("\(base)/d"),
            Self.file("\(base)/d/x"), Self.folder("\(base)/d/e"), Self.file("\(base)/B"), Self.folder("\(base)/empty"),
        ]
        if root != "/" { resources.append(Self.file("/elsewhere/z")) }  // not under the root: not given out
        let listings = WebDAVAccessor.listings(of: resources, under: root) { _ in false }
        #expect(
            Self.names(listings) == [
                root: ["B", "b", "d", "empty"], "\(base)/d": ["e", "x"], "\(base)/d/e": ["deep"], "\(base)/empty": [],
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
        #expect(
            Self.names(listings) == [
                "/dav": [".trash", "keep"], "/dav/keep": [".trash", ".trash2"], "/dav/keep/.trash2": [],
            ])
    }

    @Test(
        "an answer that cannot be trusted whole gives nothing",
        arguments: [
            ("no root", [folder("/dav/d"), file("/dav/d/x")]),
            ("the root a file", [file("/dav"), file("/dav/x")]),
            ("an item whose folder is missing", [folder("/dav"), file("/dav/a"), file("/dav/gone/x")]),
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

        init(answersInfiniteDepth: Bool) throws {
            let root = URL(filePath: "/served")
            try fileSystem.createDirectory(at: root.appending(path: "d/e"), withIntermediateDirectories: true)
            try fileSystem.createDirectory(at: root.appending(path: ".seams-trash"), withIntermediateDirectories: true)
            try fileSystem.write(Data("a".utf8), to: root.appending(path: "a.txt"))
            try fileSystem.write(Data("x".utf8), to: root.appending(path: "d/x"))
            try fileSystem.write(Data("deep".utf8), to: root.appending(path: "d/e/deep"))
            try fileSystem.write(Data("old".utf8), to: root.appending(path: ".seams-trash/old"))
            server = InMemoryWebDAVServer(serving: root, of: fileSystem, answersInfiniteDepth: answersInfiniteDepth)
            dav = WebDAVAccessor(baseURL: server.baseURL, transport: server, pause: { _ in })
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
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 0))
            try served.dav.write(Data("new".utf8), to: served.url("d").appending(path: "new"))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "new", "x"])
            #expect(try served.dav.beginTreeListing(at: served.url(""), expecting: 0))
            served.dav.endTreeListing()
            try served.fileSystem.write(Data("n2".utf8), to: URL(filePath: "/served/d/e/n2"))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d/e")).map(\.name) == ["deep", "n2"])
        }
    }

    @Test("a tree expected over the limit is not asked for")
    func largeTreeNotAsked() async throws {
        let served = try Served(answersInfiniteDepth: true)
        try await onOwnThread { () throws in
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
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 0))
            #expect(served.server.requests.map(\.status) == [403])
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 0))
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
                try served.dav.beginTreeListing(at: served.url(""), expecting: 0)
            }
            #expect(try !served.dav.beginTreeListing(at: served.url(""), expecting: 0))
            #expect(try served.dav.contentsOfDirectory(at: served.url("d")).map(\.name) == ["e", "x"])
            #expect(served.propfinds == ["/dav/", "/dav/d/"])
        }
    }

    @Test(
        "a sync over a server that answers it ends as one over a server that refuses it; a no-change sync lists the server in one request"
    )
    func syncMatches() async throws {
        var outcomes: [[String: Data]] = []
        var listingRequests: [Int] = []
        for answers in [false, true] {
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
                serving: URL(filePath: "/served"), of: fileSystem, answersInfiniteDepth: answers)
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
        // Refused: the root and its four folders one by one; answered: the tree in one request.
        #expect(listingRequests[1] == listingRequests[0] - 4, "\(listingRequests)")
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[1].count == 10)
    }
}
