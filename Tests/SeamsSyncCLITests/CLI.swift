import Foundation
import Testing

/// Runs the built `seams-sync` binary as a user would, on real folders in a temp dir.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

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
    static func run(_ arguments: [String], asNobody: Bool = false) throws -> Result {
        try wait(start(arguments, asNobody: asNobody))
    }

    /// Starts the tool without waiting.
    static func start(_ arguments: [String], asNobody: Bool = false) throws -> (Process, URL, URL) {
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
        process.environment = environment
        // Files, not pipes: the output is read once the process has ended, with no EINTR-prone reads.
        let base = FileManager.default.temporaryDirectory.appending(path: "seams-cli-\(UUID().uuidString)")
        let out = base.appendingPathExtension("out")
        let err = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return (process, out, err)
    }

    static func wait(_ started: (Process, URL, URL)) throws -> Result {
        let (process, out, err) = started
        process.waitUntilExit()
        let stdout = try Data(contentsOf: out)
        let stderr = try Data(contentsOf: err)
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
