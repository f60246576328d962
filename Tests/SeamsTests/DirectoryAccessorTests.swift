import Foundation
import Seams
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live accessor on a fresh temporary folder; the full behaviour list runs in
/// `SeamsTestingTests/ConformanceTests`, these pin the error codes against Foundation itself.
@Suite struct DirectoryAccessorTests {
    let root: URL
    let accessor: any DirectoryAccessorProviding = .live

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appending(path: "seams-directory-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
    }

    private func expectSameError(
        _ ours: () throws -> Void, as foundation: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let mine = #expect(throws: CocoaError.self, sourceLocation: sourceLocation) { try ours() }
        let theirs = #expect(throws: CocoaError.self, sourceLocation: sourceLocation) { try foundation() }
        #expect(mine?.code == theirs?.code, sourceLocation: sourceLocation)
        #expect(mine?.posixCode == theirs?.posixCode, sourceLocation: sourceLocation)
    }

    @Test("a batch flush of more files than the open-file limit allows works (in a probe with the limit at 64)")
    func batchFlushUnderOpenFileLimit() throws {
        let outcome = try UnprivilegedProbe.run("flush-batch", root.path, "300", "64", unprivileged: false)
        #expect(outcome.line == "ok 300")
    }

    @Test("listing returns names with metadata, sorted")
    func listing() throws {
        try Data("abc".utf8).write(to: root.appending(path: "b"))
        try FileManager.default.createDirectory(at: root.appending(path: "a"), withIntermediateDirectories: false)
        let entries = try accessor.contentsOfDirectory(at: root)
        #expect(entries.map(\.name) == ["a", "b"])
        #expect(entries.map(\.metadata.kind) == [.directory, .file])
        #expect(entries[1].metadata.size == 3)
        #expect(try accessor.metadata(at: root.appending(path: "b")) == entries[1].metadata)
    }

    @Test("a listing is in the names' byte order: shared first eight bytes, prefixes, multi-byte and long names")
    func listingByteOrder() throws {
        var generator = SeededGenerator(seed: 7)
        let pieces = ["a", "A", "ab", "abcdefgh", "abcdefg", "é", "z", "~", "0", ".", "ü", "😀", "abcdefgh€"]
        var names = Set(["a", "abcdefgh", "abcdefghi", "abcdefgh0", "abcdefg", "abcdefgi", "é", "Z"])
        while names.count < 300 {
            let count = Int.random(in: 1...4, using: &generator)
            let name = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if name != "." && name != ".." { names.insert(name) }
        }
        for name in names { try Data().write(to: root.appending(path: name)) }
        let listed = try accessor.contentsOfDirectory(at: root).map(\.name)
        let byBytes = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(listed == byBytes)
    }

    @Test("a name that is not UTF-8 is listed as .other, with its size, not dropped")
    func nonUTF8Name() throws {
        // "bad\xff\xfe.txt": Linux names are bytes; Foundation cannot even spell this one.
        let bytes: [UInt8] = Array("bad".utf8) + [0xFF, 0xFE] + Array(".txt".utf8)
        let path = root.path + "/" + String(decoding: bytes, as: UTF8.self)
        var raw = Array(root.path.utf8) + [UInt8(ascii: "/")] + bytes + [0]
        let descriptor = raw.withUnsafeMutableBytes { buffer in
            open(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        try #require(descriptor >= 0)
        #expect(write(descriptor, "12345", 5) == 5)
        close(descriptor)
        try Data("ok".utf8).write(to: root.appending(path: "good.txt"))

        let entries = try accessor.contentsOfDirectory(at: root)
        #expect(entries.map(\.name) == ["bad\u{FFFD}\u{FFFD}.txt", "good.txt"])
        #expect(entries.map(\.metadata.kind) == [.other, .file])
        #expect(entries[0].metadata.size == 5)
        // The repaired string names nothing: no one can open another item through it.
        #expect(!FileManager.default.fileExists(atPath: path))
        raw.withUnsafeMutableBytes { buffer in _ = unlink(buffer.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    @Test("listing errors match FileManager's")
    func listingErrors() throws {
        let file = root.appending(path: "f")
        try Data().write(to: file)
        expectSameError({ _ = try accessor.contentsOfDirectory(at: root.appending(path: "missing")) }) {
            _ = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "missing").path)
        }
        expectSameError({ _ = try accessor.contentsOfDirectory(at: file) }) {
            _ = try FileManager.default.contentsOfDirectory(atPath: file.path)
        }
    }

    @Test("createDirectory errors match FileManager's")
    func createErrors() throws {
        let file = root.appending(path: "f")
        try Data().write(to: file)
        for (url, intermediates) in [
            (root, false), (root.appending(path: "x/y"), false), (file.appending(path: "z"), false), (file, true),
        ] {
            expectSameError({ try accessor.createDirectory(at: url, withIntermediateDirectories: intermediates) }) {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: intermediates)
            }
        }
    }

    @Test("move, copy and remove errors match FileManager's")
    func mutationErrors() throws {
        let a = root.appending(path: "a")
        let b = root.appending(path: "b")
        try Data("a".utf8).write(to: a)
        try Data("b".utf8).write(to: b)
        expectSameError({ try accessor.moveItem(at: a, to: b, replacingExisting: false) }) {
            try FileManager.default.moveItem(at: a, to: b)
        }
        expectSameError({ try accessor.copyItem(at: a, to: b) }) { try FileManager.default.copyItem(at: a, to: b) }
        let missing = root.appending(path: "missing")
        expectSameError({ try accessor.removeItem(at: missing, recursively: true) }) {
            try FileManager.default.removeItem(at: missing)
        }
        expectSameError({ try accessor.copyItem(at: missing, to: root.appending(path: "c")) }) {
            try FileManager.default.copyItem(at: missing, to: root.appending(path: "c"))
        }
        expectSameError({ try accessor.moveItem(at: missing, to: root.appending(path: "c"), replacingExisting: true) })
        {
            try FileManager.default.moveItem(at: missing, to: root.appending(path: "c"))
        }
    }

    @Test("symbolic links: the target is read verbatim, and errors match FileManager's")
    func symbolicLinks() throws {
        let live = DefaultDirectoryAccessor()
        let file = root.appending(path: "file")
        try Data("f".utf8).write(to: file)
        let link = root.appending(path: "link")
        try live.createSymbolicLink(at: link, withDestination: "../nowhere/else")
        #expect(try live.destinationOfSymbolicLink(at: link) == "../nowhere/else")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "../nowhere/else")
        #expect(try live.metadata(at: link).kind == .symbolicLink)

        expectSameError({ try live.createSymbolicLink(at: file, withDestination: "x") }) {
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "x")
        }
        let orphan = root.appending(path: "missing/link")
        expectSameError({ try live.createSymbolicLink(at: orphan, withDestination: "x") }) {
            try FileManager.default.createSymbolicLink(atPath: orphan.path, withDestinationPath: "x")
        }
        expectSameError({ _ = try live.destinationOfSymbolicLink(at: file) }) {
            _ = try FileManager.default.destinationOfSymbolicLink(atPath: file.path)
        }
        let missing = root.appending(path: "missing")
        expectSameError({ _ = try live.destinationOfSymbolicLink(at: missing) }) {
            _ = try FileManager.default.destinationOfSymbolicLink(atPath: missing.path)
        }
    }

    @Test("rename, hard link, copy and remove of a link to an outside folder never follow it")
    func linksAreNeverFollowed() throws {
        let live = DefaultDirectoryAccessor()
        let outside = root.appending(path: "outside", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: outside.appending(path: "precious"))
        let link = root.appending(path: "link")
        try live.createSymbolicLink(at: link, withDestination: outside.path)

        let renamed = root.appending(path: "renamed")
        try live.moveItem(at: link, to: renamed, replacingExisting: false)
        #expect(try live.metadata(at: renamed).kind == .symbolicLink)
        let second = root.appending(path: "second")
        try live.linkItem(at: renamed, to: second)
        #expect(try live.metadata(at: second).kind == .symbolicLink)
        #expect(try live.destinationOfSymbolicLink(at: second) == outside.path)
        let copy = root.appending(path: "copy")
        try live.copyItem(at: second, to: copy)
        #expect(try live.destinationOfSymbolicLink(at: copy) == outside.path)

        for name in [renamed, second, copy] {
            try live.removeItem(at: name, recursively: true)
            #expect(throws: CocoaError.self) { try live.metadata(at: name) }
        }
        #expect(try Data(contentsOf: outside.appending(path: "precious")) == Data("keep".utf8))
        #expect(try live.metadata(at: outside).kind == .directory)
    }

    @Test("copy keeps bytes, permissions and a nanosecond modification date")
    func copyKeepsMetadata() throws {
        let a = root.appending(path: "a")
        try Data(repeating: 7, count: 100_000).write(to: a)
        try accessor.setPermissions(0o640, at: a)
        let date = Date(timeIntervalSince1970: 1_700_000_000.123456789)
        try accessor.setModificationDate(date, at: a)
        try accessor.copyItem(at: a, to: root.appending(path: "b"))
        let original = try accessor.metadata(at: a)
        let copy = try accessor.metadata(at: root.appending(path: "b"))
        #expect(copy.permissions == 0o640)
        #expect(copy.modificationDate == original.modificationDate)
        #expect(copy.modificationDate.timeIntervalSince1970 != 1_700_000_000)
        #expect(copy.fileIdentifier != original.fileIdentifier)
        #expect(try Data(contentsOf: root.appending(path: "b")) == Data(repeating: 7, count: 100_000))
    }

    @Test("refusing move keeps both files; replacing move replaces")
    func moves() throws {
        let a = root.appending(path: "a")
        let b = root.appending(path: "b")
        try Data("a".utf8).write(to: a)
        try Data("b".utf8).write(to: b)
        #expect(throws: CocoaError.self) { try accessor.moveItem(at: a, to: b, replacingExisting: false) }
        #expect(try Data(contentsOf: b) == Data("b".utf8))
        try accessor.moveItem(at: a, to: b, replacingExisting: true)
        #expect(try Data(contentsOf: b) == Data("a".utf8))
        #expect(!FileManager.default.fileExists(atPath: a.path))
    }
}
