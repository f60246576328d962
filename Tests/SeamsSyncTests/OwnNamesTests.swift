import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// Only what the tool made is the tool's: a user's file whose name starts with `.seams` is never
/// deleted or synced, and is reported every run; only temp names of the tool's own shape are removed.
@Suite struct OwnNamesTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    @Test(
        "temp names of the tool's own shape, and nothing else",
        arguments: [
            (".seams-tmp-k3x9a-12", true),
            (".seams-tmp-run-1", true),
            (".seams-tmp-lock-new-k3x9a", true),
            (".seams-tmp-lock-stale-abc", true),
            (".seams-tmp-replica-abc", true),
            (".seams-tmp-notes.txt", false),
            (".seams-tmp-", false),
            (".seams-tmp-abc-", false),
            (".seams-tmp-ABC-1", false),
            (".seams-tmp-abc-1-2", false),
            (".seams-tmp-lock-other-abc", false),
            (".seams-tmp-replica-", false),
            (".seams-notes", false),
            ("notes.txt", false),
        ])
    func temporaryNames(name: String, isTemporary: Bool) {
        #expect(Snapshot.isTemporaryName(name) == isTemporary)
    }

    @Test(
        "a user's .seams… items stay where they are, are not synced, and are reported every run; the tool's leftovers go"
    )
    func usersLookalikes() throws {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        try fileSystem.createDirectory(at: local.appending(path: "sub"), withIntermediateDirectories: false)
        let mine = [".seams-notes.txt", ".seams-tmp-notes.txt", "sub/.seams-trash", "sub/.seams-lock"]
        for path in mine + ["plain.txt"] { try fileSystem.write(Data(path.utf8), to: local.appending(path: path)) }
        let leftover = container.appending(path: ".seams-tmp-k3x9a-4")
        try fileSystem.write(Data("half a copy".utf8), to: leftover)

        for run in 1...2 {
            fileSystem.advanceTime(by: 1)
            let report = try SyncEngine(
                directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test"
            )
            .run(local: local, container: container, stateDirectory: state)
            #expect(Set(report.skipped.map(\.path)) == Set(mine), "run \(run): \(report.skipped)")
            #expect(report.skipped.allSatisfy { $0.reason.contains("starts with .seams") })
            for path in mine {
                #expect(
                    try fileSystem.read(from: local.appending(path: path)) == Data(path.utf8), "\(path) is untouched")
                #expect(!fileSystem.fileExists(at: container.appending(path: path)), "\(path) is not synced")
            }
            #expect(fileSystem.fileExists(at: container.appending(path: "plain.txt")))
        }
        #expect(!fileSystem.fileExists(at: leftover), "a temp file of the tool's own shape is removed")
    }
}
