import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `seams-sync watch` as a user runs it: the real binary, real folders, the kernel's watcher.
@Suite struct WatchCLITests {
    /// Waits (up to a minute: a busy machine is slow, never wrong) until `condition` holds.
    func eventually(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition(), Date() < deadline { usleep(20_000) }
        try #require(condition(), "\(what) within a minute")
    }

    func start(_ w: Workspace, _ extra: [String] = []) throws -> CLI.Started {
        try CLI.start(["watch", w.local.path, w.container.path, "--state-dir", w.state.path] + extra)
    }

    @Test(
        "watch syncs at the start, then each edit, new folder, rename and container change; SIGTERM ends it with 143 and no lock left"
    )
    func keepsInStep() throws {
        let w = try Workspace()
        try w.write("one", "notes/a.txt", in: w.local)
        try w.write("two", "b.txt", in: w.local)
        let started = try start(w, ["--json"])
        defer { if started.process.isRunning { started.process.terminate() } }
        try eventually("the first sync") { w.read("notes/a.txt", in: w.container) == "one" }

        try w.write("one, edited", "notes/a.txt", in: w.local)
        try eventually("the edit") { w.read("notes/a.txt", in: w.container) == "one, edited" }

        try w.write("deep", "new/x/y/z.txt", in: w.local)
        try eventually("a new folder tree") { w.read("new/x/y/z.txt", in: w.container) == "deep" }

        try FileManager.default.moveItem(at: w.local.appending(path: "new"), to: w.local.appending(path: "renamed"))
        try eventually("the rename") {
            w.read("renamed/x/y/z.txt", in: w.container) == "deep"
                && !FileManager.default.fileExists(atPath: w.container.appending(path: "new").path)
        }
        try w.write("from the container", "c.txt", in: w.container)
        try eventually("the container's change") { w.read("c.txt", in: w.local) == "from the container" }
        // Idle, the lock is not held: other devices sync in between.
        try eventually("the lock released while idle") {
            !FileManager.default.fileExists(atPath: w.container.appending(path: ".seams-lock").path)
        }

        started.process.terminate()
        let result = try CLI.wait(started)
        #expect(result.status == 143)
        #expect(!FileManager.default.fileExists(atPath: w.container.appending(path: ".seams-lock").path))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(objects.first?["event"] as? String == "synced")
        #expect(objects.first?["reason"] as? String == "start")
        #expect(objects.allSatisfy { $0["event"] as? String == "synced" })
        let moved = objects.compactMap { ($0["report"] as? [String: Any])?["moves"] as? [[String: Any]] }.joined()
        #expect(moved.contains { $0["from"] as? String == "new" && $0["to"] as? String == "renamed" })
        #expect(w.tree(w.local) == w.tree(w.container).filter { !$0.key.hasPrefix(".seams") })
    }

    @Test("Ctrl-C (SIGINT) ends watch with 130; text mode prints a line per sync")
    func interrupt() throws {
        let w = try Workspace()
        try w.write("one", "a.txt", in: w.local)
        let started = try start(w)
        defer { if started.process.isRunning { started.process.terminate() } }
        try eventually("the first sync") { w.read("a.txt", in: w.container) == "one" }
        kill(started.process.processIdentifier, SIGINT)
        let result = try CLI.wait(started)
        #expect(result.status == 130)
        #expect(result.stdout.contains("synced (start): 1 to container"))
    }

    @Test("watch refuses what sync refuses: a container inside the local folder (exit 2)")
    func refusesOverlap() throws {
        let w = try Workspace()
        let result = try CLI.run(
            ["watch", w.local.path, w.local.appending(path: "inner").path, "--state-dir", w.state.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("two separate folders"))
    }
}
