import Foundation
import Testing

/// The real binary with a container restored from an older backup (`cp -a`): the files added
/// since are not deleted anywhere; the run says it synced a new pair and why.
@Suite struct RestoredContainerTests {
    func copyTree(_ source: URL, to destination: URL) throws {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/cp")
        process.arguments = ["-a", source.path, destination.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cp -a")
    }

    @Test("a container restored from an older backup: nothing is deleted, the newer files go back to it")
    func restoredBackup() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("a", "a.txt", in: w.local)
            #expect(try w.sync().status == 0)
            let backup = w.base.appending(path: "backup")
            try copyTree(w.container, to: backup)
            try w.write("added later", "later.txt", in: w.local)
            #expect(try w.sync().status == 0)
            try FileManager.default.removeItem(at: w.container)
            try copyTree(backup, to: w.container)
            let result = try w.sync()
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("Synced as a new pair: the container is an older copy"), "\(result.stdout)")
            #expect(w.read("later.txt", in: w.local) == "added later", "not deleted locally")
            #expect(w.trashed(w.local).isEmpty)
            #expect(w.tree(w.container) == w.tree(w.local))
        }
    }
}
