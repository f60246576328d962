import Foundation
import Seams

extension DirectoryAccessorConformance {
    static let copies: [ConformanceBehaviour] = [
        behaviour("a copied file has the same bytes and a new identity") { s in
            try s.makeFile("a", "bytes")
            try s.directories.copyItem(at: s.url("a"), to: s.url("b"))
            try Check.equal(try s.text("b"), "bytes", "content")
            let a = try s.directories.metadata(at: s.url("a"))
            let b = try s.directories.metadata(at: s.url("b"))
            try Check.that(a.fileIdentifier != b.fileIdentifier, "copy shares the inode")
            try Check.equal(b.linkCount, 1, "links")
        },
        behaviour("a copy keeps permissions and modification date") { s in
            let url = try s.makeFile("a", "x")
            let date = Date(timeIntervalSince1970: 1_500_000_000.75)
            try s.directories.setPermissions(0o640, at: url)
            try s.directories.setModificationDate(date, at: url)
            try s.directories.copyItem(at: url, to: s.url("b"))
            let copy = try s.directories.metadata(at: s.url("b"))
            try Check.equal(copy.permissions, 0o640, "permissions")
            try Check.equal(copy.modificationDate, date, "date")
        },
        behaviour("copying onto an existing file throws 516 EEXIST and keeps it") { s in
            try s.makeFile("a", "a")
            try s.makeFile("b", "b")
            try Check.fails(.fileWriteFileExists, EEXIST, "copy") {
                try s.directories.copyItem(at: s.url("a"), to: s.url("b"))
            }
            try Check.equal(try s.text("b"), "b", "destination")
        },
        behaviour("copying a missing item throws 260 ENOENT, as FileManager does") { s in
            try Check.fails(.fileReadNoSuchFile, ENOENT, "copy") {
                try s.directories.copyItem(at: s.url("nope"), to: s.url("b"))
            }
        },
        behaviour("copying into a missing folder throws 4 ENOENT") { s in
            try s.makeFile("a")
            try Check.fails(.fileNoSuchFile, ENOENT, "copy") {
                try s.directories.copyItem(at: s.url("a"), to: s.url("missing/a"))
            }
        },
        behaviour("a folder is copied with its whole subtree") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try s.makeFile("d/e/f", "deep")
            try s.makeFile("d/g", "top")
            try s.directories.copyItem(at: s.url("d"), to: s.url("c"))
            try Check.equal(try s.names("c"), ["e", "g"], "names")
            try Check.equal(try s.text("c/e/f"), "deep", "deep file")
        },
        behaviour("trap: a copied folder shares no subtree with the original") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try s.makeFile("d/e/f", "original")
            try s.directories.copyItem(at: s.url("d"), to: s.url("c"))
            try s.makeFile("c/e/f", "changed")
            try s.makeFile("c/e/new", "")
            try s.directories.removeItem(at: s.url("c/e"), recursively: true)
            try Check.equal(try s.text("d/e/f"), "original", "original file")
            try Check.equal(try s.names("d/e"), ["f"], "original folder")
        },
        behaviour("a copied folder keeps the modes and dates inside") { s in
            try s.makeFolder("d")
            let inner = try s.makeFile("d/f", "x")
            let date = Date(timeIntervalSince1970: 1_400_000_000.5)
            try s.directories.setPermissions(0o600, at: inner)
            try s.directories.setModificationDate(date, at: inner)
            try s.directories.setModificationDate(date, at: s.url("d"))
            try s.directories.copyItem(at: s.url("d"), to: s.url("c"))
            try Check.equal(try s.directories.metadata(at: s.url("c/f")).permissions, 0o600, "mode")
            try Check.equal(try s.directories.metadata(at: s.url("c/f")).modificationDate, date, "file date")
            try Check.equal(try s.directories.metadata(at: s.url("c")).modificationDate, date, "folder date")
        },
        behaviour("a copy of a linked file is a file of its own") { s in
            try s.makeFile("a", "x")
            try s.directories.linkItem(at: s.url("a"), to: s.url("b"))
            try s.directories.copyItem(at: s.url("b"), to: s.url("c"))
            try Check.equal(try s.directories.metadata(at: s.url("c")).linkCount, 1, "links of the copy")
            try Check.equal(try s.directories.metadata(at: s.url("a")).linkCount, 2, "links of the original")
        },
        behaviour("a folder cannot be copied into itself (512 EINVAL)") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try Check.fails(.fileWriteUnknown, EINVAL, "copy") {
                try s.directories.copyItem(at: s.url("d"), to: s.url("d/e/copy"))
            }
            try Check.equal(try s.names("d/e"), [], "nothing copied")
        },
        behaviour("copying through a file throws 512 ENOTDIR") { s in
            try s.makeFile("a")
            try s.makeFile("f")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "copy") {
                try s.directories.copyItem(at: s.url("a"), to: s.url("f/a"))
            }
        },
    ]

    /// ``DirectoryAccessorProviding/copyItemReadingMetadata(at:to:)``: the copy, and both items read.
    static let copiesReadingMetadata: [ConformanceBehaviour] = [
        behaviour("a copy that reads as it copies gives the source's metadata and the copy's") { s in
            let url = try s.makeFile("a", "bytes")
            let date = Date(timeIntervalSince1970: 1_500_000_000.25)
            try s.directories.setPermissions(0o640, at: url)
            try s.directories.setModificationDate(date, at: url)
            let (source, copy) = try s.directories.copyItemReadingMetadata(at: url, to: s.url("b"))
            try Check.equal(try s.text("b"), "bytes", "content")
            try Check.equal(source, try s.directories.metadata(at: url), "source")
            try Check.equal(copy, try s.directories.metadata(at: s.url("b")), "copy")
            try Check.equal(copy.size, 5, "size")
            try Check.equal(copy.permissions, 0o640, "permissions")
            try Check.equal(copy.modificationDate, date, "date")
            try Check.that(copy.fileIdentifier != source.fileIdentifier, "copy shares the inode")
        },
        behaviour("a copy that reads as it copies takes a folder and a link as copyItem does") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "deep")
            let (folder, folderCopy) = try s.directories.copyItemReadingMetadata(at: s.url("d"), to: s.url("c"))
            try Check.equal(folder.kind, .directory, "source kind")
            try Check.equal(folderCopy.kind, .directory, "copy kind")
            try Check.equal(try s.text("c/f"), "deep", "deep file")
            guard (try? s.directories.createSymbolicLink(at: s.url("l"), withDestination: "d/f")) != nil else { return }
            let (link, linkCopy) = try s.directories.copyItemReadingMetadata(at: s.url("l"), to: s.url("m"))
            try Check.equal(link.kind, .symbolicLink, "link kind")
            try Check.equal(linkCopy.kind, .symbolicLink, "link copy kind")
            try Check.equal(try s.directories.destinationOfSymbolicLink(at: s.url("m")), "d/f", "target")
        },
        behaviour("a copy that reads as it copies fails as copyItem does, and leaves nothing") { s in
            try s.makeFile("a", "a")
            try s.makeFile("b", "b")
            try s.makeFile("f")
            try Check.fails(.fileWriteFileExists, EEXIST, "onto a file") {
                _ = try s.directories.copyItemReadingMetadata(at: s.url("a"), to: s.url("b"))
            }
            try Check.equal(try s.text("b"), "b", "destination")
            try Check.fails(.fileReadNoSuchFile, ENOENT, "missing source") {
                _ = try s.directories.copyItemReadingMetadata(at: s.url("nope"), to: s.url("c"))
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "missing folder") {
                _ = try s.directories.copyItemReadingMetadata(at: s.url("a"), to: s.url("missing/a"))
            }
            try Check.fails(.fileWriteUnknown, ENOTDIR, "through a file") {
                _ = try s.directories.copyItemReadingMetadata(at: s.url("a"), to: s.url("f/a"))
            }
            try Check.equal(try s.names("").sorted(), ["a", "b", "f"], "names")
        },
    ]

    static let links: [ConformanceBehaviour] = [
        behaviour("a hard link is a second name for one file") { s in
            try s.makeFile("a", "x")
            try s.directories.linkItem(at: s.url("a"), to: s.url("b"))
            let a = try s.directories.metadata(at: s.url("a"))
            let b = try s.directories.metadata(at: s.url("b"))
            try Check.equal(a.fileIdentifier, b.fileIdentifier, "identity")
            try Check.equal(a.linkCount, 2, "links")
            try Check.equal(try s.text("b"), "x", "content")
        },
        behaviour("an atomic write to one name leaves the other name's old content") { s in
            try s.makeFile("a", "old")
            try s.directories.linkItem(at: s.url("a"), to: s.url("b"))
            try s.makeFile("a", "new")
            try Check.equal(try s.text("b"), "old", "other name")
            try Check.equal(try s.directories.metadata(at: s.url("b")).linkCount, 1, "links")
        },
        behaviour("linking onto an existing name throws 516 EEXIST") { s in
            try s.makeFile("a")
            try s.makeFile("b")
            try Check.fails(.fileWriteFileExists, EEXIST, "link") {
                try s.directories.linkItem(at: s.url("a"), to: s.url("b"))
            }
        },
        behaviour("linking a missing file throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "link") {
                try s.directories.linkItem(at: s.url("nope"), to: s.url("b"))
            }
        },
        behaviour("linking a folder throws 513 EPERM") { s in
            try s.makeFolder("d")
            try Check.fails(.fileWriteNoPermission, EPERM, "link") {
                try s.directories.linkItem(at: s.url("d"), to: s.url("e"))
            }
        },
        behaviour("linking into a missing folder throws 4 ENOENT") { s in
            try s.makeFile("a")
            try Check.fails(.fileNoSuchFile, ENOENT, "link") {
                try s.directories.linkItem(at: s.url("a"), to: s.url("missing/a"))
            }
        },
    ]
}
