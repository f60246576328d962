import Foundation
import Seams
import SeamsTesting
import Testing

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
