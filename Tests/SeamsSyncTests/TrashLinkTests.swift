import Foundation
import Seams
import Testing

@testable import SeamsSync

/// A `.seams-trash` that is a symbolic link to another folder is never followed: nothing is
/// moved into it, nothing in it is purged; the paths that needed it wait, and the run says why.
@Suite struct TrashLinkTests {
    @Test(
        "a .seams-trash linked to an outside folder: that folder is untouched, the deletion waits, the report says why")
    func linkedTrash() throws {
        let base = FileManager.default.temporaryDirectory.appending(
            path: "seams-trashlink-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: base) }
        let (local, container, state, outside) = (
            base.appending(path: "local"), base.appending(path: "container"), base.appending(path: "state"),
            base.appending(path: "outside")
        )
        let manager = FileManager.default
        for folder in [local, container, outside.appending(path: "20200101-000000-old")] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data("precious".utf8).write(to: outside.appending(path: "20200101-000000-old/keep.txt"))
        try Data("a".utf8).write(to: local.appending(path: "a.txt"))
        try Data("b".utf8).write(to: local.appending(path: "b.txt"))
        let engine = SyncEngine(directories: LiveBoundary(), files: LiveBoundary(), owner: "test")
        _ = try engine.run(local: local, container: container, stateDirectory: state)
        // Deleted in the container, so the run would move the local a.txt into the local trash.
        try manager.removeItem(at: container.appending(path: "a.txt"))
        try manager.createSymbolicLink(at: local.appending(path: ".seams-trash"), withDestinationURL: outside)

        let report = try engine.run(local: local, container: container, stateDirectory: state)
        #expect(
            try manager.contentsOfDirectory(atPath: outside.path) == ["20200101-000000-old"],
            "nothing moved into the outside folder")
        #expect(
            try String(contentsOf: outside.appending(path: "20200101-000000-old/keep.txt"), encoding: .utf8)
                == "precious",
            "nothing purged there, though its name looks like a trash folder years old")
        #expect(manager.fileExists(atPath: local.appending(path: "a.txt").path), "the deletion waits")
        #expect(report.failures.map(\.path) == ["a.txt"])
        #expect(report.failures.first?.reason.contains(".seams-trash, which is not a folder") == true)
        #expect(
            report.skipped.contains { $0.path.hasSuffix("local/.seams-trash") && $0.reason.contains("symbolic link") })
        #expect(
            try manager.destinationOfSymbolicLink(atPath: local.appending(path: ".seams-trash").path) == outside.path,
            "the link itself is left as it is")
    }
}
