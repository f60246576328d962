import Foundation
import Seams

/// The conformance suite of `DirectoryAccessorProviding`: how listing, metadata, creation,
/// removal, moves, copies, links, flushes and permissions behave on Linux, with the errors
/// Foundation throws. Includes every trap other fakes fell into: implicit parents, non-recursive
/// removal of a full folder, rename onto an existing path, trailing slashes, permissions, copies
/// that share subtrees, and errors of another type than live.
///
/// ```swift
/// @Test(arguments: DirectoryAccessorConformance.behaviours)
/// func conforms(_ behaviour: ConformanceBehaviour) throws {
///     let subject = ConformanceSubject.inMemory()
///     if behaviour.isApplicable(to: subject) { try behaviour.run(on: subject) }
/// }
/// ```
///
/// Platform notes: a live run on Linux as root cannot check permission behaviours (root
/// ignores the bits); they are marked ``ConformanceBehaviour/Requirement/permissionEnforcement``
/// and need a process that is not root.
public enum DirectoryAccessorConformance {
    /// Every behaviour of the suite.
    public static var behaviours: [ConformanceBehaviour] {
        listing + metadata + creation + removal + moves + copies + copiesReadingMetadata + links + symbolicLinks
            + flushes + permissions + paths
    }

    static func behaviour(
        _ name: String,
        requires requirements: Set<ConformanceBehaviour.Requirement> = [],
        platformNote: String? = nil,
        _ body: @escaping @Sendable (ConformanceSubject) throws -> Void
    ) -> ConformanceBehaviour {
        ConformanceBehaviour(
            suite: "DirectoryAccessor", name, requires: requirements, platformNote: platformNote, body)
    }

    static let listing: [ConformanceBehaviour] = [
        behaviour("an empty folder lists as empty") { s in
            try Check.equal(try s.names(), [], "names")
        },
        behaviour("a listing names files and folders with their kinds, sorted") { s in
            try s.makeFile("b.txt", "bb")
            try s.makeFolder("a")
            try s.makeFile("c", "")
            let entries = try s.directories.contentsOfDirectory(at: s.root)
            try Check.equal(entries.map(\.name), ["a", "b.txt", "c"], "names")
            try Check.equal(entries.map(\.metadata.kind), [.directory, .file, .file], "kinds")
            try Check.equal(entries[1].metadata.size, 2, "size of b.txt")
        },
        behaviour("a listing holds the same metadata as metadata(at:)") { s in
            try s.makeFile("f", "12345")
            try s.makeFolder("d")
            for entry in try s.directories.contentsOfDirectory(at: s.root) {
                try Check.equal(entry.metadata, try s.directories.metadata(at: s.url(entry.name)), entry.name)
            }
        },
        behaviour("a listing is sorted by bytes: upper case before lower case") { s in
            for name in ["b", "B", "a", "A", "_"] { try s.makeFile(name) }
            try Check.equal(try s.names(), ["A", "B", "_", "a", "b"], "names")
        },
        behaviour("names are case-sensitive: a and A are two items") { s in
            try s.makeFile("a", "lower")
            try s.makeFile("A", "upper")
            try Check.equal(try s.text("a"), "lower", "a")
            try Check.equal(try s.text("A"), "upper", "A")
        },
        behaviour("names that differ only in Unicode normalization are two items") { s in
            try s.makeFile("caf\u{E9}", "precomposed")
            try s.makeFile("cafe\u{301}", "decomposed")
            try Check.equal(try s.names().count, 2, "items")
            try Check.equal(try s.text("caf\u{E9}"), "precomposed", "precomposed name")
        },
        behaviour("listing a missing folder throws 260 ENOENT") { s in
            try Check.fails(.fileReadNoSuchFile, ENOENT, "list") {
                _ = try s.directories.contentsOfDirectory(at: s.url("missing"))
            }
        },
        behaviour("listing a file throws 256 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileReadUnknown, ENOTDIR, "list") {
                _ = try s.directories.contentsOfDirectory(at: s.url("f"))
            }
        },
        behaviour("listing through a file throws 256 ENOTDIR") { s in
            try s.makeFile("f")
            try Check.fails(.fileReadUnknown, ENOTDIR, "list") {
                _ = try s.directories.contentsOfDirectory(at: s.url("f/sub"))
            }
        },
        behaviour("a folder URL with a trailing slash names the folder") { s in
            try s.makeFolder("d")
            try s.makeFile("d/x")
            let slashed = URL(filePath: s.url("d").path + "/")
            try Check.equal(try s.directories.contentsOfDirectory(at: slashed).map(\.name), ["x"], "names")
            try Check.equal(try s.directories.metadata(at: slashed).kind, .directory, "kind")
        },
        behaviour("dot and dot-dot components resolve") { s in
            try s.makeFolder("a")
            try s.makeFile("c", "here")
            try Check.equal(try s.text("a/./../c"), "here", "content through a/./../c")
        },
        behaviour("a listing shows a folder's items only, not deeper ones") { s in
            try s.makeFolder("d")
            try s.makeFolder("d/e")
            try s.makeFile("d/e/deep")
            try Check.equal(try s.names("d"), ["e"], "names")
        },
    ]
}
