import Foundation
import Seams

extension DirectoryAccessorConformance {
    static let flushes: [ConformanceBehaviour] = [
        behaviour("a file is flushed") { s in
            try s.directories.synchronizeFile(at: try s.makeFile("f", "x"))
            try Check.equal(try s.text("f"), "x", "content")
        },
        behaviour("flushing a missing file throws 260 ENOENT") { s in
            try Check.fails(.fileReadNoSuchFile, ENOENT, "flush") {
                try s.directories.synchronizeFile(at: s.url("nope"))
            }
        },
        behaviour("a folder is flushed") { s in
            try s.makeFolder("d")
            try s.directories.synchronizeDirectory(at: s.url("d"))
            try s.directories.synchronizeDirectory(at: s.root)
        },
        behaviour("flushing a missing folder throws 260 ENOENT") { s in
            try Check.fails(.fileReadNoSuchFile, ENOENT, "flush") {
                try s.directories.synchronizeDirectory(at: s.url("nope"))
            }
        },
        behaviour("a batch of files and folders is flushed") { s in
            try s.makeFolder("d")
            let files = [try s.makeFile("f", "x"), try s.makeFile("d/g", "y")]
            try s.directories.synchronize(files: files, directories: [s.url("d"), s.root])
            try s.directories.synchronize(files: [], directories: [])
            try Check.equal(try s.text("d/g"), "y", "content")
        },
        behaviour("a batch with a missing item throws 260 ENOENT") { s in
            let file = try s.makeFile("f", "x")
            try Check.fails(.fileReadNoSuchFile, ENOENT, "batch flush") {
                try s.directories.synchronize(files: [file, s.url("nope")], directories: [])
            }
            try Check.fails(.fileReadNoSuchFile, ENOENT, "batch flush") {
                try s.directories.synchronize(files: [file], directories: [s.url("gone")])
            }
        },
        behaviour("flushing a file as a folder throws 256 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileReadUnknown, ENOTDIR, "flush") {
                try s.directories.synchronizeDirectory(at: s.url("f"))
            }
        },
    ]

    static let permissions: [ConformanceBehaviour] = [
        permissionBehaviour("trap: a file without read permission throws 257 EACCES") { s in
            let url = try s.makeFile("f", "secret")
            try s.directories.setPermissions(0o200, at: url)
            try Check.fails(.fileReadNoPermission, EACCES, "read") { _ = try s.files.read(from: url) }
        },
        permissionBehaviour("writing into a read-only folder throws 513 EACCES and creates nothing") { s in
            let folder = try s.makeFolder("d")
            try s.directories.setPermissions(0o555, at: folder)
            try Check.fails(.fileWriteNoPermission, EACCES, "write") { try s.files.write(Data(), to: s.url("d/f")) }
            try Check.equal(try s.names("d"), [], "names")
        },
        permissionBehaviour("removing from a read-only folder throws 513 EACCES") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f")
            try s.directories.setPermissions(0o555, at: s.url("d"))
            try Check.fails(.fileWriteNoPermission, EACCES, "remove") {
                try s.directories.removeItem(at: s.url("d/f"), recursively: false)
            }
        },
        permissionBehaviour("listing a folder without read permission throws 257 EACCES") { s in
            try s.makeFolder("d")
            try s.directories.setPermissions(0o300, at: s.url("d"))
            try Check.fails(.fileReadNoPermission, EACCES, "list") {
                _ = try s.directories.contentsOfDirectory(at: s.url("d"))
            }
        },
        permissionBehaviour("creating a folder in a read-only folder throws 513 EACCES") { s in
            try s.makeFolder("d")
            try s.directories.setPermissions(0o500, at: s.url("d"))
            try Check.fails(.fileWriteNoPermission, EACCES, "create") {
                try s.directories.createDirectory(at: s.url("d/e"), withIntermediateDirectories: false)
            }
        },
        permissionBehaviour("moving out of a read-only folder throws 513 EACCES") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f", "x")
            try s.directories.setPermissions(0o555, at: s.url("d"))
            try Check.fails(.fileWriteNoPermission, EACCES, "move") {
                try s.directories.moveItem(at: s.url("d/f"), to: s.url("f"), replacingExisting: false)
            }
        },
        permissionBehaviour("a folder without search permission hides its items (257 EACCES)") { s in
            try s.makeFolder("d")
            try s.makeFile("d/f")
            try s.directories.setPermissions(0o600, at: s.url("d"))
            try Check.fails(.fileReadNoPermission, EACCES, "metadata") {
                _ = try s.directories.metadata(at: s.url("d/f"))
            }
        },
    ]

    static func permissionBehaviour(
        _ name: String, _ body: @escaping @Sendable (ConformanceSubject) throws -> Void
    ) -> ConformanceBehaviour {
        behaviour(
            name, requires: [.permissionEnforcement],
            platformNote: "Root ignores permission bits, so a live run as root cannot check it; "
                + "this package's tests run it on the live implementations as uid 65534 (setpriv).",
            { s in
                // Give the test runner back a tree it can clean up, whatever happens.
                defer { try? Self.restoreModes(s, at: s.root) }
                try body(s)
            })
    }

    static func restoreModes(_ s: ConformanceSubject, at folder: URL) throws {
        try s.directories.setPermissions(0o755, at: folder)
        for entry in try s.directories.contentsOfDirectory(at: folder) where entry.metadata.kind == .directory {
            try restoreModes(s, at: folder.appending(path: entry.name))
        }
    }
}
