import Foundation
import Seams

extension DirectoryAccessorConformance {
    static let creation: [ConformanceBehaviour] = [
        behaviour("a created folder lists as a folder") { s in
            try s.directories.createDirectory(at: s.url("d"), withIntermediateDirectories: false)
            try Check.equal(try s.directories.metadata(at: s.url("d")).kind, .directory, "kind")
            try Check.equal(try s.names("d"), [], "contents")
        },
        behaviour("creating an existing folder without intermediates throws 516 EEXIST") { s in
            try s.makeFolder("d")
            try Check.fails(.fileWriteFileExists, EEXIST, "create") {
                try s.directories.createDirectory(at: s.url("d"), withIntermediateDirectories: false)
            }
        },
        behaviour("creating a folder where a file is throws 516 EEXIST") { s in
            try s.makeFile("f", "kept")
            try Check.fails(.fileWriteFileExists, EEXIST, "create") {
                try s.directories.createDirectory(at: s.url("f"), withIntermediateDirectories: false)
            }
            try Check.equal(try s.text("f"), "kept", "file")
        },
        behaviour("trap: a missing parent is not created implicitly (4 ENOENT)") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "create") {
                try s.directories.createDirectory(at: s.url("a/b"), withIntermediateDirectories: false)
            }
            try Check.that(!s.files.fileExists(at: s.url("a")), "parent was created")
        },
        behaviour("creating a folder through a file throws 512 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "create") {
                try s.directories.createDirectory(at: s.url("f/d"), withIntermediateDirectories: false)
            }
        },
        behaviour("with intermediates, every missing parent is created") { s in
            try s.directories.createDirectory(at: s.url("a/b/c"), withIntermediateDirectories: true)
            try Check.equal(try s.names("a"), ["b"], "a")
            try Check.equal(try s.names("a/b"), ["c"], "a/b")
            try Check.equal(
                try s.directories.metadata(at: s.url("a/b")).permissions, s.newFolderPermissions, "parent mode")
        },
        behaviour("with intermediates, an existing folder is fine and keeps its items") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "x")
            try s.directories.createDirectory(at: s.url("d"), withIntermediateDirectories: true)
            try Check.equal(try s.names("d"), ["f"], "items")
        },
        behaviour("with intermediates, a file at the path throws 516 EEXIST") { s in
            try s.makeFile("f")
            try Check.fails(.fileWriteFileExists, EEXIST, "create") {
                try s.directories.createDirectory(at: s.url("f"), withIntermediateDirectories: true)
            }
        },
        behaviour("with intermediates, a file on the way throws 512 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "create") {
                try s.directories.createDirectory(at: s.url("f/a/b"), withIntermediateDirectories: true)
            }
        },
    ]

    static let removal: [ConformanceBehaviour] = [
        behaviour("removing a file removes its name only") { s in
            try s.makeFile("f")
            try s.makeFile("g")
            try s.directories.removeItem(at: s.url("f"), recursively: false)
            try Check.equal(try s.names(), ["g"], "names")
            try Check.that(!s.files.fileExists(at: s.url("f")), "f exists")
        },
        behaviour("an empty folder is removed without recursion") { s in
            try s.makeFolder("d")
            try s.directories.removeItem(at: s.url("d"), recursively: false)
            try Check.equal(try s.names(), [], "names")
        },
        behaviour("trap: a non-empty folder is refused without recursion (512 ENOTEMPTY)") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "kept")
            try Check.fails(.fileWriteUnknown, ENOTEMPTY, "remove") {
                try s.directories.removeItem(at: s.url("d"), recursively: false)
            }
            try Check.equal(try s.text("d/f"), "kept", "content")
        },
        behaviour("a non-empty folder is removed with everything when recursive") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try s.makeFile("d/e/f")
            try s.makeFile("d/g")
            try s.directories.removeItem(at: s.url("d"), recursively: true)
            try Check.equal(try s.names(), [], "names")
        },
        behaviour("a file is removed the same with recursion") { s in
            try s.makeFile("f")
            try s.directories.removeItem(at: s.url("f"), recursively: true)
            try Check.equal(try s.names(), [], "names")
        },
        behaviour("removing a missing item throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "remove") {
                try s.directories.removeItem(at: s.url("nope"), recursively: true)
            }
        },
        behaviour("removing through a file throws 512 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "remove") {
                try s.directories.removeItem(at: s.url("f/x"), recursively: false)
            }
        },
        behaviour("removing one name of a linked file keeps the other") { s in
            try s.makeFile("a", "shared")
            try s.directories.linkItem(at: s.url("a"), to: s.url("b"))
            try s.directories.removeItem(at: s.url("a"), recursively: false)
            try Check.equal(try s.text("b"), "shared", "content")
            try Check.equal(try s.directories.metadata(at: s.url("b")).linkCount, 1, "links")
        },
        behaviour("a removed name can be made again as a new item") { s in
            try s.makeFile("f", "1")
            try s.directories.removeItem(at: s.url("f"), recursively: false)
            try Check.that(!s.files.fileExists(at: s.url("f")), "f still exists")
            try s.makeFile("f", "2")
            try Check.equal(try s.text("f"), "2", "content")
        },
    ]
}
