import ArgumentParser
import Foundation
import SeamsAsyncHTTPClient
import SeamsCore
import SeamsSync
import SeamsWebDAV

/// `seams-sync demo`: a self-contained tour on two sample folders in a temp dir; with `--webdav`,
/// the container is a WebDAV server the demo starts on this machine.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Make two sample folders in a temp dir, edit both, sync, and report.",
        discussion: """
            With --webdav, the container folder is served by `rclone serve webdav` on 127.0.0.1 \
            (started by the demo, stopped at its end) and the demo syncs with the server's URL; \
            rclone must be installed (exit 3 otherwise).
            """
    )

    @Flag(
        name: .customLong("webdav"), help: "Sync with a WebDAV server the demo starts on this machine (needs rclone).")
    var webDAV = false

    func run() throws {
        let base = FileManager.default.temporaryDirectory
            .appending(path: "seams-sync-demo-\(UInt32.random(in: 0...UInt32.max))", directoryHint: .isDirectory)
        let local = base.appending(path: "local", directoryHint: .isDirectory)
        let container = base.appending(path: "container", directoryHint: .isDirectory)
        let state = base.appending(path: "state", directoryHint: .isDirectory)
        let samples = DemoFolders(local: local, container: container)
        try samples.createInitial()
        print("Two sample folders in \(base.path):\n  local:     \(local.path)\n  container: \(container.path)")

        var server: DemoServer?
        if webDAV {
            let work = base.appending(path: "server", directoryHint: .isDirectory)
            do {
                try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                server = try DemoServer.start(serving: container, work: work)
            } catch {
                FileHandle.standardError.write(Data("seams-sync: \(error)\n".utf8))
                throw ExitCode(ExitStatus.refused.rawValue)
            }
        }
        defer { server?.stop() }
        let target = server?.url ?? container
        if let server {
            print(
                "  served by: rclone serve webdav at \(server.url.absoluteString) (user \(server.credentials.user), a random password)"
            )
            print("  The sync talks to the server only; the demo's own edits below are made in the served folder.")
        }
        print("")

        let transport = server.map { _ in AsyncHTTPClientTransport() }
        defer { try? transport?.shutdownWaiting() }
        let remote = server.map {
            WebDAVAccessor(baseURL: $0.url, credentials: $0.credentials, transport: transport!)
        }
        let engine = SyncEngine(directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor(), remote: remote)
        let sync = { try engine.run(local: local, container: target, stateDirectory: state) }
        print("1. First sync (everything local goes to the container):")
        let first = try sync()
        print(indent(first.summary))

        try samples.editBothSides()
        print("\n2. Edits on both sides: notes.txt edited locally, from-phone.txt added in the container,")
        print("   photos/readme.md deleted in the container, plan.md edited on both sides (a conflict).")
        let second = try sync()
        print(indent(second.summary))

        print("\n3. Both folders now hold the same files:")
        print(indent(try samples.listing(local)))
        let same = try samples.listing(local) == samples.listing(container)
        print(same ? "   identical on both sides." : "   the sides differ!")
        print(
            "\nThe local photos/readme.md (deleted in the container) is kept in \(local.path)/.seams-trash; both versions of plan.md are kept."
        )
        if webDAV {
            print(
                "Sync a folder with your own server: SEAMS_WEBDAV_USER=me SEAMS_WEBDAV_PASSWORD=… seams-sync sync ~/Notes https://dav.example.com/Notes/"
            )
        } else {
            print("Sync two real folders with: seams-sync sync ~/Notes /mnt/backup/Notes")
        }
        guard same, second.succeeded, second.conflicts.count == 1 else { throw ExitCode(ExitStatus.other.rawValue) }
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "   " + $0 }.joined(separator: "\n")
    }
}
