import Foundation
import Testing

/// Runs the built `seams-sync` binary as a user would, on real folders in a temp dir.
enum CLI {
    /// Where one of the tool's output streams goes.
    enum Stream {
        /// A file, read once the tool has ended (what a pipe or a redirection gives the tool).
        case file
        /// A pseudo-terminal, as in a terminal window; its text is in ``Result/terminal``.
        case terminal
    }

    /// A started run: wait for it with ``CLI/wait(_:)``.
    struct Started {
        let process: Process
        let out: URL
        let err: URL
        let terminal: PseudoTerminal?
    }

    struct Result {
        var status: Int32
        /// What went to standard output, when it was a file.
        var stdout: String
        /// What went to standard error, when it was a file.
        var stderr: String
        /// What went to the pseudo-terminal (stdout and/or stderr, interleaved), with the
        /// terminal's `\r\n` line ends.
        var terminal: String = ""

        /// The `--json` report as a dictionary.
        func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            return try #require(object as? [String: Any], sourceLocation: sourceLocation)
        }
    }

    /// The binary next to the test bundle (SwiftPM puts products and tests in one folder).
    static let binary: URL = {
        var candidates = [URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        candidates.append(URL.currentDirectory().appending(path: ".build/debug"))
        for folder in candidates {
            let url = folder.appending(path: "seams-sync")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appending(path: "seams-sync")
    }()

    /// Runs the tool and waits.
    ///
    /// - Parameters:
    ///   - arguments: The command line after `seams-sync`.
    ///   - asNobody: Runs it as uid 65534 through `setpriv`, so permission bits count (tests run as root).
    ///   - stdout: Where standard output goes.
    ///   - stderr: Where standard error goes.
    ///   - environment: Variables set on top of the test process's environment.
    static func run(
        _ arguments: [String], asNobody: Bool = false, stdout: Stream = .file, stderr: Stream = .file,
        environment: [String: String] = [:]
    ) throws -> Result {
        try wait(start(arguments, asNobody: asNobody, stdout: stdout, stderr: stderr, environment: environment))
    }

    /// Starts the tool without waiting.
    static func start(
        _ arguments: [String], asNobody: Bool = false, stdout: Stream = .file, stderr: Stream = .file,
        environment extra: [String: String] = [:]
    ) throws -> Started {
        let process = Process()
        if asNobody {
            process.executableURL = URL(filePath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = "/nonexistent-home-for-seams-sync-tests"
        // A crash of the tool must end the test, not start the runtime's backtracer, which
        // inherits the tool's descriptors (so `Process` would wait for it) and can block for good.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        // Files, not pipes: the output is read once the process has ended, with no EINTR-prone reads.
        let base = FileManager.default.temporaryDirectory.appending(path: "seams-cli-\(UUID().uuidString)")
        let out = base.appendingPathExtension("out")
        let err = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let terminal = stdout == .terminal || stderr == .terminal ? try PseudoTerminal() : nil
        process.standardOutput =
            try terminal.flatMap { stdout == .terminal ? $0.follower : nil } ?? FileHandle(forWritingTo: out)
        process.standardError =
            try terminal.flatMap { stderr == .terminal ? $0.follower : nil } ?? FileHandle(forWritingTo: err)
        try process.run()
        return Started(process: process, out: out, err: err, terminal: terminal)
    }

    static func wait(_ started: Started) throws -> Result {
        let process = started.process
        process.waitUntilExit()
        let terminal = try started.terminal?.finish() ?? ""
        let stdout = try Data(contentsOf: started.out)
        let stderr = try Data(contentsOf: started.err)
        try? FileManager.default.removeItem(at: started.out)
        try? FileManager.default.removeItem(at: started.err)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self), terminal: terminal)
    }
}
