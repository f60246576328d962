import Foundation
import Seams
import SeamsTesting
import Testing

/// What ``InMemoryFileSystem`` offers beyond the conformance suites: clock, identities,
/// containers, bookmarks, real-folder import and export, and thread safety.
@Suite struct InMemoryFileSystemTests {
    let fs = InMemoryFileSystem(containerURL: URL(filePath: "/container"))
    let folder = URL(filePath: "/d")

    init() throws {
        try fs.createDirectory(at: folder, withIntermediateDirectories: false)
    }

    @Test("modification dates come from the injected clock, to the nanosecond")
    func clock() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000.000_000_5)
        fs.now = start
        let a = folder.appending(path: "a")
        try fs.write(Data(), to: a)
        #expect(try fs.metadata(at: a).modificationDate == fs.now)
        fs.advanceTime(by: 0.25)
        try fs.write(Data("x".utf8), to: a)
        let stamped = try fs.metadata(at: a).modificationDate
        #expect(stamped.timeIntervalSince(start) > 0.2499 && stamped.timeIntervalSince(start) < 0.2501)
        #expect(try fs.metadata(at: folder).modificationDate == stamped)
    }

    @Test("inode numbers are given out in creation order")
    func inodes() throws {
        #expect(try fs.metadata(at: URL(filePath: "/")).fileIdentifier == 1)
        #expect(try fs.metadata(at: folder).fileIdentifier == 2)
        try fs.write(Data(), to: folder.appending(path: "a"))
        try fs.write(Data(), to: folder.appending(path: "b"))
        #expect(try fs.contentsOfDirectory(at: folder).map(\.metadata.fileIdentifier) == [3, 4])
    }

    @Test("a folder's link count is two plus its subfolders")
    func folderLinks() throws {
        try fs.createDirectory(at: folder.appending(path: "x/y"), withIntermediateDirectories: true)
        try fs.write(Data(), to: folder.appending(path: "f"))
        #expect(try fs.metadata(at: folder).linkCount == 3)
    }

    @Test("the container is answered only while it exists as a folder")
    func container() throws {
        #expect(fs.containerURL(for: .sync) == nil)
        try fs.createDirectory(at: URL(filePath: "/container"), withIntermediateDirectories: false)
        #expect(fs.containerURL(for: .sync) == URL(filePath: "/container"))
        fs.setContainerURL(folder, for: Purpose(rawValue: "other"))
        #expect(fs.containerURL(for: Purpose(rawValue: "other")) == folder)
    }

    @Test("bookmarks are kept in memory and recorded")
    func bookmarks() throws {
        try fs.saveBookmark(Data([1]), for: "local")
        #expect(try fs.loadBookmark(for: "local") == Data([1]))
        #expect(try fs.loadBookmark(for: "other") == nil)
        #expect(fs.calls.suffix(3).map(\.operation) == [.saveBookmark, .loadBookmark, .loadBookmark])
    }

    @Test("acting as root, permission bits are ignored")
    func rootMode() throws {
        let root = InMemoryFileSystem(enforcesPermissions: false)
        let file = URL(filePath: "/secret")
        try root.write(Data("x".utf8), to: file)
        try root.setPermissions(0, at: file)
        #expect(try root.read(from: file) == Data("x".utf8))
        let user = InMemoryFileSystem()
        try user.write(Data("x".utf8), to: file)
        try user.setPermissions(0, at: file)
        #expect(throws: CocoaError.self) { _ = try user.read(from: file) }
    }

    @Test("a real folder is imported and exported with bytes, modes and dates")
    func realFolders() throws {
        let temp = FileManager.default.temporaryDirectory.appending(path: "seams-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temp) }
        let source = temp.appending(path: "source")
        try FileManager.default.createDirectory(at: source.appending(path: "sub"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: source.appending(path: "sub/a.txt"))
        let date = Date(timeIntervalSince1970: 1_600_000_000.5)
        let live = DefaultDirectoryAccessor()
        try live.setPermissions(0o600, at: source.appending(path: "sub/a.txt"))
        try live.setModificationDate(date, at: source.appending(path: "sub/a.txt"))

        try fs.importTree(from: source, to: URL(filePath: "/imported/tree"))
        let imported = try fs.metadata(at: URL(filePath: "/imported/tree/sub/a.txt"))
        #expect(try fs.read(from: URL(filePath: "/imported/tree/sub/a.txt")) == Data("hello".utf8))
        #expect(imported.permissions == 0o600 && imported.modificationDate == date)

        fs.cutPower()  // an import is durable
        #expect(fs.fileExists(at: URL(filePath: "/imported/tree/sub/a.txt")))

        try fs.exportTree(from: URL(filePath: "/imported/tree"), to: temp.appending(path: "out"))
        let exported = try live.metadata(at: temp.appending(path: "out/sub/a.txt"))
        #expect(try Data(contentsOf: temp.appending(path: "out/sub/a.txt")) == Data("hello".utf8))
        #expect(exported.permissions == 0o600 && exported.modificationDate == date)
    }

    @Test("many tasks writing at once all land, and every call is counted")
    func concurrentWriters() async throws {
        let fs = self.fs
        let folder = self.folder
        fs.resetCalls()
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        let url = folder.appending(path: "t\(task)-\(index)")
                        try fs.write(Data([UInt8(index)]), to: url)
                        _ = try fs.metadata(at: url)
                    }
                }
            }
        }
        #expect(try fs.contentsOfDirectory(at: folder).count == 400)
        #expect(fs.callCount == 801)
    }

    @Test("freeing replaced inodes never frees what a power cut brings back")
    func sweepKeepsDurableInodes() throws {
        let file = folder.appending(path: "f")
        try fs.write(Data("durable".utf8), to: file)
        fs.synchronizeAll()
        for round in 0..<5000 { try fs.write(Data("\(round)".utf8), to: file) }
        fs.cutPower()
        #expect(try fs.read(from: file) == Data("durable".utf8))
    }
}
