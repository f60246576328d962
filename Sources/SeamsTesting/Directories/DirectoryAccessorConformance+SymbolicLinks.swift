import Foundation
import Seams

extension DirectoryAccessorConformance {
    /// Symbolic links: stored verbatim, described and not followed by the calls that work on
    /// names, followed by the calls that work on content and by every path that goes through one.
    static let symbolicLinks: [ConformanceBehaviour] = [
        behaviour("a link keeps its target text verbatim, relative or absolute, existing or not") { s in
            let absolute = s.url("nowhere/file").path
            try s.directories.createSymbolicLink(at: s.url("relative"), withDestination: "../x/./y")
            try s.directories.createSymbolicLink(at: s.url("absolute"), withDestination: absolute)
            try Check.equal(try s.directories.destinationOfSymbolicLink(at: s.url("relative")), "../x/./y", "relative")
            try Check.equal(try s.directories.destinationOfSymbolicLink(at: s.url("absolute")), absolute, "absolute")
        },
        behaviour("metadata describes the link itself: its kind, and the target text's length as size") { s in
            try s.makeFile("target", "twelve bytes")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "target")
            let link = try s.directories.metadata(at: s.url("link"))
            try Check.equal(link.kind, .symbolicLink, "kind")
            try Check.equal(link.size, 6, "size")
            try Check.that(
                link.fileIdentifier != (try s.directories.metadata(at: s.url("target"))).fileIdentifier,
                "a link is its own item")
        },
        behaviour("a dangling link is listed and described, and fileExists says false for it") { s in
            try s.directories.createSymbolicLink(at: s.url("dangling"), withDestination: "missing")
            try Check.equal(try s.names(), ["dangling"], "names")
            try Check.equal(
                try s.directories.contentsOfDirectory(at: s.root).map(\.metadata.kind), [.symbolicLink], "kind")
            try Check.that(!s.files.fileExists(at: s.url("dangling")), "fileExists follows the link to nothing")
        },
        behaviour("a link to a folder is listed as a link, not as a folder") { s in
            try s.makeFolder("folder")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "folder")
            let kinds = try s.directories.contentsOfDirectory(at: s.root).map { "\($0.name):\($0.metadata.kind)" }
            try Check.equal(kinds, ["folder:directory", "link:symbolicLink"], "entries")
        },
        behaviour("reading a link reads its target's content") { s in
            try s.makeFile("target", "content")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "target")
            try Check.equal(try s.text("link"), "content", "read")
        },
        behaviour("a path through a link to a folder reaches the folder's items") { s in
            try s.makeFolder("folder")
            let id = try s.directories.metadata(at: try s.makeFile("folder/f", "x")).fileIdentifier
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "folder")
            try Check.equal(try s.names("link"), ["f"], "listing through the link")
            try Check.equal(try s.directories.metadata(at: s.url("link/f")).fileIdentifier, id, "identity")
        },
        behaviour("`..` after a link leaves the folder the link reached, not the link's folder") { s in
            try s.makeFolder("a")
            try s.makeFolder("a/deep")
            try s.makeFile("a/marker", "a")
            try s.makeFolder("b")
            try s.directories.createSymbolicLink(at: s.url("b/link"), withDestination: "../a/deep")
            try Check.equal(try s.text("b/link/../marker"), "a", "through ..")
        },
        behaviour("a folder made through a link lands in the link's target") { s in
            try s.makeFolder("folder")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: s.url("folder").path)
            try s.directories.createDirectory(at: s.url("link/new"), withIntermediateDirectories: false)
            try Check.equal(try s.names("folder"), ["new"], "target's names")
        },
        behaviour("a path through a dangling link throws 260 ENOENT") { s in
            try s.directories.createSymbolicLink(at: s.url("dangling"), withDestination: "missing")
            try Check.fails(.fileReadNoSuchFile, ENOENT, "metadata") {
                _ = try s.directories.metadata(at: s.url("dangling/x"))
            }
        },
        behaviour("a loop of links throws 256 ELOOP") { s in
            try s.directories.createSymbolicLink(at: s.url("a"), withDestination: "b")
            try s.directories.createSymbolicLink(at: s.url("b"), withDestination: "a")
            try Check.fails(.fileReadUnknown, ELOOP, "metadata") {
                _ = try s.directories.metadata(at: s.url("a/x"))
            }
        },
        behaviour("removing a link removes the link; its target stays") { s in
            try s.makeFolder("folder")
            try s.makeFile("folder/f", "kept")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "folder")
            try s.directories.removeItem(at: s.url("link"), recursively: true)
            try Check.equal(try s.names(), ["folder"], "names")
            try Check.equal(try s.text("folder/f"), "kept", "target")
        },
        behaviour("a recursive removal removes a link inside, never what it points to") { s in
            try s.makeFolder("outside")
            try s.makeFile("outside/f", "kept")
            try s.makeFolder("tree")
            try s.directories.createSymbolicLink(at: s.url("tree/link"), withDestination: "../outside")
            try s.directories.removeItem(at: s.url("tree"), recursively: true)
            try Check.equal(try s.names(), ["outside"], "names")
            try Check.equal(try s.text("outside/f"), "kept", "outside")
        },
        behaviour("moving a link renames the link; the target text and the target stay") { s in
            try s.makeFile("target", "x")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "target")
            try s.directories.moveItem(at: s.url("link"), to: s.url("moved"), replacingExisting: false)
            try Check.equal(try s.names(), ["moved", "target"], "names")
            try Check.equal(try s.directories.destinationOfSymbolicLink(at: s.url("moved")), "target", "target text")
        },
        behaviour("a replacing move of a file onto a link replaces the link, not its target") { s in
            try s.makeFile("target", "old")
            try s.makeFile("new", "new")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "target")
            try s.directories.moveItem(at: s.url("new"), to: s.url("link"), replacingExisting: true)
            try Check.equal(try s.directories.metadata(at: s.url("link")).kind, .file, "kind")
            try Check.equal(try s.text("target"), "old", "target")
        },
        behaviour("a copy of a link is a link with the same target text, at the top and inside a folder") { s in
            try s.makeFolder("tree")
            try s.makeFile("target", "x")
            try s.directories.createSymbolicLink(at: s.url("tree/link"), withDestination: "../target")
            try s.directories.createSymbolicLink(at: s.url("top"), withDestination: "target")
            try s.directories.copyItem(at: s.url("top"), to: s.url("topCopy"))
            try s.directories.copyItem(at: s.url("tree"), to: s.url("treeCopy"))
            try Check.equal(try s.directories.metadata(at: s.url("topCopy")).kind, .symbolicLink, "top kind")
            try Check.equal(try s.directories.destinationOfSymbolicLink(at: s.url("topCopy")), "target", "top target")
            try Check.equal(
                try s.directories.destinationOfSymbolicLink(at: s.url("treeCopy/link")), "../target", "inner")
        },
        behaviour("a hard link of a symbolic link names the link itself") { s in
            try s.makeFile("target", "x")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "target")
            try s.directories.linkItem(at: s.url("link"), to: s.url("second"))
            let second = try s.directories.metadata(at: s.url("second"))
            try Check.equal(second.kind, .symbolicLink, "kind")
            try Check.equal(second.linkCount, 2, "link count")
            try Check.equal(try s.directories.metadata(at: s.url("target")).linkCount, 1, "target's count")
        },
        behaviour("setting a link's date changes the link, not its target") { s in
            try s.makeFile("target", "x")
            try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "target")
            let before = try s.directories.metadata(at: s.url("target")).modificationDate
            let date = Date(timeIntervalSince1970: 1_500_000_000)
            try s.directories.setModificationDate(date, at: s.url("link"))
            try Check.equal(try s.directories.metadata(at: s.url("link")).modificationDate, date, "link")
            try Check.equal(try s.directories.metadata(at: s.url("target")).modificationDate, before, "target")
        },
        behaviour("reading the target of a file throws 256 EINVAL") { s in
            try s.makeFile("file")
            try Check.fails(.fileReadUnknown, EINVAL, "readlink") {
                _ = try s.directories.destinationOfSymbolicLink(at: s.url("file"))
            }
        },
        behaviour("reading the target of a missing item throws 260 ENOENT") { s in
            try Check.fails(.fileReadNoSuchFile, ENOENT, "readlink") {
                _ = try s.directories.destinationOfSymbolicLink(at: s.url("missing"))
            }
        },
        behaviour("making a link where a name exists throws 516 EEXIST, even over a dangling link") { s in
            try s.makeFile("file", "x")
            try s.directories.createSymbolicLink(at: s.url("dangling"), withDestination: "missing")
            for name in ["file", "dangling"] {
                try Check.fails(.fileWriteFileExists, EEXIST, name) {
                    try s.directories.createSymbolicLink(at: s.url(name), withDestination: "elsewhere")
                }
            }
            try Check.equal(try s.text("file"), "x", "file")
        },
        behaviour("making a link in a missing folder throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "symlink") {
                try s.directories.createSymbolicLink(at: s.url("missing/link"), withDestination: "x")
            }
        },
        behaviour("making a link with an empty target throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "symlink") {
                try s.directories.createSymbolicLink(at: s.url("link"), withDestination: "")
            }
            try Check.equal(try s.names(), [], "names")
        },
    ]
}
