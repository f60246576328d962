import Foundation
import HTTPTypes
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

@testable import SeamsSync

/// A bucket's tree listed ahead in flat listings answers every folder as a listing by folder
/// does, with one request per top folder instead of one per folder, and never after a write.
@Suite struct S3TreeListingTests {
    static let keys = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
    let server = InMemoryS3Server(credentials: keys)
    let counting: InterceptingTransport
    let root = URL(string: "s3://bucket/notes/")!

    init() async throws {
        counting = InterceptingTransport(server)
        let client = client(counting)
        try await BlockingExecutor.shared.run { try client.createBucket() }
    }

    /// The listing requests `transport` sent so far.
    static func listings(_ transport: InterceptingTransport) -> Int {
        transport.requests.count { $0.method == .get && $0.path?.contains("list-type=2") == true }
    }

    func client(_ transport: some WaitingHTTPTransportProviding) -> S3Client {
        S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: transport, pause: { _ in })
    }

    /// Keys of a random tree under `notes/`: nested folders, markers of empty and of full folders,
    /// NFC and NFD spellings of one name, a key that is a file and a folder's prefix at once, a key
    /// with an empty component, and the tool's trash.
    static func keys(seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let names = ["a", "b", "é", "e\u{301}", "c d", "x.txt", "y"]
        var keys: Set<String> = [
            "notes/.seams-trash/old.txt", "notes/.seams-lock", "notes/clash", "notes/clash/in.txt",
        ]
        for _ in 0..<60 {
            let depth = Int(random.next() % 4) + 1
            let parts = (0..<depth).map { _ in names[Int(random.next() % UInt64(names.count))] }
            let key = "notes/" + parts.joined(separator: "/")
            keys.insert(random.next() % 5 == 0 ? key + "/" : key)
        }
        keys.insert("notes/empty/")
        keys.insert("notes/a//hidden")
        return keys.sorted()
    }

    /// Every folder under `url`, by listings by folder of `accessor`.
    func folders(under url: URL, _ accessor: S3Accessor) throws -> [URL] {
        var found: [URL] = [url]
        var pending = [url]
        while let folder = pending.popLast() {
            for entry in try accessor.contentsOfDirectory(at: folder) where entry.metadata.kind == .directory {
                let child = folder.appending(path: entry.name, directoryHint: .isDirectory)
                found.append(child)
                pending.append(child)
            }
        }
        return found
    }

    @Test(
        "every folder's listing from the flat listings equals its listing by folder, over random trees",
        arguments: 1...8)
    func sameAsByFolder(seed: UInt64) async throws {
        let plain = S3Accessor(client: client(server), prefix: "notes/")
        let ahead = S3Accessor(client: client(counting), prefix: "notes/")
        let keys = Self.keys(seed: seed)
        let (expected, listed, requests) = try await BlockingExecutor.shared.run {
            [counting, server, root] () throws -> ([URL: [DirectoryEntry]], [URL: [DirectoryEntry]], Int) in
            let writer = S3Client(
                endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
                transport: server, pause: { _ in })
            for key in keys { _ = try writer.putObject(key, body: Data(key.utf8)) }
            let all = try folders(under: root, plain).filter { !$0.lastPathComponent.hasPrefix(".seams") }
            var expected: [URL: [DirectoryEntry]] = [:]
            for folder in all { expected[folder] = try plain.contentsOfDirectory(at: folder) }
            let before = Self.listings(counting)
            try ahead.beginTreeListing(at: root, skipping: OwnNames.isOwn)
            var listed: [URL: [DirectoryEntry]] = [:]
            for folder in all { listed[folder] = try ahead.contentsOfDirectory(at: folder) }
            return (expected, listed, Self.listings(counting) - before)
        }
        #expect(expected.count > 5, "a tree with folders")
        for (folder, entries) in expected {
            #expect(listed[folder] == entries, "\(folder.path(percentEncoded: false))")
        }
        let topFolders = expected[root]!.filter { $0.metadata.kind == .directory && !OwnNames.isOwn($0.name) }.count
        #expect(requests == 1 + topFolders, "the root by folder, then one flat listing per top folder")
    }

    @Test("a write through the accessor drops what was listed ahead; the trash is listed only when asked")
    func writeDropsListings() async throws {
        let ahead = S3Accessor(client: client(counting), prefix: "notes/")
        try await BlockingExecutor.shared.run { [counting, root] in
            try ahead.createDirectory(
                at: root.appending(path: "sub/deep", directoryHint: .isDirectory), withIntermediateDirectories: true)
            try ahead.write(Data("t".utf8), to: root.appending(path: ".seams-trash/v1"))
            try ahead.beginTreeListing(at: root, skipping: OwnNames.isOwn)
            try ahead.write(Data("new".utf8), to: root.appending(path: "sub/new.txt"))
            let before = Self.listings(counting)
            let sub = try ahead.contentsOfDirectory(at: root.appending(path: "sub", directoryHint: .isDirectory))
            #expect(sub.map(\.name) == ["deep", "new.txt"], "the file written after the listing is there")
            #expect(Self.listings(counting) - before == 1, "listed again, not from memory")

            try ahead.beginTreeListing(at: root, skipping: OwnNames.isOwn)
            let trashBefore = Self.listings(counting)
            let trash = try ahead.contentsOfDirectory(
                at: root.appending(path: ".seams-trash", directoryHint: .isDirectory))
            #expect(trash.map(\.name) == ["v1"])
            #expect(Self.listings(counting) - trashBefore == 1, "the skipped trash is listed when asked")
            ahead.endTreeListing()
            let afterEnd = Self.listings(counting)
            _ = try ahead.contentsOfDirectory(at: root.appending(path: "sub", directoryHint: .isDirectory))
            #expect(Self.listings(counting) - afterEnd == 1, "nothing kept after the end")
        }
    }
}
