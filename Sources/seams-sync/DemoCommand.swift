import ArgumentParser
import Foundation
import SeamsCore
import SeamsSync

/// `seams-sync demo`: a self-contained tour on two sample folders in a temp dir.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Make two sample folders in a temp dir, edit both, sync, and report."
    )

    func run() async throws {
        let base = FileManager.default.temporaryDirectory
            .appending(path: "seams-sync-demo-\(UInt32.random(in: 0...UInt32.max))", directoryHint: .isDirectory)
        let local = base.appending(path: "local", directoryHint: .isDirectory)
        let container = base.appending(path: "container", directoryHint: .isDirectory)
        let state = base.appending(path: "state", directoryHint: .isDirectory)
        let samples = DemoFolders(local: local, container: container)
        try samples.createInitial()
        print("Two sample folders in \(base.path):\n  local:     \(local.path)\n  container: \(container.path)\n")

        let engine = SyncEngine(directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor())
        print("1. First sync (everything local goes to the container):")
        let first = try engine.run(local: local, container: container, stateDirectory: state)
        print(indent(first.summary))

        try samples.editBothSides()
        print("\n2. Edits on both sides: notes.txt edited locally, from-phone.txt added in the container,")
        print("   photos/readme.md deleted in the container, plan.md edited on both sides (a conflict).")
        let second = try engine.run(local: local, container: container, stateDirectory: state)
        print(indent(second.summary))

        print("\n3. Both folders now hold the same files:")
        print(indent(try samples.listing(local)))
        let same = try samples.listing(local) == samples.listing(container)
        print(same ? "   identical on both sides." : "   the sides differ!")
        print("\nThe local photos/readme.md (deleted in the container) is kept in \(local.path)/.seams-trash; both versions of plan.md are kept.")
        print("Sync two real folders with: seams-sync sync ~/Notes /mnt/backup/Notes")
        guard same, second.succeeded, second.conflicts.count == 1 else { throw ExitCode(ExitStatus.other.rawValue) }
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "   " + $0 }.joined(separator: "\n")
    }
}
