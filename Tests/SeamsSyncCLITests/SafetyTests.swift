import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SafetyTests {
    @Test("an unavailable container exits 3 and changes nothing")
    func unavailableContainer() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("x", "x.txt", in: w.local)
            let missing = w.base.appending(path: "not-mounted").path
            let result = try CLI.run(["sync", w.local.path, missing, "--state-dir", w.state.path, "--json"])
            #expect(result.status == 3)
            #expect(try result.json()["status"] as? String == "refused")
            #expect(!FileManager.default.fileExists(atPath: missing))
            #expect(w.tree(w.local) == ["x.txt": "x"])
        }
    }

    @Test("an emptied container exits 3 and deletes nothing locally")
    func emptiedContainer() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("1", "a.txt", in: w.local)
            try w.write("2", "b/c.txt", in: w.local)
            #expect(try w.sync().status == 0)
            for name in try FileManager.default.contentsOfDirectory(atPath: w.container.path)
            where !name.hasPrefix(".seams") {
                try FileManager.default.removeItem(at: w.container.appending(path: name))
            }
            let result = try w.sync()
            #expect(result.status == 3)
            #expect(result.stderr.contains("empty"))
            #expect(w.tree(w.local) == ["a.txt": "1", "b": "/", "b/c.txt": "2"])
        }
    }

    @Test("a lock held by a live run exits 4 and changes nothing")
    func lockHeld() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("x", "x.txt", in: w.local)
            let lock = Workspace.lockRecord(owner: "other-host pid 1", heartbeat: Date())  // a live process: this one
            try Data(lock.utf8).write(to: w.container.appending(path: ".seams-lock"))
            let result = try w.sync()
            #expect(result.status == 4)
            #expect(result.stderr.contains("other-host"))
            #expect(w.tree(w.container).isEmpty)
        }
    }

    @Test("an expired lock (a crashed run) is taken over")
    func staleLock() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("x", "x.txt", in: w.local)
            let lock = Workspace.lockRecord(owner: "crashed", heartbeat: Date().addingTimeInterval(-3600))
            try Data(lock.utf8).write(to: w.container.appending(path: ".seams-lock"))
            #expect(try w.sync().status == 0)
            #expect(w.tree(w.container) == ["x.txt": "x"])
            #expect(!FileManager.default.fileExists(atPath: w.container.appending(path: ".seams-lock").path))
        }
    }

    @Test("two runs at once: the second, started while the first holds the lock, exits 4; the first then finishes")
    func twoRuns() async throws {
        try await offPool {
            let w = try Workspace()
            for index in 0..<2000 {
                try w.write(String(repeating: "\(index)", count: 50), "f/\(index).txt", in: w.local)
            }
            let arguments = ["sync", w.local.path, w.container.path, "--state-dir", w.state.path]
            let lock = w.container.appending(path: ".seams-lock")
            // Hold the first run while it holds the lock: wait for its lock file, then stop it (SIGSTOP).
            let first = try CLI.start(arguments)
            let pid = first.process.processIdentifier
            var held: String?
            while first.process.isRunning && held == nil {
                if let data = try? Data(contentsOf: lock), String(decoding: data, as: UTF8.self).contains("pid \(pid) ")
                {
                    kill(pid, SIGSTOP)
                    // Still its lock once stopped (it may have let go between the read and the stop).
                    held = (try? Data(contentsOf: lock)).map { String(decoding: $0, as: UTF8.self) }
                    if held?.contains("pid \(pid) ") != true {
                        held = nil
                        kill(pid, SIGCONT)
                    }
                } else {
                    usleep(200)
                }
            }
            try #require(held != nil, "the first run ended before it could be held with its lock")

            let second = try CLI.run(arguments)
            #expect(second.status == 4, "\(second.stdout) \(second.stderr)")
            #expect(second.stderr.contains("pid \(pid) "), "the refusal names the first run: \(second.stderr)")
            #expect(first.process.isRunning, "the first run was still there while the second was refused")

            kill(pid, SIGCONT)
            let firstResult = try CLI.wait(first)
            #expect(firstResult.status == 0, "\(firstResult.stdout) \(firstResult.stderr)")
            #expect(!FileManager.default.fileExists(atPath: lock.path))
            #expect(w.tree(w.container) == w.tree(w.local))
            #expect(w.tree(w.local).count == 2001)
            #expect(try w.sync().status == 0)
        }
    }

    @Test(
        "an unreadable file exits 5, the others sync, nothing is lost (run as uid 65534)",
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root (to hand the folders to uid 65534 with chown) and /usr/bin/setpriv (to run the tool as that user)"
        ))
    func unreadableFile() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("fine", "ok.txt", in: w.local)
            try w.write("secret", "locked.txt", in: w.local)
            try FileManager.default.createDirectory(at: w.state, withIntermediateDirectories: true)
            try w.giveToNobody()
            try FileManager.default.setAttributes(
                [.posixPermissions: 0], ofItemAtPath: w.local.appending(path: "locked.txt").path)
            let result = try w.sync(["--json"], asNobody: true)
            #expect(result.status == 5, "\(result.stdout) \(result.stderr)")
            let report = try #require(try result.json()["report"] as? [String: Any])
            let failures = try #require(report["failures"] as? [[String: String]])
            #expect(failures.map { $0["path"] } == ["locked.txt"])
            #expect(w.read("ok.txt", in: w.container) == "fine")
            #expect(w.read("locked.txt", in: w.local) == "secret")
            #expect(w.read("locked.txt", in: w.container) == nil)
        }
    }

    @Test("a temp archive a crashed run left in the state folder is removed by the next run; a dry run keeps it")
    func leftoverTempArchive() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("1", "a.txt", in: w.local)
            #expect(try w.sync().status == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: w.state.path)
            let pair = try #require(names.first { $0.hasPrefix("pair-") }, "\(names)")
            let stem = URL(filePath: pair).deletingPathExtension().lastPathComponent
            let leftover = w.state.appending(path: ".seams-tmp-archive-\(stem)-crashed")
            let otherPair = w.state.appending(path: ".seams-tmp-archive-pair-0123456789abcdef-crashed")
            for url in [leftover, otherPair] { try Data("torn".utf8).write(to: url) }

            #expect(try w.sync(["--dry-run"]).status == 0)
            #expect(FileManager.default.fileExists(atPath: leftover.path))
            #expect(try w.sync().status == 0)
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            #expect(
                FileManager.default.fileExists(atPath: otherPair.path),
                "another pair's file is not this run's to remove")
        }
    }
}
