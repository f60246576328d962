import Foundation
import SeamsCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server program a test starts on a port of 127.0.0.1 (Apache, rclone, moto), tied to the
/// test process: where `setpriv` is there, the program gets `SIGKILL` when the thread that
/// started it ends, and that thread lives until ``stop()``; so a test process that dies never
/// leaves a server behind.
struct LoopbackProcess: Sendable {
    static let setpriv = "/usr/bin/setpriv"
    static var isRoot: Bool { geteuid() == 0 }

    /// The port it was started on.
    let port: Int
    let process: Process
    /// Its private folder: configuration, logs; removed by ``stop()``.
    let workFolder: URL
    private let release: DispatchSemaphore

    /// Why a program could not be started or run: what it printed, or why it could not run.
    struct Failure: Error, Hashable, Sendable {
        var output: String
    }

    /// Starts `command` in `workFolder`, its output to `output.log` there.
    ///
    /// - Parameters:
    ///   - label: The starting thread's name.
    ///   - command: The program and its arguments.
    ///   - port: The port it listens on.
    ///   - workFolder: Its private folder, which exists.
    ///   - asNobodyWithFileCapabilities: When the tests run as root, run it as uid 65534 with
    ///     `CAP_DAC_OVERRIDE` and `CAP_FOWNER` (a server that refuses root).
    ///   - environment: Its whole environment: nothing of the test process's reaches it.
    static func spawn(
        label: String, command: [String], port: Int, workFolder: URL, asNobodyWithFileCapabilities: Bool = false,
        environment: [String: String]
    ) throws(Failure) -> LoopbackProcess {
        var command = command
        if FileManager.default.isExecutableFile(atPath: setpriv) {
            var wrapper = [setpriv]
            if asNobodyWithFileCapabilities, isRoot {
                wrapper += [
                    "--reuid=65534", "--regid=65534", "--clear-groups",
                    "--inh-caps=+dac_override,+fowner", "--ambient-caps=+dac_override,+fowner",
                ]
            }
            command = wrapper + ["--pdeathsig", "KILL", "--"] + command
        }
        let outputURL = workFolder.appending(path: "output.log")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil),
            let output = try? FileHandle(forWritingTo: outputURL)
        else { throw Failure(output: "cannot write \(outputURL.path)") }
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(filePath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = workFolder
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output

        // `--pdeathsig` follows the thread that forks, not the process: the thread waits for
        // `stop()`, so the server lives as long as the test wants it and no longer.
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let failure = LockedValue<String?>(nil)
        let thread = Thread {
            do {
                try process.run()
            } catch {
                failure.withLock { $0 = "\(error)" }
                started.signal()
                return
            }
            started.signal()
            release.wait()
        }
        thread.name = label
        thread.start()
        started.wait()
        if let message = failure.withLock({ $0 }) {
            throw Failure(output: "\(command.joined(separator: " ")): \(message)")
        }
        return LoopbackProcess(port: port, process: process, workFolder: workFolder, release: release)
    }

    /// Waits until the program accepts connections on its port while still running (a process
    /// that took the port first answers too), or it ends, or `limit` passes.
    ///
    /// - Returns: Whether it is listening.
    func waitUntilListening(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if Loopback.acceptsConnections(port: port), process.isRunning { return true }
            if !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// What the program wrote: the named logs of its private folder that are not empty.
    func output(logs: [String] = ["output.log"]) -> String {
        logs.compactMap { try? String(contentsOf: workFolder.appending(path: $0), encoding: .utf8) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// `SIGTERM`, `SIGKILL` after 3 s, waits for the exit, then removes the private folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(3)
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
            while process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        }
        release.signal()
        try? FileManager.default.removeItem(at: workFolder)
    }

    /// Runs a tool to its end, its output into `output`; throws when it fails.
    static func run(_ tool: String, _ arguments: [String], output: URL) throws(Failure) {
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        do {
            guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: output)
            defer { try? handle.close() }
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            process.waitUntilExit()
        } catch {
            throw Failure(output: "\(tool): \(error)")
        }
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw Failure(output: "\(tool) exited with \(process.terminationStatus): \(text)")
        }
    }
}
