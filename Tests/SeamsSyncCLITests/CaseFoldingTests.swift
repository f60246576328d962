import Foundation
import Seams
import SeamsTesting
import Testing

/// The fake's case-folding folders (`InMemoryFileSystem.createCaseFoldingDirectory(at:)`) behave
/// as a real exFAT volume does: each behaviour runs on the fake always, and on an exFAT volume
/// mounted here with the live accessors where one can be mounted.
@Suite struct CaseFoldingTests {
    /// Where a behaviour runs: a folder whose names fold case, and the accessors that reach it.
    struct Place {
        let root: URL
        private let fileAccessor: any FileAccessorProviding
        private let directoryAccessor: any DirectoryAccessorProviding
        /// Runs before each call on the place (an exFAT volume waits until no new process holds
        /// a copy of a closed file's descriptor: ``ExFATVolume/settle()``).
        private let settle: @Sendable () -> Void

        init(
            root: URL, files: any FileAccessorProviding, directories: any DirectoryAccessorProviding,
            settle: @escaping @Sendable () -> Void = {}
        ) {
            (self.root, fileAccessor, directoryAccessor, self.settle) = (root, files, directories, settle)
        }

        var files: any FileAccessorProviding {
            settle()
            return fileAccessor
        }
        var directories: any DirectoryAccessorProviding {
            settle()
            return directoryAccessor
        }

        func url(_ path: String) -> URL { root.appending(path: path) }
        func write(_ text: String, _ path: String) throws { try files.write(Data(text.utf8), to: url(path)) }
        func read(_ path: String) throws -> String { String(decoding: try files.read(from: url(path)), as: UTF8.self) }
        func names(_ path: String = "") throws -> [String] {
            try directories.contentsOfDirectory(at: path.isEmpty ? root : url(path)).map(\.name).sorted()
        }
    }

    /// Expects `body` to throw a `CocoaError` with `code` (whatever path it names).
    static func expectCode(
        _ code: CocoaError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        #expect(sourceLocation: sourceLocation) {
            try body()
        } throws: { error in
            (error as? CocoaError)?.code == code
        }
    }

    struct Behaviour: Sendable, CustomTestStringConvertible {
        let name: String
        let check: @Sendable (Place) throws -> Void
        var testDescription: String { name }
    }

    static let behaviours: [Behaviour] = [
        Behaviour(
            name:
                "another case of a name reaches the file; a whole-file write through it (a rename over it) leaves the new case"
        ) { place in
            try place.write("one", "a.txt")
            #expect(try place.read("A.TXT") == "one")
            #expect(place.files.fileExists(at: place.url("A.txt")))
            #expect(try place.directories.metadata(at: place.url("A.TXT")).size == 3)
            try place.write("two", "A.txt")
            #expect(try place.names() == ["A.txt"])
            #expect(try place.read("a.txt") == "two")
        },
        Behaviour(name: "a new name keeps the case it was given; a folder is reached by any case") { place in
            try place.directories.createDirectory(at: place.url("Docs"), withIntermediateDirectories: false)
            try place.write("inner", "DOCS/Inner.txt")
            #expect(try place.names() == ["Docs"])
            #expect(try place.names("docs") == ["Inner.txt"])
            #expect(try place.read("docs/inner.TXT") == "inner")
            try place.directories.createDirectory(at: place.url("docs/Sub/Deeper"), withIntermediateDirectories: true)
            #expect(try place.names("Docs") == ["Inner.txt", "Sub"])
        },
        Behaviour(name: "making a folder or an exclusive file under another case of a taken name fails with EEXIST") {
            place in
            try place.directories.createDirectory(at: place.url("Dir"), withIntermediateDirectories: false)
            Self.expectCode(.fileWriteFileExists) {
                try place.directories.createDirectory(at: place.url("dir"), withIntermediateDirectories: false)
            }
            try place.write("x", "x.txt")
            Self.expectCode(.fileWriteFileExists) {
                try place.files.createFile(Data("X".utf8), at: place.url("X.TXT"))
            }
            Self.expectCode(.fileWriteFileExists) {
                try place.directories.copyItem(at: place.url("Dir"), to: place.url("X.txt"))
            }
            #expect(try place.names() == ["Dir", "x.txt"])
        },
        Behaviour(name: "a move onto another case of a different item replaces it; a removal by another case removes") {
            place in
            try place.write("first", "first.txt")
            try place.write("second", "second.txt")
            try place.directories.moveItem(
                at: place.url("second.txt"), to: place.url("FIRST.txt"), replacingExisting: true)
            #expect(try place.names() == ["FIRST.txt"])
            #expect(try place.read("first.txt") == "second")
            try place.directories.removeItem(at: place.url("First.TXT"), recursively: false)
            #expect(try place.names() == [])
        },
        Behaviour(name: "a move to another case of an item's own name changes its case") { place in
            try place.write("content", "readme.md")
            try place.directories.moveItem(
                at: place.url("readme.md"), to: place.url("README.md"), replacingExisting: true)
            #expect(try place.names() == ["README.md"])
            #expect(try place.read("readme.MD") == "content")
        },
        Behaviour(name: "letters beyond ASCII fold too; Unicode forms stay apart") { place in
            try place.write("lower", "\u{E9}t\u{E9}.txt")  // été
            #expect(try place.read("\u{C9}T\u{C9}.TXT") == "lower")  // ÉTÉ
            try place.write("nfc", "caf\u{E9}")
            try place.write("nfd", "cafe\u{301}")
            #expect(try place.names().count == 3)
            #expect(try place.read("CAF\u{C9}") == "nfc")
        },
    ]

    @Test("on the fake", arguments: behaviours)
    func fake(_ behaviour: Behaviour) throws {
        let fake = InMemoryFileSystem(enforcesPermissions: false)
        let root = URL(filePath: "/stick", directoryHint: .isDirectory)
        try fake.createCaseFoldingDirectory(at: root)
        try behaviour.check(Place(root: root, files: fake, directories: fake))
    }

    @Test(
        "on a real exFAT volume",
        .enabled(
            if: ExFATVolume.available, "needs root, FUSE, a loop device, a writable /sys, exfatprogs and exfat-fuse"),
        arguments: behaviours)
    func exFAT(_ behaviour: Behaviour) throws {
        let base = FileManager.default.temporaryDirectory.appending(
            path: "seams-fold-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        // The volume goes (unmounted) before its folder does.
        try withExtendedLifetime(try ExFATVolume(in: base, label: "fold")) { stick in
            try behaviour.check(
                Place(root: stick.mountPoint, files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor()) {
                    stick.settle()
                })
        }
    }

    @Test("a folder of the fake that does not fold keeps names that differ in case apart")
    func plainFolderKeepsCase() throws {
        let fake = InMemoryFileSystem(enforcesPermissions: false)
        try fake.createDirectory(at: URL(filePath: "/plain"), withIntermediateDirectories: false)
        let place = Place(root: URL(filePath: "/plain"), files: fake, directories: fake)
        try place.write("lower", "a.txt")
        try place.write("upper", "A.txt")
        #expect(try place.names() == ["A.txt", "a.txt"])
        Self.expectCode(.fileReadNoSuchFile) { _ = try place.read("A.TXT") }
    }
}
