import Foundation
import Seams
import SeamsTesting
import Testing

@Suite struct MockFileAccessorTests {
    let url = URL(filePath: "/virtual/a.json")
    let other = URL(filePath: "/virtual/b.json")

    @Test("files given at init or set later are read back; writes land in files")
    func storesFiles() throws {
        let mock = MockFileAccessor(files: [url: Data("a".utf8)])
        #expect(try mock.read(from: url) == Data("a".utf8))
        try mock.write(Data("b".utf8), to: other)
        #expect(mock.files == [url: Data("a".utf8), other: Data("b".utf8)])
        mock.files[url] = nil
        #expect(!mock.fileExists(at: url))
        #expect(mock.fileExists(at: other))
    }

    @Test("a missing file throws what Foundation throws: .fileReadNoSuchFile with ENOENT")
    func missingFileIsFoundationError() {
        let mock = MockFileAccessor()
        let error = #expect(throws: CocoaError.self) { try mock.read(from: url) }
        #expect(error?.code == .fileReadNoSuchFile)
        #expect(error?.posixCode == .ENOENT)
        #expect(error?.userInfo[NSFilePathErrorKey] as? String == url.path)
    }

    @Test("readError fails every read and leaves the files alone")
    func readError() throws {
        let mock = MockFileAccessor(files: [url: Data("a".utf8)])
        mock.readError = CocoaError(.fileReadCorruptFile)
        #expect(throws: CocoaError(.fileReadCorruptFile)) { try mock.read(from: url) }
        #expect(throws: CocoaError(.fileReadCorruptFile)) { try mock.read(from: other) }
        mock.readError = nil
        #expect(try mock.read(from: url) == Data("a".utf8))
    }

    @Test("writeError fails every write and stores nothing")
    func writeError() {
        let mock = MockFileAccessor()
        mock.writeError = CocoaError(.fileWriteOutOfSpace)
        #expect(throws: CocoaError(.fileWriteOutOfSpace)) { try mock.write(Data("x".utf8), to: url) }
        #expect(mock.files.isEmpty)
    }

    @Test("every call is recorded in order, failed ones included")
    func recordsCalls() throws {
        let mock = MockFileAccessor()
        try mock.write(Data("x".utf8), to: url)
        _ = mock.fileExists(at: other)
        mock.readError = CocoaError(.fileReadUnknown)
        _ = try? mock.read(from: url)
        #expect(mock.calls == [.write(Data("x".utf8), url), .fileExists(other), .read(url)])
        mock.resetCalls()
        #expect(mock.calls.isEmpty)
        #expect(mock.files == [url: Data("x".utf8)])
    }

    @Test("withState changes several things as one step")
    func withState() throws {
        let mock = MockFileAccessor()
        let count = mock.withState { state in
            state.files[url] = Data("1".utf8)
            state.files[other] = Data("2".utf8)
            state.writeError = CocoaError(.fileWriteVolumeReadOnly)
            return state.files.count
        }
        #expect(count == 2)
        #expect(throws: CocoaError(.fileWriteVolumeReadOnly)) { try mock.write(Data(), to: url) }
    }
}

@Suite struct MockFileSystemProviderTests {
    @Test("answers the configured container for every purpose and records each request")
    func configuredContainer() {
        let container = URL(filePath: "/virtual/container")
        let mock = MockFileSystemProvider(containerURL: container)
        #expect(mock.containerURL(for: .sync) == container)
        #expect(mock.containerURL(for: Purpose(rawValue: "backup")) == container)
        #expect(mock.requestedPurposes == [.sync, Purpose(rawValue: "backup")])
    }

    @Test("nil means not available; a purpose may be given its own container")
    func perPurpose() {
        let mock = MockFileSystemProvider(containerURL: nil)
        #expect(mock.containerURL(for: .sync) == nil)
        let backup = URL(filePath: "/virtual/backup")
        mock.setContainerURL(backup, for: Purpose(rawValue: "backup"))
        #expect(mock.containerURL(for: Purpose(rawValue: "backup")) == backup)
        #expect(mock.containerURL(for: .sync) == nil)
        mock.containerURL = URL(filePath: "/virtual/now-mounted")
        #expect(mock.containerURL(for: .sync) == URL(filePath: "/virtual/now-mounted"))
    }
}

@Suite struct MockBookmarkStorageTests {
    @Test("saves and loads by key; an unknown key is nil")
    func storesBookmarks() throws {
        let mock = MockBookmarkStorage(bookmarks: ["a": Data("1".utf8)])
        try mock.saveBookmark(Data("2".utf8), for: "b")
        #expect(try mock.loadBookmark(for: "a") == Data("1".utf8))
        #expect(try mock.loadBookmark(for: "b") == Data("2".utf8))
        #expect(try mock.loadBookmark(for: "c") == nil)
        #expect(mock.calls == [.save(Data("2".utf8), key: "b"), .load(key: "a"), .load(key: "b"), .load(key: "c")])
    }

    @Test("saveError and loadError are thrown, and a failed save stores nothing")
    func errors() throws {
        let mock = MockBookmarkStorage()
        mock.saveError = CocoaError(.fileWriteNoPermission)
        #expect(throws: CocoaError(.fileWriteNoPermission)) { try mock.saveBookmark(Data(), for: "a") }
        #expect(mock.bookmarks.isEmpty)
        mock.saveError = nil
        try mock.saveBookmark(Data("x".utf8), for: "a")
        mock.loadError = BookmarkStorageError.corruptStore(URL(filePath: "/s"), reason: "test")
        #expect(throws: BookmarkStorageError.corruptStore(URL(filePath: "/s"), reason: "test")) {
            try mock.loadBookmark(for: "a")
        }
    }
}
