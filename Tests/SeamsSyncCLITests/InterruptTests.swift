import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C, `kill` and `kill -9` on the real binary: a signal stops the run at a safe point with
/// exit 130 or 143, what was done is kept, the lock is released; a killed run's lock is taken
/// over at once by the next run.
@Suite struct InterruptTests {
    static let count = 3000

    /// A workspace with enough files that the run is still copying when the signal arrives.
    func workspace() throws -> Workspace {
        let w = try Workspace()
        for index in 0..<Self.count { try w.write("content \(index)", "d\(index % 10)/f\(index).txt", in: w.local) }
        return w
    }

    /// Starts a sync with its progress on a terminal and waits until it is copying.
    func startCopying(_ w: Workspace, extra: [String] = []) throws -> CLI.Started {
        let started = try CLI.start(
            ["sync", w.local.path, w.container.path, "--state-dir", w.state.path] + extra, stdout: .file,
            stderr: .terminal)
        let terminal = try #require(started.terminal)
        let deadline = Date().addingTimeInterval(120)
        // On a terminal the progress line tells; with --json (no progress), the first item written
        // into the first folder (a file, or a staged copy that an interruption places): the folder
        // alone is not enough, a signal right after it would stop the run before any file.
        let firstFolder = w.container.appending(path: "d0").path
        func copyingStarted() -> Bool {
            !((try? FileManager.default.contentsOfDirectory(atPath: firstFolder)) ?? []).isEmpty
        }
        while started.process.isRunning, Date() < deadline, !terminal.textSoFar.contains("syncing 64/"),
            !copyingStarted()
        {
            usleep(1000)
        }
        try #require(started.process.isRunning, "the run was still working when the signal was sent")
        return started
    }

    /// The user's files in `root` (no `.seams…` item), by path.
    func userFiles(_ w: Workspace, _ root: URL) -> [String: String] {
        w.tree(root).filter { $0.value != "/" }
    }

    func lockExists(_ w: Workspace) -> Bool {
        FileManager.default.fileExists(atPath: w.container.appending(path: ".seams-lock").path)
    }

    func leftovers(_ w: Workspace) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: w.container.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.split(separator: "/").last?.hasPrefix(".seams-tmp") == true { found.append(path) }
        }
        return found
    }

    @Test(
        "Ctrl-C (SIGINT): stops between paths, exit 130, says how far it got; what was copied is whole; the next run finishes"
    )
    func sigint() async throws {
        try await offPool {
            let w = try workspace()
            let started = try startCopying(w)
            kill(started.process.processIdentifier, SIGINT)
            let result = try CLI.wait(started)
            #expect(result.status == 130, "\(result.stdout)\(result.terminal)")
            let line = try #require(
                result.stdout.split(separator: "\n").first { $0.hasPrefix("interrupted: ") }, "\(result.stdout)")
            let done = try #require(Int(line.dropFirst("interrupted: ".count).prefix { $0.isNumber }))
            #expect(line == "interrupted: \(done) of \(Self.count + 10) done; run again to finish.")
            #expect(result.terminal.contains("stopping at the next safe point"))
            #expect(!lockExists(w), "the lock is released")
            #expect(leftovers(w).isEmpty, "no temp file is left: \(leftovers(w).prefix(3))")
            let copied = userFiles(w, w.container)
            #expect(!copied.isEmpty && copied.count < Self.count)
            let local = userFiles(w, w.local)
            for (path, content) in copied { #expect(local[path] == content, "\(path) is a whole copy") }

            let next = try w.sync(["--json"])
            #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
            #expect(userFiles(w, w.container) == local)
            let report = try #require(try next.json()["report"] as? [String: Any])
            #expect(
                report["copiedToContainer"] as? Int == Self.count - copied.count,
                "the state recorded the first run's copies")
            #expect((report["conflicts"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("kill (SIGTERM) with --json: exit 143 and one JSON report that says interrupted; the lock is released")
    func sigterm() async throws {
        try await offPool {
            let w = try workspace()
            let started = try startCopying(w, extra: ["--json"])
            kill(started.process.processIdentifier, SIGTERM)
            let result = try CLI.wait(started)
            #expect(result.status == 143, "\(result.stdout)")
            let json = try result.json()
            #expect(json["status"] as? String == "interrupted")
            #expect(json["exitCode"] as? Int == 143)
            #expect(!lockExists(w))
            #expect(try w.sync().status == 0)
            #expect(userFiles(w, w.container) == userFiles(w, w.local))
        }
    }

    @Test(
        "kill -9 mid-run leaves the lock; the next run takes it over at once (its owner is dead) and finishes; nothing is lost"
    )
    func sigkill() async throws {
        try await offPool {
            let w = try workspace()
            let started = try startCopying(w)
            kill(started.process.processIdentifier, SIGKILL)
            let killed = try CLI.wait(started)
            #expect(
                killed.status == SIGKILL || killed.status == 128 + SIGKILL
                    || started.process.terminationReason == .uncaughtSignal)
            #expect(lockExists(w), "a killed run cannot release its lock")
            let next = try w.sync()
            #expect(next.status == 0, "not refused as 'another sync is running': \(next.stdout)\(next.stderr)")
            #expect(userFiles(w, w.container) == userFiles(w, w.local))
            #expect(userFiles(w, w.local).count == Self.count)
            #expect(!lockExists(w))
            #expect(leftovers(w).isEmpty, "the killed run's temp files are removed")
        }
    }

    @Test("a second Ctrl-C quits at once with 130; the lock it may leave is taken over by the next run at once")
    func secondSigint() async throws {
        try await offPool {
            let w = try workspace()
            let started = try startCopying(w)
            kill(started.process.processIdentifier, SIGINT)
            kill(started.process.processIdentifier, SIGINT)
            let result = try CLI.wait(started)
            #expect(result.status == 130)
            let next = try w.sync()
            #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
            #expect(userFiles(w, w.container) == userFiles(w, w.local))
        }
    }

    @Test("no HOME, no XDG_STATE_HOME and no --state-dir: exit 2 with a clear message, nothing written")
    func noStateFolder() async throws {
        try await offPool {
            let w = try workspace()
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["sync", w.local.path, w.container.path]
            process.environment = ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2)
            #expect(
                message.contains("No folder for the sync state: set HOME or XDG_STATE_HOME, or pass --state-dir."),
                "\(message)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.container.path).isEmpty)
        }
    }
}
