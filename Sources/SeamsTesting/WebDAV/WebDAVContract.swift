public import Foundation
import Seams
public import SeamsWebDAV

/// The contract of the WebDAV boundary: what `WebDAVAccessor` needs of a server (listing,
/// metadata, atomic replace, exclusive create, move, copy, delete, names, errors), as behaviours
/// a server either keeps or is noted to differ in.
///
/// This package runs it on Apache httpd with `mod_dav_fs` and `rclone serve webdav`, started on
/// loopback by its tests (``LocalWebDAVServer``), and on ``InMemoryWebDAVServer``, which must
/// answer as they do. Run it on your own server, or a fake of one, the same way:
///
/// ```swift
/// let outcome = WebDAVContract.run(on: accessor, under: accessor.baseURL, server: "nextcloud")
/// #expect(outcome.failures.isEmpty, "\(outcome.failures)")
/// ```
public enum WebDAVContract {
    /// One behaviour: a name, and a check run in a collection of its own.
    public struct Behaviour: Sendable {
        /// What the server does, in words.
        public let name: String
        /// Servers known to differ, by name, and how: the behaviour is not run there.
        public let differsOn: [String: String]
        /// Throws when the server does not behave so; given the accessor and an empty collection.
        public let check: @Sendable (WebDAVAccessor, URL) throws -> Void
    }

    /// What a run of the contract found.
    public struct Outcome: Sendable, Hashable {
        /// The behaviours that failed, each as "name: why".
        public var failures: [String] = []
        /// The behaviours not run because the server is known to differ, each as "name: how".
        public var notes: [String] = []
    }

    /// A behaviour the server did not keep.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong.
        public let description: String
    }

    /// Runs every behaviour, each in a new collection `case-<n>` under `root`.
    ///
    /// - Parameters:
    ///   - accessor: The accessor for the server.
    ///   - root: An empty collection the run may fill.
    ///   - server: The server's name, for ``Behaviour/differsOn``.
    /// - Returns: What failed, and what was not run.
    @available(*, noasync, message: "makes blocking requests; run it on a thread of its own")
    public static func run(on accessor: WebDAVAccessor, under root: URL, server: String) -> Outcome {
        var outcome = Outcome()
        for (index, behaviour) in behaviours.enumerated() {
            if let note = behaviour.differsOn[server] {
                outcome.notes.append("\(behaviour.name): \(note)")
                continue
            }
            let folder = root.appending(path: "case-\(index)", directoryHint: .isDirectory)
            do {
                try accessor.createDirectory(at: folder, withIntermediateDirectories: false)
                try behaviour.check(accessor, folder)
            } catch {
                outcome.failures.append("\(behaviour.name): \(error)")
            }
        }
        return outcome
    }

    // MARK: Behaviours

    /// Every behaviour, in the order they run.
    public static let behaviours: [Behaviour] = listing + files + creation + moves + copies + removal + names

    static func behaviour(
        _ name: String, differsOn notes: [String: String] = [:],
        _ body: @escaping @Sendable (WebDAVAccessor, URL) throws -> Void
    ) -> Behaviour {
        Behaviour(name: name, differsOn: notes, check: body)
    }

    static let listing: [Behaviour] = [
        behaviour("an empty collection lists as empty") { dav, root in
            try check(try dav.contentsOfDirectory(at: root).isEmpty, "not empty")
        },
        behaviour("a listing names files and folders with kinds and sizes, sorted by bytes") { dav, root in
            try dav.write(Data("bb".utf8), to: root.appending(path: "b.txt"))
            try dav.createDirectory(at: root.appending(path: "a"), withIntermediateDirectories: false)
            try dav.write(Data("Z".utf8), to: root.appending(path: "B"))
            let entries = try dav.contentsOfDirectory(at: root)
            try equal(entries.map(\.name), ["B", "a", "b.txt"], "names")
            try equal(entries.map(\.metadata.kind), [.file, .directory, .file], "kinds")
            try equal(entries.map(\.metadata.size), [1, 0, 2], "sizes")
        },
        behaviour("a listing holds the same metadata as metadata(at:)") { dav, root in
            try dav.write(Data("12345".utf8), to: root.appending(path: "f"))
            try dav.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
            for entry in try dav.contentsOfDirectory(at: root) {
                try equal(entry.metadata, try dav.metadata(at: root.appending(path: entry.name)), entry.name)
            }
        },
        behaviour("a listing shows a collection's items only, not deeper ones") { dav, root in
            try dav.createDirectory(at: root.appending(path: "d/e"), withIntermediateDirectories: true)
            try dav.write(Data(), to: root.appending(path: "d/e/deep"))
            try equal(try dav.contentsOfDirectory(at: root.appending(path: "d")).map(\.name), ["e"], "names")
        },
        behaviour(
            "a tree listed ahead (Depth: infinity, where answered) gives each folder what its own listing gives, a skipped folder and a write included"
        ) { dav, root in
            try dav.createDirectory(at: root.appending(path: "d/e"), withIntermediateDirectories: true)
            try dav.createDirectory(at: root.appending(path: "empty"), withIntermediateDirectories: false)
            try dav.createDirectory(at: root.appending(path: "skip/in"), withIntermediateDirectories: true)
            try dav.write(Data("12".utf8), to: root.appending(path: "a.txt"))
            try dav.write(Data("x".utf8), to: root.appending(path: "d/x y%.txt"))
            try dav.write(Data(), to: root.appending(path: "d/e/deep"))
            try dav.write(Data("old".utf8), to: root.appending(path: "skip/in/old"))
            let folders = ["", "d", "d/e", "empty", "skip", "skip/in"].map {
                $0.isEmpty ? root : root.appending(path: $0, directoryHint: .isDirectory)
            }
            let expected = try folders.map { try dav.contentsOfDirectory(at: $0) }
            _ = try dav.beginTreeListing(at: root, expecting: 8, skipping: { $0 == "skip" })
            for (folder, entries) in zip(folders, expected) {
                try equal(try dav.contentsOfDirectory(at: folder), entries, folder.path)
            }
            // A write after the listing began: each folder is as the server has it now.
            _ = try dav.beginTreeListing(at: root, expecting: 9)
            try dav.write(Data("new".utf8), to: root.appending(path: "d/new"))
            try equal(
                try dav.contentsOfDirectory(at: folders[1]).map(\.name), ["e", "new", "x y%.txt"], "after a write")
            dav.endTreeListing()
        },
        behaviour("listing a missing collection throws 260 ENOENT") { dav, root in
            try expectFailure(.fileReadNoSuchFile, ENOENT) {
                _ = try dav.contentsOfDirectory(at: root.appending(path: "missing"))
            }
        },
        behaviour("listing a file throws ENOTDIR") { dav, root in
            try dav.write(Data("x".utf8), to: root.appending(path: "f"))
            try expectFailure(.fileReadUnknown, ENOTDIR) {
                _ = try dav.contentsOfDirectory(at: root.appending(path: "f"))
            }
        },
        behaviour("metadata of a missing item throws 260 ENOENT") { dav, root in
            try expectFailure(.fileReadNoSuchFile, ENOENT) { _ = try dav.metadata(at: root.appending(path: "missing")) }
        },
        behaviour("a modification date is the server's, to the second, and recent") { dav, root in
            try dav.write(Data("x".utf8), to: root.appending(path: "f"))
            let date = try dav.metadata(at: root.appending(path: "f")).modificationDate
            try check(date.timeIntervalSince1970.rounded() == date.timeIntervalSince1970, "\(date) has a fraction")
            try check(abs(date.timeIntervalSinceNow) < 600, "\(date) is not recent")
        },
    ]

    static let files: [Behaviour] = [
        behaviour("a file written is read back byte for byte, binary and empty included") { dav, root in
            let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try dav.write(bytes, to: root.appending(path: "bin"))
            try equal(try dav.read(from: root.appending(path: "bin")), bytes, "binary")
            try dav.write(Data(), to: root.appending(path: "empty"))
            try equal(try dav.read(from: root.appending(path: "empty")), Data(), "empty")
        },
        behaviour("a write replaces the whole content") { dav, root in
            let url = root.appending(path: "f")
            try dav.write(Data("a long first version".utf8), to: url)
            try dav.write(Data("short".utf8), to: url)
            try equal(try dav.read(from: url), Data("short".utf8), "content")
            try equal(try dav.metadata(at: url).size, 5, "size")
        },
        behaviour("a rewrite with the same size and second changes the identifier (ETag)") { dav, root in
            let url = root.appending(path: "f")
            try dav.write(Data("one".utf8), to: url)
            let before = try dav.metadata(at: url)
            try dav.write(Data("two".utf8), to: url)
            let after = try dav.metadata(at: url)
            if before.modificationDate == after.modificationDate {
                try check(
                    before.fileIdentifier != after.fileIdentifier,
                    "same size, same second, same ETag: the change is invisible")
            }
        },
        behaviour("reading a missing file throws 260 ENOENT") { dav, root in
            try expectFailure(.fileReadNoSuchFile, ENOENT) { _ = try dav.read(from: root.appending(path: "missing")) }
        },
        behaviour("writing into a missing collection throws 4 ENOENT") { dav, root in
            try expectFailure(.fileNoSuchFile, ENOENT) {
                try dav.write(Data("x".utf8), to: root.appending(path: "missing/f"))
            }
        },
        behaviour("an exclusive create makes a new file and refuses an existing one with 516 EEXIST") { dav, root in
            let url = root.appending(path: "lock")
            try dav.createFile(Data("first".utf8), at: url)
            try expectFailure(.fileWriteFileExists, EEXIST) { try dav.createFile(Data("second".utf8), at: url) }
            try equal(try dav.read(from: url), Data("first".utf8), "content")
        },
        behaviour("an upload to a new name (one PUT) makes the file and writes nothing into a missing collection") {
            dav, root in
            try dav.upload(Data("new".utf8), toNewName: root.appending(path: "t"))
            try equal(try dav.read(from: root.appending(path: "t")), Data("new".utf8), "content")
            try expectFailure(.fileNoSuchFile, ENOENT) {
                try dav.upload(Data("x".utf8), toNewName: root.appending(path: "missing/t"))
            }
        },
        behaviour(
            "an upload to a taken name is refused with 516 EEXIST (If-None-Match: *) and the file stays",
            differsOn: [
                "rclone":
                    "rclone serve webdav ignores If-None-Match: the upload replaces the file (the engine uploads only to its own temp names)"
            ]
        ) { dav, root in
            let url = root.appending(path: "t")
            try dav.write(Data("first".utf8), to: url)
            try expectFailure(.fileWriteFileExists, EEXIST) { try dav.upload(Data("second".utf8), toNewName: url) }
            try equal(try dav.read(from: url), Data("first".utf8), "content")
        },
        behaviour("fileExists sees files and collections, not missing names") { dav, root in
            try dav.write(Data(), to: root.appending(path: "f"))
            try check(dav.fileExists(at: root.appending(path: "f")), "file")
            try check(dav.fileExists(at: root), "collection")
            try check(!dav.fileExists(at: root.appending(path: "missing")), "missing")
        },
        behaviour("a server has no hard links: linkItem throws EPERM") { dav, root in
            try dav.write(Data(), to: root.appending(path: "f"))
            try expectFailure(.fileWriteNoPermission, EPERM) {
                try dav.linkItem(at: root.appending(path: "f"), to: root.appending(path: "g"))
            }
        },
    ]

    static let creation: [Behaviour] = [
        behaviour(
            "making an existing collection throws 516 EEXIST",
            differsOn: [
                "rclone": "MKCOL of an existing collection answers 201 and changes nothing, so it does not throw"
            ]
        ) { dav, root in
            try dav.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
            try expectFailure(.fileWriteFileExists, EEXIST) {
                try dav.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
            }
        },
        behaviour("making a collection in a missing one throws 4 ENOENT") { dav, root in
            try expectFailure(.fileNoSuchFile, ENOENT) {
                try dav.createDirectory(at: root.appending(path: "a/b"), withIntermediateDirectories: false)
            }
        },
        behaviour("with intermediates, missing parents are made and an existing collection is fine") { dav, root in
            try dav.createDirectory(at: root.appending(path: "a/b/c"), withIntermediateDirectories: true)
            try dav.createDirectory(at: root.appending(path: "a/b/c"), withIntermediateDirectories: true)
            try equal(try dav.metadata(at: root.appending(path: "a/b/c")).kind, .directory, "kind")
        },
    ]

    static let moves: [Behaviour] = [
        behaviour(
            "a move conditional on the target's ETag replaces it as read, and refuses it changed since, moving nothing"
        ) { dav, root in
            let target = root.appending(path: "a")
            let source = root.appending(path: "t")
            try dav.write(Data("old".utf8), to: target)
            let seen = try dav.metadata(at: target)
            try dav.write(Data("changed, longer".utf8), to: target)
            try dav.write(Data("new".utf8), to: source)
            try check(try !dav.moveItem(at: source, to: target, ifStill: seen), "moved over a changed target")
            try equal(try dav.read(from: target), Data("changed, longer".utf8), "target")
            try check(dav.fileExists(at: source), "the source is gone")
            try check(
                try dav.moveItem(at: source, to: target, ifStill: try dav.metadata(at: target)),
                "not moved over the target as read")
            try equal(try dav.read(from: target), Data("new".utf8), "content")
            try check(!dav.fileExists(at: source), "the source is still there")
        },
        behaviour("a move renames and keeps content and modification date") { dav, root in
            try dav.write(Data("moved".utf8), to: root.appending(path: "a"))
            let before = try dav.metadata(at: root.appending(path: "a"))
            try dav.moveItem(at: root.appending(path: "a"), to: root.appending(path: "b"), replacingExisting: false)
            try equal(try dav.read(from: root.appending(path: "b")), Data("moved".utf8), "content")
            try equal(try dav.metadata(at: root.appending(path: "b")).modificationDate, before.modificationDate, "date")
            try check(!dav.fileExists(at: root.appending(path: "a")), "source still there")
        },
        behaviour("a move onto an existing file without replacing throws 516 EEXIST and changes nothing") { dav, root in
            try dav.write(Data("src".utf8), to: root.appending(path: "a"))
            try dav.write(Data("dst".utf8), to: root.appending(path: "b"))
            try expectFailure(.fileWriteFileExists, EEXIST) {
                try dav.moveItem(at: root.appending(path: "a"), to: root.appending(path: "b"), replacingExisting: false)
            }
            try equal(try dav.read(from: root.appending(path: "a")), Data("src".utf8), "source")
            try equal(try dav.read(from: root.appending(path: "b")), Data("dst".utf8), "destination")
        },
        behaviour(
            "a move keeps a file's content tag (its ETag), in a listing too; a rewrite at the same size changes it"
        ) { dav, root in
            try dav.write(Data("one".utf8), to: root.appending(path: "t"))
            let before = try dav.metadata(at: root.appending(path: "t"))
            try check(before.contentTag != 0, "a file has a content tag")
            try dav.moveItem(at: root.appending(path: "t"), to: root.appending(path: "f"), replacingExisting: false)
            try equal(
                try dav.metadata(at: root.appending(path: "f")).contentTag, before.contentTag, "the tag after the move")
            let listed = try dav.contentsOfDirectory(at: root).first { $0.name == "f" }
            try equal(listed?.metadata.contentTag, before.contentTag, "the tag in a listing")
            try dav.write(Data("two".utf8), to: root.appending(path: "f"))
            try check(
                try dav.metadata(at: root.appending(path: "f")).contentTag != before.contentTag,
                "a rewrite keeps the tag")
        },
        behaviour("a replacing move puts the new content in place") { dav, root in
            try dav.write(Data("new".utf8), to: root.appending(path: "tmp"))
            try dav.write(Data("old".utf8), to: root.appending(path: "f"))
            try dav.moveItem(at: root.appending(path: "tmp"), to: root.appending(path: "f"), replacingExisting: true)
            try equal(try dav.read(from: root.appending(path: "f")), Data("new".utf8), "content")
            try equal(try dav.contentsOfDirectory(at: root).map(\.name), ["f"], "names")
        },
        behaviour("a move of a collection takes its items along") { dav, root in
            try dav.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
            try dav.write(Data("in".utf8), to: root.appending(path: "d/x"))
            try dav.moveItem(at: root.appending(path: "d"), to: root.appending(path: "e"), replacingExisting: false)
            try equal(try dav.read(from: root.appending(path: "e/x")), Data("in".utf8), "content")
        },
        behaviour("moving a missing item throws ENOENT") { dav, root in
            try expectFailure(nil, ENOENT) {
                try dav.moveItem(
                    at: root.appending(path: "missing"), to: root.appending(path: "b"), replacingExisting: false)
            }
        },
        behaviour("moving into a missing collection throws ENOENT and keeps the source") { dav, root in
            try dav.write(Data("x".utf8), to: root.appending(path: "a"))
            try expectFailure(nil, ENOENT) {
                try dav.moveItem(
                    at: root.appending(path: "a"), to: root.appending(path: "missing/a"), replacingExisting: false)
            }
            try check(dav.fileExists(at: root.appending(path: "a")), "source gone")
        },
    ]

    static let copies: [Behaviour] = [
        behaviour("a copy of a file is independent of the original") { dav, root in
            try dav.write(Data("orig".utf8), to: root.appending(path: "a"))
            try dav.copyItem(at: root.appending(path: "a"), to: root.appending(path: "b"))
            try dav.write(Data("changed".utf8), to: root.appending(path: "a"))
            try equal(try dav.read(from: root.appending(path: "b")), Data("orig".utf8), "copy")
        },
        behaviour("a copy of a collection copies everything in it") { dav, root in
            try dav.createDirectory(at: root.appending(path: "d/sub"), withIntermediateDirectories: true)
            try dav.write(Data("deep".utf8), to: root.appending(path: "d/sub/f"))
            try dav.copyItem(at: root.appending(path: "d"), to: root.appending(path: "e"))
            try equal(try dav.read(from: root.appending(path: "e/sub/f")), Data("deep".utf8), "content")
            try equal(try dav.read(from: root.appending(path: "d/sub/f")), Data("deep".utf8), "original")
        },
        behaviour("a copy onto an existing item throws 516 EEXIST and changes nothing") { dav, root in
            try dav.write(Data("a".utf8), to: root.appending(path: "a"))
            try dav.write(Data("b".utf8), to: root.appending(path: "b"))
            try expectFailure(.fileWriteFileExists, EEXIST) {
                try dav.copyItem(at: root.appending(path: "a"), to: root.appending(path: "b"))
            }
            try equal(try dav.read(from: root.appending(path: "b")), Data("b".utf8), "destination")
        },
    ]

    static let removal: [Behaviour] = [
        behaviour("removing a file and a full collection recursively leaves nothing") { dav, root in
            try dav.write(Data(), to: root.appending(path: "f"))
            try dav.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
            try dav.write(Data(), to: root.appending(path: "d/x"))
            try dav.removeItem(at: root.appending(path: "f"), recursively: false)
            try dav.removeItem(at: root.appending(path: "d"), recursively: true)
            try check(try dav.contentsOfDirectory(at: root).isEmpty, "not empty")
        },
        behaviour("removing a full collection without recursively refuses with ENOTEMPTY") { dav, root in
            try dav.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
            try dav.write(Data(), to: root.appending(path: "d/x"))
            try expectFailure(.fileWriteUnknown, ENOTEMPTY) {
                try dav.removeItem(at: root.appending(path: "d"), recursively: false)
            }
            try check(dav.fileExists(at: root.appending(path: "d/x")), "item removed")
        },
        behaviour("removing a missing item throws 4 ENOENT") { dav, root in
            try expectFailure(.fileNoSuchFile, ENOENT) {
                try dav.removeItem(at: root.appending(path: "missing"), recursively: true)
            }
        },
    ]

    static let names: [Behaviour] = [
        behaviour("odd names round-trip through write, list, read, move and remove") { dav, root in
            let odd = [
                "a b.txt", "hash#1", "100%", "what?", "caf\u{E9}", "emoji 🎉", "semi;colon", "plus+and&amp", "quote'\"",
                "[brackets]",
            ]
            for name in odd { try dav.write(Data(name.utf8), to: root.appending(path: name)) }
            let listed = try dav.contentsOfDirectory(at: root).map(\.name)
            try equal(Set(listed), Set(odd), "names")
            for name in odd { try equal(try dav.read(from: root.appending(path: name)), Data(name.utf8), name) }
            try dav.moveItem(
                at: root.appending(path: "hash#1"), to: root.appending(path: "100% done?"), replacingExisting: false)
            try equal(try dav.read(from: root.appending(path: "100% done?")), Data("hash#1".utf8), "moved")
            try dav.removeItem(at: root.appending(path: "emoji 🎉"), recursively: true)
            try check(!dav.fileExists(at: root.appending(path: "emoji 🎉")), "removed")
        },
        behaviour("a collection with an odd name lists its items") { dav, root in
            try dav.createDirectory(at: root.appending(path: "my #1 folder"), withIntermediateDirectories: false)
            try dav.write(Data("in".utf8), to: root.appending(path: "my #1 folder/x y"))
            try equal(
                try dav.contentsOfDirectory(at: root.appending(path: "my #1 folder")).map(\.name), ["x y"], "names")
        },
    ]

    // MARK: Checks

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(description: message()) }
    }

    static func equal<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws {
        if actual != expected { throw Failure(description: "\(what): got \(actual), expected \(expected)") }
    }

    /// Runs `body` and checks that it throws the file system's error: the code (when given) and errno.
    package static func expectFailure(_ code: CocoaError.Code?, _ errno: Int32, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CocoaError {
            if let code, error.code != code {
                throw Failure(description: "code \(error.code.rawValue), expected \(code.rawValue): \(error)")
            }
            if error.posixCode?.rawValue != errno {
                throw Failure(description: "errno \(String(describing: error.posixCode)), expected \(errno): \(error)")
            }
            return
        } catch {
            throw Failure(description: "threw \(error), not a CocoaError")
        }
        throw Failure(description: "did not throw")
    }
}
