import Foundation
import Seams

/// The conformance suite of `FileAccessorProviding`: whole-file reads and atomic writes as
/// `Data(contentsOf:)` and `Data.write(to:options: .atomic)` do them on Linux, with their errors.
///
/// ```swift
/// @Test(arguments: FileAccessorConformance.behaviours)
/// func conforms(_ behaviour: ConformanceBehaviour) throws {
///     try behaviour.run(on: .inMemory())
/// }
/// ```
public enum FileAccessorConformance {
    /// Every behaviour of the suite.
    public static var behaviours: [ConformanceBehaviour] { all }

    static func behaviour(
        _ name: String, platformNote: String? = nil, _ body: @escaping @Sendable (ConformanceSubject) throws -> Void
    ) -> ConformanceBehaviour {
        ConformanceBehaviour(suite: "FileAccessor", name, platformNote: platformNote, body)
    }

    static let all: [ConformanceBehaviour] =
        [
            behaviour("what is written is read back") { s in
                try s.makeFile("f", "hello")
                try Check.equal(try s.text("f"), "hello", "content")
            },
            behaviour("every byte value survives") { s in
                let bytes = Data((0...255).map { UInt8($0) } + [0, 0, 255])
                try s.files.write(bytes, to: s.url("bin"))
                try Check.equal(try s.files.read(from: s.url("bin")), bytes, "bytes")
            },
            behaviour("a second write replaces the content, shorter included") { s in
                try s.makeFile("f", "a long first version")
                try s.makeFile("f", "short")
                try Check.equal(try s.text("f"), "short", "content")
                try Check.equal(try s.directories.metadata(at: s.url("f")).size, 5, "size")
            },
            behaviour("an empty file is written and read") { s in
                try s.makeFile("f")
                try Check.equal(try s.files.read(from: s.url("f")), Data(), "content")
            },
            behaviour("a 1 MiB file round-trips") { s in
                let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                try s.files.write(big, to: s.url("big"))
                try Check.that(try s.files.read(from: s.url("big")) == big, "content differs")
            },
            behaviour("names with spaces and non-ASCII letters work") { s in
                try s.makeFile("a b ü 日本.txt", "x")
                try Check.equal(try s.names(), ["a b ü 日本.txt"], "names")
                try Check.equal(try s.text("a b ü 日本.txt"), "x", "content")
            },
            behaviour("reading a missing file throws 260 ENOENT") { s in
                try Check.fails(.fileReadNoSuchFile, ENOENT, "read") { _ = try s.files.read(from: s.url("nope")) }
            },
            behaviour("reading a folder throws 256 EISDIR") { s in
                try s.makeFolder("d")
                try Check.fails(.fileReadUnknown, EISDIR, "read") { _ = try s.files.read(from: s.url("d")) }
            },
            behaviour("reading through a file throws 256 ENOTDIR") { s in
                try s.makeFile("f")
                try Check.fails(.fileReadUnknown, ENOTDIR, "read") { _ = try s.files.read(from: s.url("f/x")) }
            },
            behaviour("trap: writing into a missing folder throws 4 ENOENT and creates no folder") { s in
                try Check.fails(.fileNoSuchFile, ENOENT, "write") { try s.files.write(Data(), to: s.url("missing/f")) }
                try Check.that(!s.files.fileExists(at: s.url("missing")), "the folder was created")
            },
            behaviour("writing onto a folder throws 512 EISDIR and keeps it") { s in
                try s.makeFolder("d")
                try s.makeFile("d/f", "x")
                try Check.fails(.fileWriteUnknown, EISDIR, "write") { try s.files.write(Data(), to: s.url("d")) }
                try Check.equal(try s.text("d/f"), "x", "content")
            },
            behaviour(
                "writing through a file throws 4 ENOENT",
                platformNote: "Foundation reports a parent that is a file as ENOENT, not ENOTDIR."
            ) { s in
                try s.makeFile("f")
                try Check.fails(.fileNoSuchFile, ENOENT, "write") { try s.files.write(Data(), to: s.url("f/x")) }
            },
            behaviour("a write replaces atomically: a new identity, no temporary left behind") { s in
                let before = try s.directories.metadata(at: try s.makeFile("f", "1")).fileIdentifier
                try s.makeFile("f", "2")
                try Check.that(try s.directories.metadata(at: s.url("f")).fileIdentifier != before, "same inode")
                try Check.equal(try s.names(), ["f"], "names")
            },
            behaviour("an atomic write gives the new file the default mode, not the old one") { s in
                let url = try s.makeFile("f", "1")
                try s.directories.setPermissions(0o600, at: url)
                try s.makeFile("f", "2")
                try Check.equal(try s.directories.metadata(at: url).permissions, s.newFilePermissions, "mode")
            },
            behaviour("fileExists is true for a file") { s in
                try Check.that(s.files.fileExists(at: try s.makeFile("f")), "false for a file")
            },
            behaviour("fileExists is true for a folder") { s in
                try Check.that(s.files.fileExists(at: try s.makeFolder("d")), "false for a folder")
            },
            behaviour("fileExists is false for a missing path") { s in
                try Check.that(!s.files.fileExists(at: s.url("nope")), "true for a missing path")
            },
            behaviour("fileExists is false through a file") { s in
                try s.makeFile("f")
                try Check.that(!s.files.fileExists(at: s.url("f/x")), "true through a file")
            },
            behaviour("fileExists is case-sensitive") { s in
                try s.makeFile("name")
                try Check.that(!s.files.fileExists(at: s.url("NAME")), "true for another case")
            },
            behaviour("a write into a nested folder lands there only") { s in
                try s.makeFolder("d")
                try s.makeFile("d/f", "x")
                try Check.equal(try s.names(), ["d"], "root")
                try Check.equal(try s.names("d"), ["f"], "d")
            },
        ] + exclusive + pieces + comparing

    /// ``FileAccessorProviding/createFile(_:at:)``: a new file, never over anything.
    static let exclusive: [ConformanceBehaviour] = [
        behaviour("createFile makes a new file with the content") { s in
            try s.files.createFile(Data("lock".utf8), at: s.url("new"))
            try Check.equal(try s.text("new"), "lock", "content")
        },
        behaviour("createFile onto an existing file throws 516 EEXIST and leaves it as it was") { s in
            try s.makeFile("f", "mine")
            try Check.fails(.fileWriteFileExists, EEXIST, "create") {
                try s.files.createFile(Data("x".utf8), at: s.url("f"))
            }
            try Check.equal(try s.text("f"), "mine", "content")
        },
        behaviour("createFile onto a folder throws 516 EEXIST") { s in
            try s.makeFolder("d")
            try Check.fails(.fileWriteFileExists, EEXIST, "create") { try s.files.createFile(Data(), at: s.url("d")) }
        },
        behaviour("createFile into a missing folder throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "create") { try s.files.createFile(Data(), at: s.url("no/f")) }
        },
    ]

    /// What a piece producer throws in the behaviours of ``pieces``.
    struct PieceFailure: Error, Equatable {}

    /// ``FileAccessorProviding/createFile(at:pieces:)``: a new file made piece by piece, whole or not at all.
    static let pieces: [ConformanceBehaviour] = [
        behaviour("createFile(at:pieces:) writes every piece in order, an empty piece included") { s in
            var queue = ["one ", "", "two ", "three"].map { Data($0.utf8) }
            try s.files.createFile(at: s.url("new")) { queue.isEmpty ? nil : queue.removeFirst() }
            try Check.equal(try s.text("new"), "one two three", "content")
        },
        behaviour("createFile(at:pieces:) with no piece makes an empty file") { s in
            try s.files.createFile(at: s.url("empty")) { nil }
            try Check.equal(try s.files.read(from: s.url("empty")), Data(), "content")
            try Check.equal(try s.names(), ["empty"], "root")
        },
        behaviour("createFile(at:pieces:) onto an existing file throws 516 EEXIST before asking for a piece") { s in
            try s.makeFile("f", "mine")
            var asked = 0
            try Check.fails(.fileWriteFileExists, EEXIST, "create") {
                try s.files.createFile(at: s.url("f")) {
                    asked += 1
                    return nil
                }
            }
            try Check.equal(asked, 0, "pieces asked for")
            try Check.equal(try s.text("f"), "mine", "content")
        },
        behaviour("createFile(at:pieces:) whose piece fails rethrows that error and leaves no file") { s in
            var given = 0
            do {
                try s.files.createFile(at: s.url("half")) {
                    given += 1
                    if given == 3 { throw PieceFailure() }
                    return Data("piece".utf8)
                }
                throw ConformanceFailure("a failing piece did not fail the create")
            } catch is PieceFailure {}
            try Check.equal(given, 3, "pieces asked for")
            try Check.equal(try s.names(), [], "root")
        },
        behaviour("createFile(at:pieces:) into a missing folder throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "create") { try s.files.createFile(at: s.url("no/f")) { nil } }
        },
    ]

    /// ``FileAccessorProviding/contentsEqual(_:_:)``: the same answer as comparing what is read.
    static let comparing: [ConformanceBehaviour] = [
        behaviour("contentsEqual: same bytes are equal; another byte or another length is not") { s in
            try s.makeFile("a", "same bytes")
            try s.makeFile("b", "same bytes")
            try s.makeFile("c", "same bytez")
            try s.makeFile("d", "same bytes!")
            try Check.that(try s.files.contentsEqual(s.url("a"), s.url("b")), "equal files differ")
            try Check.that(try !s.files.contentsEqual(s.url("a"), s.url("c")), "a changed byte is equal")
            try Check.that(try !s.files.contentsEqual(s.url("a"), s.url("d")), "a longer file is equal")
        },
        behaviour("contentsEqual with a missing file throws 260 ENOENT") { s in
            try s.makeFile("a")
            try Check.fails(.fileReadNoSuchFile, ENOENT, "compare") {
                _ = try s.files.contentsEqual(s.url("a"), s.url("nope"))
            }
        },
    ]
}
