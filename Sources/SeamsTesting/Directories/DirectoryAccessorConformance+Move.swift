import Foundation
import Seams

extension DirectoryAccessorConformance {
    static let moves: [ConformanceBehaviour] = [
        behaviour("a rename moves the name and keeps content and identity") { s in
            let id = try s.directories.metadata(at: try s.makeFile("a", "x")).fileIdentifier
            try s.directories.moveItem(at: s.url("a"), to: s.url("b"), replacingExisting: false)
            try Check.equal(try s.names(), ["b"], "names")
            try Check.equal(try s.text("b"), "x", "content")
            try Check.equal(try s.directories.metadata(at: s.url("b")).fileIdentifier, id, "identity")
        },
        behaviour("a move between folders") { s in
            try s.makeFolder("from")
            try s.makeFolder("to")
            try s.makeFile("from/f", "x")
            try s.directories.moveItem(at: s.url("from/f"), to: s.url("to/f"), replacingExisting: true)
            try Check.equal(try s.names("from"), [], "from")
            try Check.equal(try s.text("to/f"), "x", "to/f")
        },
        behaviour("trap: a refusing move onto a file throws 516 EEXIST and keeps both") { s in
            try s.makeFile("a", "a")
            try s.makeFile("b", "b")
            try Check.fails(.fileWriteFileExists, EEXIST, "move") {
                try s.directories.moveItem(at: s.url("a"), to: s.url("b"), replacingExisting: false)
            }
            try Check.equal(try s.text("a"), "a", "a")
            try Check.equal(try s.text("b"), "b", "b")
        },
        behaviour("a refusing move onto a folder throws 516 EEXIST") { s in
            try s.makeFile("a")
            try s.makeFolder("d")
            try Check.fails(.fileWriteFileExists, EEXIST, "move") {
                try s.directories.moveItem(at: s.url("a"), to: s.url("d"), replacingExisting: false)
            }
        },
        behaviour("a replacing move swaps the file in atomically") { s in
            try s.makeFile("new", "new")
            try s.makeFile("old", "old")
            let id = try s.directories.metadata(at: s.url("new")).fileIdentifier
            try s.directories.moveItem(at: s.url("new"), to: s.url("old"), replacingExisting: true)
            try Check.equal(try s.names(), ["old"], "names")
            try Check.equal(try s.text("old"), "new", "content")
            try Check.equal(try s.directories.metadata(at: s.url("old")).fileIdentifier, id, "identity")
        },
        behaviour("moving a missing item throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "move") {
                try s.directories.moveItem(at: s.url("nope"), to: s.url("b"), replacingExisting: true)
            }
        },
        behaviour("moving into a missing folder throws 4 ENOENT and keeps the source") { s in
            try s.makeFile("a", "a")
            try Check.fails(.fileNoSuchFile, ENOENT, "move") {
                try s.directories.moveItem(at: s.url("a"), to: s.url("missing/a"), replacingExisting: false)
            }
            try Check.equal(try s.text("a"), "a", "source")
        },
        behaviour("replacing a folder with a file throws 512 EISDIR") { s in
            try s.makeFile("a")
            try s.makeFolder("d")
            try Check.fails(.fileWriteUnknown, EISDIR, "move") {
                try s.directories.moveItem(at: s.url("a"), to: s.url("d"), replacingExisting: true)
            }
        },
        behaviour("replacing a file with a folder throws 512 ENOTDIR") { s in
            try s.makeFile("a")
            try s.makeFolder("d")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "move") {
                try s.directories.moveItem(at: s.url("d"), to: s.url("a"), replacingExisting: true)
            }
        },
        behaviour("replacing a non-empty folder throws 512 ENOTEMPTY") { s in
            try s.makeFolder("d")
            try s.makeFolder("e")
            try s.makeFile("e/f", "kept")
            try Check.fails(.fileWriteUnknown, ENOTEMPTY, "move") {
                try s.directories.moveItem(at: s.url("d"), to: s.url("e"), replacingExisting: true)
            }
            try Check.equal(try s.text("e/f"), "kept", "content")
        },
        behaviour("a folder replaces an empty folder") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "x")
            try s.makeFolder("e")
            try s.directories.moveItem(at: s.url("d"), to: s.url("e"), replacingExisting: true)
            try Check.equal(try s.names(), ["e"], "names")
            try Check.equal(try s.text("e/f"), "x", "content")
        },
        behaviour("a folder cannot move into itself (512 EINVAL)") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try Check.fails(.fileWriteUnknown, EINVAL, "move") {
                try s.directories.moveItem(at: s.url("d"), to: s.url("d/e/d"), replacingExisting: false)
            }
        },
        behaviour("a moved folder carries its whole subtree") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try s.makeFile("d/e/f", "deep")
            try s.directories.moveItem(at: s.url("d"), to: s.url("m"), replacingExisting: false)
            try Check.equal(try s.text("m/e/f"), "deep", "content")
            try Check.that(!s.files.fileExists(at: s.url("d")), "old name exists")
        },
        behaviour("a replacing move of a file onto itself changes nothing") { s in
            try s.makeFile("a", "same")
            try s.directories.moveItem(at: s.url("a"), to: s.url("a"), replacingExisting: true)
            try Check.equal(try s.text("a"), "same", "content")
        },
        behaviour("a case-only rename changes the name") { s in
            try s.makeFile("readme", "x")
            try s.directories.moveItem(at: s.url("readme"), to: s.url("README"), replacingExisting: false)
            try Check.equal(try s.names(), ["README"], "names")
        },
        behaviour("a replacing move onto a hard link of the same file changes nothing") { s in
            try s.makeFile("a", "x")
            try s.directories.linkItem(at: s.url("a"), to: s.url("b"))
            try s.directories.moveItem(at: s.url("a"), to: s.url("b"), replacingExisting: true)
            try Check.equal(try s.names(), ["a", "b"], "names")
        },
        behaviour("a missing source moved through a file throws 512 ENOTDIR (parents are resolved first)") { s in
            try s.makeFile("f")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "move") {
                try s.directories.moveItem(at: s.url("missing"), to: s.url("f/x"), replacingExisting: false)
            }
        },
        behaviour("a folder moved onto a file inside itself throws 512 EINVAL") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f")
            try Check.fails(.fileWriteUnknown, EINVAL, "move") {
                try s.directories.moveItem(at: s.url("d"), to: s.url("d/f"), replacingExisting: true)
            }
        },
        behaviour("an item moved onto the folder that holds it throws 512 ENOTEMPTY") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "kept")
            try Check.fails(.fileWriteUnknown, ENOTEMPTY, "move") {
                try s.directories.moveItem(at: s.url("d/f"), to: s.url("d"), replacingExisting: true)
            }
            try Check.equal(try s.text("d/f"), "kept", "content")
        },
    ]
}
