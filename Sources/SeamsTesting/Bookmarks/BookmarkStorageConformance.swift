import Foundation
import Seams

/// The conformance suite of `BookmarkStorageProviding`: keys are keys (never paths), saves
/// replace, and a new storage on the same store sees what was saved.
///
/// ```swift
/// @Test(arguments: BookmarkStorageConformance.behaviours)
/// func conforms(_ behaviour: ConformanceBehaviour) throws { try behaviour.run(on: .inMemory()) }
/// ```
public enum BookmarkStorageConformance {
    /// Every behaviour of the suite.
    public static var behaviours: [ConformanceBehaviour] { all }

    static func behaviour(
        _ name: String, _ body: @escaping @Sendable (ConformanceSubject) throws -> Void
    ) -> ConformanceBehaviour {
        ConformanceBehaviour(suite: "BookmarkStorage", name, body)
    }

    static let all: [ConformanceBehaviour] = [
        behaviour("a key never saved loads as nil") { s in
            try Check.that(try s.makeBookmarkStorage().loadBookmark(for: "nothing") == nil, "not nil")
        },
        behaviour("a saved bookmark loads back") { s in
            let storage = s.makeBookmarkStorage()
            try storage.saveBookmark(Data([1, 2, 3]), for: "folder")
            try Check.equal(try storage.loadBookmark(for: "folder"), Data([1, 2, 3]), "bookmark")
        },
        behaviour("a second save replaces the first") { s in
            let storage = s.makeBookmarkStorage()
            try storage.saveBookmark(Data([1]), for: "k")
            try storage.saveBookmark(Data([2]), for: "k")
            try Check.equal(try storage.loadBookmark(for: "k"), Data([2]), "bookmark")
        },
        behaviour("keys are independent") { s in
            let storage = s.makeBookmarkStorage()
            try storage.saveBookmark(Data([1]), for: "a")
            try storage.saveBookmark(Data([2]), for: "b")
            try Check.equal(try storage.loadBookmark(for: "a"), Data([1]), "a")
            try Check.equal(try storage.loadBookmark(for: "b"), Data([2]), "b")
        },
        behaviour("path-like keys are plain keys") { s in
            let storage = s.makeBookmarkStorage()
            try storage.saveBookmark(Data([9]), for: "../../etc/x")
            try storage.saveBookmark(Data([8]), for: "a/b")
            try Check.equal(try storage.loadBookmark(for: "../../etc/x"), Data([9]), "dotted key")
            try Check.that(try storage.loadBookmark(for: "a") == nil, "prefix key answered")
        },
        behaviour("an empty bookmark is kept, distinct from none") { s in
            let storage = s.makeBookmarkStorage()
            try storage.saveBookmark(Data(), for: "empty")
            try Check.equal(try storage.loadBookmark(for: "empty"), Data(), "bookmark")
        },
        behaviour("a new storage on the same store sees saved bookmarks") { s in
            try s.makeBookmarkStorage().saveBookmark(Data([7]), for: "kept")
            try Check.equal(try s.makeBookmarkStorage().loadBookmark(for: "kept"), Data([7]), "bookmark")
        },
        behaviour("a 64 KiB bookmark round-trips") { s in
            let big = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0) })
            let storage = s.makeBookmarkStorage()
            try storage.saveBookmark(big, for: "big")
            try Check.equal(try storage.loadBookmark(for: "big"), big, "bookmark")
        },
    ]
}
