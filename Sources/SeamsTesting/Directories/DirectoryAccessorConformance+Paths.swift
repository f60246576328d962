import Foundation
import Seams

/// Paths in the corners, as the kernel walks them: the limits on the length of names (`NAME_MAX`,
/// 255 bytes) and of paths (`PATH_MAX`, 4,096 bytes with the closing NUL), `.` and `..` resolved
/// one component at a time (never a lexical shortening), empty components, and what `URL` keeps
/// of a path (it keeps `.`, `..` and `//`; `url.path` drops a trailing slash).
extension DirectoryAccessorConformance {
    static let longName = String(repeating: "n", count: 256)
    static let longestName = String(repeating: "n", count: 255)

    /// A path under `root` of exactly `total` bytes ending in `tail`, padded with `./` components
    /// (and one empty component for an odd count), so the limit is met the same way wherever
    /// the subject's root is.
    static func padded(_ s: ConformanceSubject, _ total: Int, _ tail: String) -> URL {
        var path = s.root.path + "/"
        let padding = total - path.utf8.count - tail.utf8.count
        if padding % 2 == 1 { path += "/" }
        path += String(repeating: "./", count: padding / 2) + tail
        return URL(filePath: path)
    }

    static let paths: [ConformanceBehaviour] = [
        behaviour("a name of 255 bytes is written, read, listed and made a folder") { s in
            try s.makeFile(longestName, "long")
            try Check.equal(try s.text(longestName), "long", "content")
            try s.makeFolder("d")
            try s.directories.createDirectory(at: s.url("d/" + longestName), withIntermediateDirectories: false)
            try Check.equal(try s.names("d"), [longestName], "names")
        },
        behaviour("a name of 256 bytes throws ENAMETOOLONG: 514 from changes, 258 from reads") { s in
            try s.makeFile("f", "kept")
            let url = s.url(longName)
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "write") { try s.files.write(Data(), to: url) }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "create folder") {
                try s.directories.createDirectory(at: url, withIntermediateDirectories: false)
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "move onto") {
                try s.directories.moveItem(at: s.url("f"), to: url, replacingExisting: false)
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "remove") {
                try s.directories.removeItem(at: url, recursively: false)
            }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "read") { _ = try s.files.read(from: url) }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "list") {
                _ = try s.directories.contentsOfDirectory(at: url)
            }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "metadata") {
                _ = try s.directories.metadata(at: url)
            }
            try Check.that(!s.files.fileExists(at: url), "a 256-byte name exists")
            try Check.equal(try s.names(), ["f"], "names")
        },
        behaviour("the name limit counts bytes: 127 two-byte letters and one more byte pass, 128 do not") { s in
            let fits = String(repeating: "\u{E9}", count: 127) + "x"
            try s.makeFile(fits, "fits")
            try Check.equal(try s.text(fits), "fits", "255 bytes")
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "256 bytes") {
                try s.makeFile(String(repeating: "\u{E9}", count: 128))
            }
        },
        behaviour("the walk meets a missing folder or a file before a long name after it") { s in
            try s.makeFile("f")
            try Check.fails(.fileReadNoSuchFile, ENOENT, "missing/long") {
                _ = try s.files.read(from: s.url("missing/" + longName))
            }
            try Check.fails(.fileReadUnknown, ENOTDIR, "file/long") {
                _ = try s.files.read(from: s.url("f/" + longName))
            }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "long/missing") {
                _ = try s.files.read(from: s.url(longName + "/x"))
            }
        },
        behaviour("writing under a long or missing parent throws 4 ENOENT; only a long last name says ENAMETOOLONG") {
            s in
            try s.makeFile("f")
            for parent in [longName, "missing", "f"] {
                try Check.fails(.fileNoSuchFile, ENOENT, "write under \(parent.prefix(8))") {
                    try s.files.write(Data(), to: s.url(parent + "/x"))
                }
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "write under missing, long name") {
                try s.files.write(Data(), to: s.url("missing/" + longName))
            }
        },
        behaviour("a path of 4,095 bytes is read; 4,096 bytes throw ENAMETOOLONG, though every name is short") { s in
            try s.makeFile("f", "here")
            let fits = padded(s, 4095, "f")
            try Check.equal(fits.path.utf8.count, 4095, "path length")
            try Check.equal(
                String(decoding: try s.files.read(from: fits), as: UTF8.self), "here", "content at 4,095 bytes")
            try Check.that(s.files.fileExists(at: fits), "4,095 bytes: not found")
            let tooLong = padded(s, 4096, "f")
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "read") { _ = try s.files.read(from: tooLong) }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "metadata") {
                _ = try s.directories.metadata(at: tooLong)
            }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "list") {
                _ = try s.directories.contentsOfDirectory(at: padded(s, 4096, "."))
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "create folders") {
                try s.directories.createDirectory(at: padded(s, 4096, "d/e"), withIntermediateDirectories: true)
            }
            try Check.that(!s.files.fileExists(at: tooLong), "4,096 bytes: found")
            try Check.equal(try s.names(), ["f"], "names")
        },
        behaviour("a write of 4,095 bytes with a short folder path works; 4,096 bytes throw 514 ENAMETOOLONG") { s in
            let longest = padded(s, 4095, longestName)
            try s.files.write(Data("y".utf8), to: longest)
            try Check.equal(try s.text(longestName), "y", "written at 4,095 bytes")
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "write at 4,096 bytes") {
                try s.files.write(Data(), to: padded(s, 4096, longestName))
            }
        },
        behaviour("dot-dot after a missing folder throws ENOENT, though the lexical path exists") { s in
            try s.makeFolder("a")
            try s.makeFile("a/b", "b")
            let url = s.url("a/missing/../b")
            try Check.equal(url.path.hasSuffix("a/missing/../b"), true, "URL kept the path as given")
            try Check.fails(.fileReadNoSuchFile, ENOENT, "read") { _ = try s.files.read(from: url) }
            try Check.fails(.fileReadNoSuchFile, ENOENT, "metadata") { _ = try s.directories.metadata(at: url) }
            try Check.fails(.fileReadNoSuchFile, ENOENT, "list") {
                _ = try s.directories.contentsOfDirectory(at: s.url("a/missing/.."))
            }
            try Check.that(!s.files.fileExists(at: url), "exists through a missing folder")
            try Check.fails(.fileNoSuchFile, ENOENT, "write") { try s.files.write(Data(), to: s.url("a/missing/../c")) }
            try Check.fails(.fileNoSuchFile, ENOENT, "create folder") {
                try s.directories.createDirectory(at: s.url("a/missing/../c"), withIntermediateDirectories: false)
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "move") {
                try s.directories.moveItem(at: url, to: s.url("a/c"), replacingExisting: false)
            }
            try Check.equal(try s.names("a"), ["b"], "names in a")
        },
        behaviour("every other call meets the missing folder before dot-dot too, with its own code") { s in
            try s.makeFolder("a")
            try s.makeFile("a/b", "b")
            let through = s.url("a/missing/../b")
            try Check.fails(.fileNoSuchFile, ENOENT, "remove") {
                try s.directories.removeItem(at: through, recursively: true)
            }
            try Check.fails(.fileReadNoSuchFile, ENOENT, "copy from") {
                try s.directories.copyItem(at: through, to: s.url("a/c"))
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "copy into") {
                try s.directories.copyItem(at: s.url("a/b"), to: s.url("a/missing/../c"))
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "link") {
                try s.directories.linkItem(at: through, to: s.url("a/c"))
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "chmod") { try s.directories.setPermissions(0o600, at: through) }
            try Check.fails(.fileNoSuchFile, ENOENT, "set date") {
                try s.directories.setModificationDate(Date(timeIntervalSince1970: 1), at: through)
            }
            try Check.fails(.fileReadNoSuchFile, ENOENT, "flush") { try s.directories.synchronizeFile(at: through) }
            try Check.equal(try s.names("a"), ["b"], "names in a")
            try Check.equal(try s.text("a/b"), "b", "a/b")
        },
        behaviour("every other call refuses a 256-byte name with ENAMETOOLONG") { s in
            try s.makeFile("f", "kept")
            let long = s.url(longName)
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "copy from") {
                try s.directories.copyItem(at: long, to: s.url("g"))
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "copy onto") {
                try s.directories.copyItem(at: s.url("f"), to: long)
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "link onto") {
                try s.directories.linkItem(at: s.url("f"), to: long)
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "move from") {
                try s.directories.moveItem(at: long, to: s.url("g"), replacingExisting: true)
            }
            try Check.fails(.fileWriteInvalidFileName, ENAMETOOLONG, "chmod") {
                try s.directories.setPermissions(0o600, at: long)
            }
            try Check.fails(.fileReadInvalidFileName, ENAMETOOLONG, "flush") {
                try s.directories.synchronizeFile(at: long)
            }
            try Check.equal(try s.names(), ["f"], "names")
        },
        behaviour("dot and dot-dot after a file throw ENOTDIR") { s in
            try s.makeFolder("a")
            try s.makeFile("a/b", "b")
            try s.makeFile("f")
            for path in ["f/../a/b", "f/.", "f/..", "a/b/.", "a/b/../b"] {
                try Check.fails(.fileReadUnknown, ENOTDIR, "read \(path)") { _ = try s.files.read(from: s.url(path)) }
                try Check.fails(.fileReadUnknown, ENOTDIR, "metadata \(path)") {
                    _ = try s.directories.metadata(at: s.url(path))
                }
                try Check.that(!s.files.fileExists(at: s.url(path)), "\(path) exists")
            }
            try Check.fails(.fileNoSuchFile, ENOENT, "write f/../c") { try s.files.write(Data(), to: s.url("f/../c")) }
        },
        behaviour("dot-dot at the root stays at the root") { s in
            try s.makeFile("f", "here")
            let url = URL(filePath: "/../../.." + s.root.path + "/f")
            try Check.equal(String(decoding: try s.files.read(from: url), as: UTF8.self), "here", "content")
        },
        behaviour("empty components and dot are skipped: a//b and a/./b name a/b") { s in
            try s.makeFolder("a")
            try s.makeFile("a/b", "b")
            for path in ["a//b", "a/./b", "./a/b", "a/.//./b"] {
                try Check.equal(try s.text(path), "b", path)
            }
            try s.files.write(Data("c".utf8), to: s.url("a//c"))
            try Check.equal(try s.names("a"), ["b", "c"], "names in a")
        },
        behaviour("a trailing /. or /.. names a folder: listed, and its metadata is the folder's") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try Check.equal(try s.names("d/."), ["e"], "d/.")
            try Check.equal(try s.names("d/e/.."), ["e"], "d/e/..")
            try Check.equal(
                try s.directories.metadata(at: s.url("d/e/..")).fileIdentifier,
                try s.directories.metadata(at: s.url("d")).fileIdentifier, "d/e/.. is d")
        },
        behaviour("a last component . or .. is never created, removed or renamed") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "kept")
            try Check.fails(.fileWriteFileExists, EEXIST, "create d/.") {
                try s.directories.createDirectory(at: s.url("d/."), withIntermediateDirectories: false)
            }
            try Check.fails(.fileWriteUnknown, EISDIR, "write d/.") { try s.files.write(Data(), to: s.url("d/.")) }
            try Check.fails(.fileWriteUnknown, EISDIR, "write d/..") { try s.files.write(Data(), to: s.url("d/..")) }
            try Check.fails(.fileWriteUnknown, EINVAL, "remove d/.") {
                try s.directories.removeItem(at: s.url("d/."), recursively: false)
            }
            try Check.fails(.fileWriteUnknown, EBUSY, "move d/. away") {
                try s.directories.moveItem(at: s.url("d/."), to: s.url("e"), replacingExisting: false)
            }
            try Check.fails(.fileWriteUnknown, EBUSY, "move onto d/.") {
                try s.directories.moveItem(at: s.url("d/f"), to: s.url("d/."), replacingExisting: true)
            }
            try Check.equal(try s.names(), ["d"], "names")
            try Check.equal(try s.text("d/f"), "kept", "d/f")
        },
        behaviour("with intermediates, a path through dot-dot makes each folder on the way") { s in
            try s.directories.createDirectory(at: s.url("x/y/../z"), withIntermediateDirectories: true)
            try Check.equal(try s.names("x"), ["y", "z"], "names in x")
            try s.makeFile("f")
            try Check.fails(.fileWriteUnknown, ENOTDIR, "through a file") {
                try s.directories.createDirectory(at: s.url("f/../g"), withIntermediateDirectories: true)
            }
        },
        behaviour("a trailing slash on a file's URL is dropped by url.path: the file is read") { s in
            // The kernel refuses `f/` with ENOTDIR, but URL.path (what reaches it) has no slash.
            try s.makeFile("f", "here")
            let slashed = URL(filePath: s.url("f").path + "/")
            try Check.equal(slashed.path.hasSuffix("/f"), true, "url.path dropped the slash")
            try Check.equal(String(decoding: try s.files.read(from: slashed), as: UTF8.self), "here", "content")
            try Check.equal(try s.directories.metadata(at: slashed).kind, .file, "kind")
        },
    ]
}
