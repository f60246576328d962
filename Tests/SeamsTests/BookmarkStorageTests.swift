import Foundation
import Seams
import Testing

@Suite struct BookmarkStorageTests {
    @Test("nothing saved yet reads as nil, and reading creates no file")
    func emptyStore() throws {
        let temp = try TemporaryDirectory()
        let storage = DefaultBookmarkStorage(storeURL: temp.file("config/bookmarks.json"))
        #expect(try storage.loadBookmark(for: "local-folder") == nil)
        #expect(!FileManager.default.fileExists(atPath: temp.folder("config").path))
    }

    @Test("saved bookmarks read back, each under its own key, and a save replaces only its key")
    func roundTrip() throws {
        let temp = try TemporaryDirectory()
        let storage = DefaultBookmarkStorage(storeURL: temp.file("config/bookmarks.json"))
        try storage.saveBookmark(Data([0, 1, 2, 255]), for: "a")
        try storage.saveBookmark(Data("b".utf8), for: "b")
        try storage.saveBookmark(Data("a2".utf8), for: "a")
        #expect(try storage.loadBookmark(for: "a") == Data("a2".utf8))
        #expect(try storage.loadBookmark(for: "b") == Data("b".utf8))
        try storage.removeBookmark(for: "a")
        #expect(try storage.loadBookmark(for: "a") == nil)
        #expect(try storage.loadBookmark(for: "b") == Data("b".utf8))
    }

    @Test(
        "any key stays inside the store file",
        arguments: [
            "../../x", "/etc/passwd", "", "a/b/c", "..", "caf\u{E9}", "key\nwith\nnewlines",
            String(repeating: "k", count: 5000),
        ]
    )
    func keysNeverEscape(key: String) throws {
        let temp = try TemporaryDirectory()
        let folder = temp.folder("deep/config")
        let storage = DefaultBookmarkStorage(storeURL: folder.appending(path: "bookmarks.json"))
        try storage.saveBookmark(Data(key.utf8), for: key)
        #expect(try storage.loadBookmark(for: key) == Data(key.utf8))
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [
                "bookmarks.json", "bookmarks.json.lock",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path) == ["deep"])
    }

    @Test(
        "a damaged store is reported, never overwritten, and loses no bookmark",
        arguments: [
            "", "not json at all", "{\"version\":1,\"bookmarks\":", "[1,2,3]", "{\"version\":\"one\"}",
            "{\"version\":1,\"bookmarks\":{\"a\":\"%%%not base64\"}}",
        ]
    )
    func corruptStore(content: String) throws {
        let temp = try TemporaryDirectory()
        let url = temp.file("bookmarks.json")
        try Data(content.utf8).write(to: url)
        let storage = DefaultBookmarkStorage(storeURL: url)

        let loadError = try #require(throws: BookmarkStorageError.self) { try storage.loadBookmark(for: "a") }
        guard case .corruptStore(let reported, _) = loadError else {
            Issue.record("expected corruptStore, got \(loadError)")
            return
        }
        #expect(reported == url)
        #expect(loadError.description.contains("left untouched"))
        #expect(throws: BookmarkStorageError.self) { try storage.saveBookmark(Data("new".utf8), for: "b") }
        #expect(try Data(contentsOf: url) == Data(content.utf8))
    }

    @Test("a store from a newer format version is refused, not rewritten")
    func newerVersion() throws {
        let temp = try TemporaryDirectory()
        let url = temp.file("bookmarks.json")
        let content = Data(#"{"version":7,"bookmarks":{},"future":true}"#.utf8)
        try content.write(to: url)
        let storage = DefaultBookmarkStorage(storeURL: url)
        #expect(throws: BookmarkStorageError.unsupportedVersion(url, version: 7)) { try storage.loadBookmark(for: "a") }
        #expect(throws: BookmarkStorageError.unsupportedVersion(url, version: 7)) {
            try storage.saveBookmark(Data(), for: "a")
        }
        #expect(try Data(contentsOf: url) == content)
    }

    @Test("a store whose folder cannot be made throws Foundation's error")
    func folderThroughFile() throws {
        let temp = try TemporaryDirectory()
        try Data("file".utf8).write(to: temp.file("blocker"))
        let storage = DefaultBookmarkStorage(storeURL: temp.file("blocker/bookmarks.json"))
        #expect(throws: CocoaError.self) { try storage.saveBookmark(Data(), for: "a") }
    }

    @Test("the default store follows XDG_CONFIG_HOME, then HOME")
    func defaultLocation() {
        #expect(
            DefaultBookmarkStorage.defaultStoreURL(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"]).path
                == "/cfg/seams/bookmarks.json")
        #expect(
            DefaultBookmarkStorage.defaultStoreURL(environment: ["HOME": "/home/u"]).path
                == "/home/u/.config/seams/bookmarks.json")
    }

    @Test("saves from many threads at once all survive")
    func concurrentThreads() throws {
        let temp = try TemporaryDirectory()
        let storage = DefaultBookmarkStorage(storeURL: temp.file("bookmarks.json"))
        let count = 64
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do { try storage.saveBookmark(Data("\(index)".utf8), for: "key-\(index)") } catch {
                Issue.record("save \(index) failed: \(error)")
            }
        }
        for index in 0..<count {
            #expect(try storage.loadBookmark(for: "key-\(index)") == Data("\(index)".utf8))
        }
    }

    @Test("saves from several processes at once all survive (the file lock is real)")
    func concurrentProcesses() throws {
        let temp = try TemporaryDirectory()
        let folder = temp.folder("shared")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let store = folder.appending(path: "bookmarks.json")
        let count = 8
        let outcomes = Mutexed<[String]>([])
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let line =
                (try? UnprivilegedProbe.run("bookmark-save", store.path, "p\(index)", "v\(index)").line)
                ?? "launch failed"
            outcomes.withLock { $0.append(line) }
        }
        #expect(outcomes.withLock { $0 } == Array(repeating: "ok", count: count))
        let storage = DefaultBookmarkStorage(storeURL: store)
        for index in 0..<count {
            #expect(try storage.loadBookmark(for: "p\(index)") == Data("v\(index)".utf8))
        }
    }
}
