import Foundation
import SeamsTesting
import Testing

/// The real binary against real WebDAV servers (Apache httpd with `mod_dav_fs`, `rclone serve
/// webdav`) that each test starts on loopback, serving the workspace's container folder: what the
/// server holds is read and changed on its disk, as another client of the server would change it.
@Suite("seams-sync with a WebDAV container")
struct WebDAVEndToEndTests {
    static let user = "seams"
    static let password = "e2e-secret"

    /// A workspace whose container folder a real server serves.
    final class Served {
        let workspace: Workspace
        let server: LocalWebDAVServer

        init(_ kind: LocalWebDAVServer.Kind) throws {
            workspace = try Workspace()
            server = try LocalWebDAVServer.start(
                kind, serving: workspace.container, user: WebDAVEndToEndTests.user,
                password: WebDAVEndToEndTests.password)
        }

        deinit { server.stop() }

        /// What the server's folder holds for its clients: Apache's `.DAV` property folders are its own.
        var servedTree: [String: String] {
            workspace.tree(served).filter { !$0.key.hasPrefix(".DAV") && !$0.key.contains("/.DAV") }
        }

        var local: URL { workspace.local }
        var served: URL { workspace.container }

        func sync(_ extra: [String] = [], password: String = WebDAVEndToEndTests.password) throws -> CLI.Result {
            try CLI.run(
                ["sync", workspace.local.path, server.baseURL.absoluteString, "--state-dir", workspace.state.path]
                    + extra,
                environment: ["SEAMS_WEBDAV_USER": WebDAVEndToEndTests.user, "SEAMS_WEBDAV_PASSWORD": password])
        }
    }

    /// The command lines of the running processes that hold `text` (read from `/proc`).
    static func processes(naming text: String) -> [String] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return ids.filter { $0.allSatisfy(\.isNumber) }.compactMap { id in
            guard let data = FileManager.default.contents(atPath: "/proc/\(id)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return line.contains(text) ? line : nil
        }
    }

    /// Writes an executable script through a descriptor closed on `exec`: a process another
    /// test starts meanwhile cannot inherit it open for writing, which would make every later
    /// `exec` of the script fail with ETXTBSY ("Text file busy") for as long as that process runs.
    static func writeExecutable(_ text: String, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    static func available(_ kind: LocalWebDAVServer.Kind) -> Bool {
        if let reason = LocalWebDAVServer.unavailableReason(kind) {
            print("skipped on \(kind): \(reason)")
            return false
        }
        return true
    }

    @Test(
        "demo --webdav starts rclone serve webdav (the password in its environment, not its arguments), syncs through it, and stops it"
    )
    func demo() async throws {
        try await offPool {
            guard Self.available(.rclone) else { return }
            let w = try Workspace()
            // An `rclone` first on PATH that writes down its arguments and environment, then runs the real one.
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let rclone = try #require(
                path.split(separator: ":").map { "\($0)/rclone" }.first {
                    FileManager.default.isExecutableFile(atPath: $0)
                })
            let wrapper = w.base.appending(path: "bin", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: wrapper, withIntermediateDirectories: true)
            let record = w.base.appending(path: "rclone-seen")
            let script =
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record.path).args'\nenv > '\(record.path).env'\nexec '\(rclone)' \"$@\"\n"
            try Self.writeExecutable(script, to: wrapper.appending(path: "rclone"))
            let result = try CLI.run(
                ["demo", "--webdav"], environment: ["TMPDIR": w.base.path, "PATH": wrapper.path + ":" + path])
            try #require(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            let arguments = try String(contentsOf: URL(filePath: record.path + ".args"), encoding: .utf8)
            let environment = try String(contentsOf: URL(filePath: record.path + ".env"), encoding: .utf8).split(
                separator: "\n")
            let password = try #require(
                environment.first { $0.hasPrefix("RCLONE_PASS=") }?.dropFirst("RCLONE_PASS=".count))
            #expect(password.count >= 32, "a random password: \(password)")
            #expect(environment.contains("RCLONE_USER=demo"))
            #expect(!arguments.contains(password), "the password is on rclone's command line: \(arguments)")
            #expect(arguments.hasPrefix("serve\nwebdav\n"), "\(arguments)")
            #expect(!result.stdout.contains(password) && !result.stderr.contains(password), "the password is printed")
            #expect(result.stdout.contains("served by: rclone serve webdav at http://127.0.0.1:"), "\(result.stdout)")
            #expect(result.stdout.contains("identical on both sides"))
            #expect(result.stdout.contains("1 conflicts kept both"))
            let made = try FileManager.default.contentsOfDirectory(atPath: w.base.path).filter {
                $0.hasPrefix("seams-sync-demo-")
            }
            let demo = try #require(made.first.map { w.base.appending(path: $0) })
            #expect(
                w.trashed(demo.appending(path: "container"))["notes.txt"] == "Shopping: milk, bread\n",
                "the server's trash keeps the replaced version")
            // The server ended with the demo: no process names the demo's folder any more.
            #expect(Self.processes(naming: demo.path) == [], "rclone still runs")
        }
    }

    @Test("demo --webdav without rclone says what to install and exits 3")
    func demoWithoutServer() async throws {
        try await offPool {
            let w = try Workspace()
            let result = try CLI.run(
                ["demo", "--webdav"], environment: ["TMPDIR": w.base.path, "PATH": "/nonexistent"])
            #expect(result.status == 3, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("rclone is not installed"), "\(result.stderr)")
            #expect(result.stderr.contains("apt-get install rclone"))
        }
    }

    @Test("first sync, edits both ways, a conflict, a deletion", arguments: LocalWebDAVServer.Kind.allCases)
    func flow(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            let ws = pair.workspace
            try ws.write("hello", "a.txt", in: pair.local)
            try ws.write("deep", "sub dir/é #1.txt", in: pair.local)
            try ws.write("from the server", "remote.md", in: pair.served)

            var result = try pair.sync(["--json"])
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(
                ws.tree(pair.local) == [
                    "a.txt": "hello", "sub dir": "/", "sub dir/é #1.txt": "deep", "remote.md": "from the server",
                ])
            #expect(pair.servedTree == ws.tree(pair.local))
            result = try pair.sync()
            #expect(result.status == 0)
            #expect(
                result.stdout.contains("0 to container, 0 to local"), "a second run changes nothing: \(result.stdout)")

            // Edits both ways (sizes differ: the server's dates have whole seconds).
            try ws.write("hello, edited locally", "a.txt", in: pair.local)
            try ws.write("from the server, edited there", "remote.md", in: pair.served)
            result = try pair.sync()
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(ws.read("a.txt", in: pair.served) == "hello, edited locally")
            #expect(ws.read("remote.md", in: pair.local) == "from the server, edited there")
            #expect(ws.trashed(pair.served)["a.txt"] == "hello", "the replaced version is kept in the server's trash")

            // Both sides edit one file: both versions are kept on both sides.
            try ws.write("local version", "a.txt", in: pair.local)
            try ws.write("the server's longer version", "a.txt", in: pair.served)
            result = try pair.sync(["--json"])
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            let report = try #require(try result.json()["report"] as? [String: Any])
            let conflicts = try #require(report["conflicts"] as? [[String: Any]])
            #expect(conflicts.count == 1)
            let localNames = ws.tree(pair.local)
            #expect(localNames == pair.servedTree)
            #expect(Set(localNames.values).isSuperset(of: ["local version", "the server's longer version"]))

            // A deletion goes to the other side's trash.
            try FileManager.default.removeItem(at: pair.local.appending(path: "sub dir"))
            result = try pair.sync()
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(pair.servedTree["sub dir"] == nil)
            #expect(ws.trashed(pair.served)["sub dir/é #1.txt"] == "deep")
        }
    }

    @Test(
        "refused credentials and an unreachable server are exit 3, and nothing changes",
        arguments: LocalWebDAVServer.Kind.allCases)
    func refused(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            try pair.workspace.write("x", "a.txt", in: pair.local)
            var result = try pair.sync(password: "wrong")
            #expect(result.status == 3)
            #expect(result.stderr.contains("401"), "\(result.stderr)")
            #expect(!result.stderr.contains("wrong"), "the password is never printed")
            #expect(pair.servedTree.isEmpty)
            pair.server.stop()
            result = try pair.sync()
            #expect(result.status == 3)
            #expect(result.stderr.contains("could not connect"), "\(result.stderr)")
            #expect(pair.workspace.tree(pair.local) == ["a.txt": "x"])
        }
    }

    @Test(
        "an emptied server is refused by the guard, and the local files stay",
        arguments: LocalWebDAVServer.Kind.allCases)
    func emptySideGuard(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            try pair.workspace.write("1", "one", in: pair.local)
            try pair.workspace.write("2", "two", in: pair.local)
            #expect(try pair.sync().status == 0)
            for name in ["one", "two"] { try FileManager.default.removeItem(at: pair.served.appending(path: name)) }
            let result = try pair.sync()
            #expect(result.status == 3, "\(result.stderr)")
            #expect(pair.workspace.tree(pair.local) == ["one": "1", "two": "2"])
        }
    }

    @Test("a lock held by a live run on the server is exit 4", arguments: LocalWebDAVServer.Kind.allCases)
    func locked(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            try pair.workspace.write("x", "a.txt", in: pair.local)
            let record = Workspace.lockRecord(owner: "another run", heartbeat: Date())
            try Data(record.utf8).write(to: pair.served.appending(path: ".seams-lock"))
            let result = try pair.sync()
            #expect(result.status == 4, "\(result.stderr)")
            #expect(pair.servedTree.isEmpty)
        }
    }

    @Test(
        "a killed run's lock and temp files on the server are taken over and removed at once (the lock appears whole by MOVE)",
        arguments: LocalWebDAVServer.Kind.allCases)
    func killedRunsLock(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            try pair.workspace.write("x", "a.txt", in: pair.local)
            // What a run killed while it took the lock leaves: its lock (a process that no longer
            // exists, above any id the kernel hands out) and its lock's temp file.
            let record = Workspace.lockRecord(owner: "a killed run", heartbeat: Date(), pid: 1 << 30)
            try Data(record.utf8).write(to: pair.served.appending(path: ".seams-lock"))
            try Data(record.utf8).write(to: pair.served.appending(path: ".seams-tmp-lock-new-killed"))
            let started = ContinuousClock.now
            let result = try pair.sync()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                ContinuousClock.now - started < .seconds(50),
                "taken over at once, not after watching it for the expiry (60 s)")
            #expect(pair.servedTree == ["a.txt": "x"])
            let own = try FileManager.default.contentsOfDirectory(atPath: pair.served.path).filter {
                $0.hasPrefix(".seams-lock") || $0.hasPrefix(".seams-tmp")
            }
            #expect(own.isEmpty, "\(own)")
        }
    }

    @Test(
        "a server that goes away mid-run: the run ends with a clear error, nothing is lost, and the next run finishes",
        arguments: LocalWebDAVServer.Kind.allCases)
    func serverGoesAwayMidRun(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            let ws = pair.workspace
            var expected: [String: String] = [:]
            for index in 0..<400 {
                let path = "d\(index % 8)/file \(index).txt"
                try ws.write("content \(index)", path, in: pair.local)
                expected[path] = "content \(index)"
            }
            for folder in 0..<8 { expected["d\(folder)"] = "/" }
            let started = try CLI.start(
                ["sync", pair.local.path, pair.server.baseURL.absoluteString, "--state-dir", ws.state.path],
                environment: ["SEAMS_WEBDAV_USER": Self.user, "SEAMS_WEBDAV_PASSWORD": Self.password])
            // Stop the server once some files have arrived: counted by listing the folders, not
            // by reading every file (under the thread sanitizer a full read per look let the whole
            // run finish before the count saw 40).
            func placed() -> Int {
                (0..<8).reduce(0) { count, folder in
                    let names = try? FileManager.default.contentsOfDirectory(
                        atPath: pair.served.appending(path: "d\(folder)").path)
                    return count + (names ?? []).filter { $0.hasPrefix("file ") }.count
                }
            }
            let deadline = Date(timeIntervalSinceNow: 60)
            while started.process.isRunning, Date() < deadline, placed() < 40 {
                usleep(1_000)
            }
            pair.server.stop()
            let stoppedAt = Date()
            let cut = try CLI.wait(started)
            let lingered = Date().timeIntervalSince(stoppedAt)
            print("\(kind): the run ended \(String(format: "%.1f", lingered)) s after its server went away")
            #expect(lingered < 30, "the rest of the run fails at once, not after retries per file")
            #expect(
                cut.status == 5,
                "a run whose server went away leaves the rest for the next run: \(cut.status) \(cut.stdout) \(cut.stderr)"
            )
            #expect(
                cut.stderr.contains("stopped answering during the run") || cut.stdout.contains("failed"),
                "\(cut.stdout) \(cut.stderr)")
            #expect(!cut.stderr.contains("Fatal error"), "\(cut.stderr)")
            #expect(ws.tree(pair.local) == expected, "the local side is untouched")
            // What reached the server is whole: every file there has its full content.
            for (path, content) in pair.servedTree where content != "/" {
                #expect(expected[path] == content, "\(path) on the server")
            }

            try pair.server.restart()
            let next = try pair.sync()
            #expect(next.status == 0, "\(next.stdout) \(next.stderr)")
            #expect(ws.tree(pair.local) == expected)
            #expect(pair.servedTree == expected)
            let settled = try pair.sync()
            #expect(
                settled.status == 0 && settled.stdout.contains("0 to container, 0 to local"),
                "\(settled.stdout) \(settled.stderr)")
        }
    }

    @Test(
        "two runs at once on one server: one syncs, the other is refused by the lock (exit 4); nothing is lost",
        arguments: LocalWebDAVServer.Kind.allCases)
    func twoRunsAtOnce(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            let ws = pair.workspace
            // A second machine's folder, with its own state, syncing with the same collection.
            let other = ws.base.appending(path: "other", directoryHint: .isDirectory)
            let otherState = ws.base.appending(path: "other-state", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            for index in 0..<150 {
                try ws.write("mine \(index)", "mine/\(index).txt", in: pair.local)
                try ws.write("theirs \(index)", "theirs/\(index).txt", in: other)
            }
            let environment = ["SEAMS_WEBDAV_USER": Self.user, "SEAMS_WEBDAV_PASSWORD": Self.password]
            let first = try CLI.start(
                ["sync", pair.local.path, pair.server.baseURL.absoluteString, "--state-dir", ws.state.path],
                environment: environment)
            let second = try CLI.start(
                ["sync", other.path, pair.server.baseURL.absoluteString, "--state-dir", otherState.path],
                environment: environment)
            let results = [try CLI.wait(first), try CLI.wait(second)]
            for result in results {
                #expect([0, 4].contains(result.status), "\(result.status) \(result.stdout) \(result.stderr)")
            }
            #expect(results.contains { $0.status == 0 }, "one of the two runs syncs")
            // Whatever happened, running each side again until both settle brings all 300 files everywhere.
            for _ in 0..<2 {
                _ = try pair.sync()
                _ = try CLI.run(
                    ["sync", other.path, pair.server.baseURL.absoluteString, "--state-dir", otherState.path],
                    environment: environment)
            }
            let everything = ws.tree(pair.local)
            #expect(everything.filter { $0.value != "/" }.count == 300)
            #expect(ws.tree(other) == everything)
            #expect(pair.servedTree == everything)
            #expect(ws.trashed(pair.served).isEmpty, "nothing was replaced or deleted")
        }
    }

    @Test(
        "credentials are read from ~/.netrc when the environment has none", arguments: [LocalWebDAVServer.Kind.rclone])
    func netrc(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard Self.available(kind) else { return }
            let pair = try Served(kind)
            try pair.workspace.write("x", "a.txt", in: pair.local)
            let home = pair.workspace.base.appending(path: "home", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let netrc =
                "machine other.example login nobody password nothing\n\nmachine 127.0.0.1\n  login \(Self.user)\n  password \(Self.password)\n"
            try Data(netrc.utf8).write(to: home.appending(path: ".netrc"))
            let result = try CLI.run(
                [
                    "sync", pair.local.path, pair.server.baseURL.absoluteString, "--state-dir",
                    pair.workspace.state.path,
                ], environment: ["HOME": home.path])
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(pair.servedTree == ["a.txt": "x"])
        }
    }

    @Test("plain http to another machine is refused unless allowed; credentials in the URL are refused")
    func insecure() async throws {
        try await offPool {
            let ws = try Workspace()
            var result = try CLI.run([
                "sync", ws.local.path, "http://dav.example.com/notes/", "--state-dir", ws.state.path,
            ])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--allow-insecure-http"))
            result = try CLI.run([
                "sync", ws.local.path, "https://me:secret@dav.example.com/notes/", "--state-dir", ws.state.path,
            ])
            #expect(result.status == 2)
            #expect(!result.stderr.contains("secret"))
        }
    }
}
