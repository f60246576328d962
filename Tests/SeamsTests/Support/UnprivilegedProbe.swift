import Foundation
import Testing

/// Runs `seams-live-probe` (built beside the tests) as an unprivileged user, so the live
/// implementations meet real permission errors: root ignores permission bits, so when the tests
/// run as root the probe runs as uid/gid 65534 through `setpriv`.
enum UnprivilegedProbe {
    /// What the probe printed: `ok …` or `error DOMAIN CODE ERRNO`.
    struct Outcome: Equatable, CustomStringConvertible {
        let line: String
        var description: String { line }

        /// `(code, errno)` for an error line.
        var error: (code: Int, errno: Int32)? {
            let parts = line.split(separator: " ")
            guard parts.count == 4, parts[0] == "error", let code = Int(parts[2]), let number = Int32(parts[3])
            else { return nil }
            return (code, number)
        }
    }

    static var probeURL: URL {
        var folder = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is `.build/debug/SeamsPackageTests.xctest`; on macOS the
        // bundle's executable sits three levels deeper inside the .xctest bundle.
        for _ in 0..<4 {
            let candidate = folder.appending(path: "seams-live-probe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "seams-live-probe")
    }

    static var isRoot: Bool { getuid() == 0 }

    static let setprivURL = URL(filePath: "/usr/bin/setpriv")

    /// Whether the probe can run unprivileged: the tests are not root, or `setpriv` is there.
    static var canRunUnprivileged: Bool {
        !isRoot || FileManager.default.isExecutableFile(atPath: setprivURL.path)
    }

    /// Runs the probe and returns the line it printed.
    ///
    /// - Parameters:
    ///   - arguments: The probe's command line.
    ///   - unprivileged: Whether a root test run drops to uid/gid 65534 for it (the default), or
    ///     runs it as root.
    static func run(
        _ arguments: String..., unprivileged: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let process = Process()
        if isRoot && unprivileged {
            process.executableURL = setprivURL
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", probeURL.path] + arguments
        } else {
            process.executableURL = probeURL
            process.arguments = arguments
        }
        // No runtime backtracer in the child: it would inherit the pipe, and a blocked one keeps
        // the read below from ever seeing the end.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "probe exited \(process.terminationStatus)", sourceLocation: sourceLocation)
        return Outcome(line: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
    }
}
