import Foundation
import Seams

extension DirectoryAccessorConformance {
    static let metadata: [ConformanceBehaviour] = [
        behaviour("a file's metadata has its kind and size") { s in
            try s.makeFile("f", "hello")
            let info = try s.directories.metadata(at: s.url("f"))
            try Check.equal(info.kind, .file, "kind")
            try Check.equal(info.size, 5, "size")
            try Check.equal(info.linkCount, 1, "links")
        },
        behaviour("an empty file has size 0") { s in
            try s.makeFile("f")
            try Check.equal(try s.directories.metadata(at: s.url("f")).size, 0, "size")
        },
        behaviour("a folder's metadata has kind directory and size 0") { s in
            try s.makeFolder("d")
            let info = try s.directories.metadata(at: s.url("d"))
            try Check.equal(info.kind, .directory, "kind")
            try Check.equal(info.size, 0, "size")
        },
        behaviour("metadata of a missing item throws 260 ENOENT") { s in
            try Check.fails(.fileReadNoSuchFile, ENOENT, "metadata") {
                _ = try s.directories.metadata(at: s.url("nope"))
            }
        },
        behaviour("metadata through a file throws 256 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileReadUnknown, ENOTDIR, "metadata") { _ = try s.directories.metadata(at: s.url("f/x")) }
        },
        behaviour("new files and folders get the umask's permissions") { s in
            try s.makeFile("f")
            try s.makeFolder("d")
            try Check.equal(try s.directories.metadata(at: s.url("f")).permissions, s.newFilePermissions, "file")
            try Check.equal(try s.directories.metadata(at: s.url("d")).permissions, s.newFolderPermissions, "folder")
        },
        behaviour("a modification date is kept to the nanosecond") { s in
            try s.makeFile("f")
            let date = Date(timeIntervalSince1970: 1_234_567_890.123456789)
            try s.directories.setModificationDate(date, at: s.url("f"))
            let read = try s.directories.metadata(at: s.url("f")).modificationDate
            try Check.that(abs(read.timeIntervalSince(date)) < 0.000_001, "date \(read) is not \(date)")
            try Check.that(read.timeIntervalSince1970 != 1_234_567_890, "sub-second part lost")
        },
        behaviour("a folder's modification date can be set") { s in
            try s.makeFolder("d")
            let date = Date(timeIntervalSince1970: 1_000_000_000.5)
            try s.directories.setModificationDate(date, at: s.url("d"))
            try Check.equal(try s.directories.metadata(at: s.url("d")).modificationDate, date, "date")
        },
        behaviour("setting the date of a missing item throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "setModificationDate") {
                try s.directories.setModificationDate(Date(timeIntervalSince1970: 0), at: s.url("nope"))
            }
        },
        behaviour("permissions can be set and read back") { s in
            try s.makeFile("f")
            try s.directories.setPermissions(0o600, at: s.url("f"))
            try Check.equal(try s.directories.metadata(at: s.url("f")).permissions, 0o600, "file")
            try s.makeFolder("d")
            try s.directories.setPermissions(0o700, at: s.url("d"))
            try Check.equal(try s.directories.metadata(at: s.url("d")).permissions, 0o700, "folder")
        },
        behaviour("setting permissions of a missing item throws 4 ENOENT") { s in
            try Check.fails(.fileNoSuchFile, ENOENT, "setPermissions") {
                try s.directories.setPermissions(0o600, at: s.url("nope"))
            }
        },
        behaviour("two files have different identifiers on one volume") { s in
            let a = try s.directories.metadata(at: try s.makeFile("a"))
            let b = try s.directories.metadata(at: try s.makeFile("b"))
            try Check.that(a.fileIdentifier != b.fileIdentifier, "same identifier")
            try Check.equal(a.volumeIdentifier, b.volumeIdentifier, "volume")
        },
        behaviour("an atomic write gives the name a new identifier") { s in
            let before = try s.directories.metadata(at: try s.makeFile("f", "1")).fileIdentifier
            let after = try s.directories.metadata(at: try s.makeFile("f", "2")).fileIdentifier
            try Check.that(before != after, "identifier kept across an atomic replace")
        },
        behaviour("writing a file changes its date from an old one") { s in
            let url = try s.makeFile("f", "1")
            let old = Date(timeIntervalSince1970: 1_000_000_000)
            try s.directories.setModificationDate(old, at: url)
            try s.makeFile("f", "2")
            try Check.that(try s.directories.metadata(at: url).modificationDate != old, "date not changed")
        },
        behaviour("adding a name changes its folder's date") { s in
            let folder = try s.makeFolder("d")
            let old = Date(timeIntervalSince1970: 1_000_000_000)
            try s.directories.setModificationDate(old, at: folder)
            try s.makeFile("d/new")
            try Check.that(try s.directories.metadata(at: folder).modificationDate != old, "folder date not changed")
        },
        behaviour("removing a name changes its folder's date") { s in
            let folder = try s.makeFolder("d")
            try s.makeFile("d/f")
            let old = Date(timeIntervalSince1970: 1_000_000_000)
            try s.directories.setModificationDate(old, at: folder)
            try s.directories.removeItem(at: s.url("d/f"), recursively: false)
            try Check.that(try s.directories.metadata(at: folder).modificationDate != old, "folder date not changed")
        },
        behaviour("renaming does not change the item's date") { s in
            let url = try s.makeFile("f", "x")
            let old = Date(timeIntervalSince1970: 1_000_000_000.25)
            try s.directories.setModificationDate(old, at: url)
            try s.directories.moveItem(at: url, to: s.url("g"), replacingExisting: false)
            try Check.equal(try s.directories.metadata(at: s.url("g")).modificationDate, old, "date")
        },
        behaviour("setting permissions keeps the content") { s in
            let url = try s.makeFile("f", "keep")
            try s.directories.setPermissions(0o640, at: url)
            try Check.equal(try s.text("f"), "keep", "content")
        },
    ]
}
