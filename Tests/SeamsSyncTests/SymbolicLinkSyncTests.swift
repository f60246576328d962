import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// Symbolic links are synced as links: the same target text on both sides, never resolved,
/// never followed; a side that cannot hold links skips them every run and deletes nothing.
@Suite struct SymbolicLinkSyncTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container, URL(filePath: "/outside")] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        try fileSystem.write(Data("outside".utf8), to: URL(filePath: "/outside/secret.txt"))
        return fileSystem
    }

    @discardableResult
    func run(_ fileSystem: InMemoryFileSystem, directories: (any DirectoryAccessorProviding)? = nil) throws
        -> SyncReport
    {
        try SyncEngine(
            directories: directories ?? fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test"
        )
        .run(local: local, container: container, stateDirectory: state)
    }

    func link(_ fileSystem: InMemoryFileSystem, _ path: String, in root: URL) -> String? {
        try? fileSystem.destinationOfSymbolicLink(at: root.appending(path: path))
    }

    /// Every item under `/outside`, with its kind and content: what must never change.
    func outside(_ fileSystem: InMemoryFileSystem) throws -> [String] {
        try fileSystem.contentsOfDirectory(at: URL(filePath: "/outside")).map {
            "\($0.name) \($0.metadata.kind) \($0.metadata.size)"
        }
    }

    @Test("new links go across as links with the same target text: relative, absolute, to a folder, dangling")
    func newLinks() throws {
        let fileSystem = try setUp()
        try fileSystem.write(Data("n".utf8), to: local.appending(path: "notes.txt"))
        try fileSystem.createDirectory(at: local.appending(path: "sub"), withIntermediateDirectories: false)
        let targets = [
            "relative": "notes.txt", "sub/up": "../notes.txt", "absolute": "/outside", "dangling": "no/such/thing",
        ]
        for (path, target) in targets {
            try fileSystem.createSymbolicLink(at: local.appending(path: path), withDestination: target)
        }
        let before = try outside(fileSystem)
        let report = try run(fileSystem)
        #expect(report.failures.isEmpty && report.skipped.isEmpty, "\(report.failures) \(report.skipped)")
        for (path, target) in targets {
            #expect(link(fileSystem, path, in: container) == target, "\(path)")
            #expect(try fileSystem.metadata(at: container.appending(path: path)).kind == .symbolicLink, "\(path)")
        }
        #expect(try outside(fileSystem) == before, "nothing was read or written through /outside")
        #expect(try !fileSystem.contentsOfDirectory(at: container).contains { $0.name == "secret.txt" })
        let second = try run(fileSystem)
        #expect(
            second.copiedToLocal + second.copiedToContainer == 0 && second.inSync == 6,
            "a second run finds them in sync")
    }

    @Test("a retargeted link replaces the other side's, whose old target text is kept in the trash")
    func retargeted() throws {
        let fileSystem = try setUp()
        try fileSystem.createSymbolicLink(at: local.appending(path: "current"), withDestination: "v1")
        try run(fileSystem)
        fileSystem.advanceTime(by: 10)
        try fileSystem.removeItem(at: container.appending(path: "current"), recursively: false)
        try fileSystem.createSymbolicLink(at: container.appending(path: "current"), withDestination: "version-2")
        let report = try run(fileSystem)
        #expect(report.copiedToLocal == 1 && report.failures.isEmpty)
        #expect(link(fileSystem, "current", in: local) == "version-2")
        let trash = local.appending(path: ".seams-trash")
        let run = try #require(try fileSystem.contentsOfDirectory(at: trash).first?.name)
        #expect(link(fileSystem, "\(run)/current", in: trash) == "v1", "the replaced link, not its target")
    }

    @Test("a deleted link is deleted on the other side into its trash; a link changed on both sides keeps both")
    func deletedAndConflicting() throws {
        let fileSystem = try setUp()
        try fileSystem.createSymbolicLink(at: local.appending(path: "gone"), withDestination: "a")
        try fileSystem.createSymbolicLink(at: local.appending(path: "both"), withDestination: "b")
        try run(fileSystem)
        fileSystem.advanceTime(by: 10)
        try fileSystem.removeItem(at: local.appending(path: "gone"), recursively: false)
        try fileSystem.removeItem(at: local.appending(path: "both"), recursively: false)
        try fileSystem.createSymbolicLink(at: local.appending(path: "both"), withDestination: "local-target")
        fileSystem.advanceTime(by: 10)
        try fileSystem.removeItem(at: container.appending(path: "both"), recursively: false)
        try fileSystem.createSymbolicLink(
            at: container.appending(path: "both"), withDestination: "container-target-longer")
        let report = try run(fileSystem)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(link(fileSystem, "gone", in: container) == nil && report.deletedContainer == 1)
        #expect(report.conflicts.count == 1)
        let copy = try #require(report.conflicts.first?.copy)
        for root in [local, container] {
            #expect(link(fileSystem, "both", in: root) == "container-target-longer", "the newer keeps the name")
            #expect(
                link(fileSystem, copy, in: root) == "local-target", "the other is kept as a conflict copy, still a link"
            )
        }
    }

    @Test("links made on both sides with one target are in sync; with different targets of one length, a conflict")
    func compared() throws {
        let fileSystem = try setUp()
        try fileSystem.createSymbolicLink(at: local.appending(path: "same"), withDestination: "target")
        try fileSystem.createSymbolicLink(at: container.appending(path: "same"), withDestination: "target")
        try fileSystem.createSymbolicLink(at: local.appending(path: "differ"), withDestination: "aaaa")
        fileSystem.advanceTime(by: 5)
        try fileSystem.createSymbolicLink(at: container.appending(path: "differ"), withDestination: "bbbb")
        let report = try run(fileSystem)
        #expect(report.inSync == 1, "same")
        #expect(report.conflicts.map(\.path) == ["differ"])
        #expect(link(fileSystem, "differ", in: local) == "bbbb")
    }

    @Test("a side whose file system cannot hold links: skipped every run, said why, nothing deleted anywhere")
    func noLinksOnContainer() throws {
        let fileSystem = try setUp()
        try fileSystem.write(Data("f".utf8), to: local.appending(path: "file.txt"))
        try fileSystem.createSymbolicLink(at: local.appending(path: "link"), withDestination: "file.txt")
        // FAT and exFAT answer EPERM to symlink(2): the copy of a link fails so.
        let noLinks = FaultInjectingFileSystem(wrapping: fileSystem)
        noLinks.addRule(
            .calls(where: { $0 == .copyItem && $1?.lastPathComponent == "link" }, fail: .hardLinksUnsupported))
        for runNumber in 1...2 {
            let report = try run(fileSystem, directories: noLinks)
            #expect(report.failures.isEmpty, "run \(runNumber)")
            #expect(report.skipped.map(\.path) == ["link"], "run \(runNumber)")
            #expect(report.skipped.first?.reason.contains("cannot hold links") == true)
            #expect(link(fileSystem, "link", in: local) == "file.txt", "run \(runNumber): the link stays")
            #expect(
                try fileSystem.contentsOfDirectory(at: container).map(\.name).filter { !$0.hasPrefix(".seams") } == [
                    "file.txt"
                ])
            #expect(
                (try? fileSystem.contentsOfDirectory(at: local.appending(path: ".seams-trash"))) == nil,
                "nothing trashed")
        }
    }

    @Test(
        "an unchanged link that the other side replaced by a folder gives way: the folder is copied, the link trashed")
    func linkReplacedByFolder() throws {
        let fileSystem = try setUp()
        try fileSystem.createSymbolicLink(at: local.appending(path: "photos"), withDestination: "/outside")
        for name in ["a", "b", "c"] { try fileSystem.write(Data(name.utf8), to: local.appending(path: "\(name).txt")) }
        try run(fileSystem)
        try fileSystem.removeItem(at: container.appending(path: "photos"), recursively: false)
        try fileSystem.createDirectory(at: container.appending(path: "photos"), withIntermediateDirectories: false)
        try fileSystem.write(Data("p".utf8), to: container.appending(path: "photos/p.jpg"))
        let before = try outside(fileSystem)
        let report = try run(fileSystem)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(try fileSystem.metadata(at: local.appending(path: "photos")).kind == .directory)
        #expect(try fileSystem.read(from: local.appending(path: "photos/p.jpg")) == Data("p".utf8))
        #expect(try outside(fileSystem) == before, "the photo did not go through the old link")
        let trash = local.appending(path: ".seams-trash")
        let runFolder = try #require(try fileSystem.contentsOfDirectory(at: trash).first?.name)
        #expect(link(fileSystem, "\(runFolder)/photos", in: trash) == "/outside", "the link is kept in the trash")
    }
}
