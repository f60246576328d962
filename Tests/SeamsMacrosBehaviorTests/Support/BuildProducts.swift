import Foundation
import Testing

/// The build's products and the tools the process-level tests run.
enum BuildProducts {
    /// The folder of the test runner (on Linux `.build/<triple>/debug`), which holds the other
    /// products of the same build.
    static var folder: URL {
        var folder = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the bundle's executable sits three levels deeper inside the .xctest bundle.
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: folder.appending(path: "Modules").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// What a finished process printed and how it ended.
    struct Outcome {
        var status: Int32
        var reason: Process.TerminationReason
        var output: String
        var errors: String
    }

    /// Runs `executable` with `arguments` and a plain environment (no test framework's variables).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Outcome
    {
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = arguments
        var environment = environment ?? ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        // A child that stops on purpose (the probe's fatalError) would start the Swift runtime's
        // backtracer, which inherits the child's descriptors: `Process` then waits for it too, and
        // it was seen blocked for good reading the dead child's memory (a CI run that never ended).
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        // Files, not pipes: reading one pipe to its end while the tool fills the other (a compiler's
        // long error output) would leave both waiting for ever.
        let base = FileManager.default.temporaryDirectory.appending(path: "seams-run-\(UUID().uuidString)")
        let out = base.appendingPathExtension("out")
        let err = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let outData = try Data(contentsOf: out)
        let errData = try Data(contentsOf: err)
        return Outcome(
            status: process.terminationStatus, reason: process.terminationReason,
            output: String(decoding: outData, as: UTF8.self), errors: String(decoding: errData, as: UTF8.self)
        )
    }

    /// The full path of a command found on `PATH`.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The shared libraries `binary` loads, as `ldd` lists them (all of them, not only its own).
    static func linkedLibraries(_ binary: URL) throws -> [String] {
        let outcome = try run(tool("ldd") ?? "/usr/bin/ldd", [binary.path])
        return outcome.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The libraries of the test frameworks among `libraries`.
    static func testFrameworks(in libraries: [String]) -> [String] {
        libraries.filter { line in
            ["libTesting", "libXCTest", "libIssueReportingTestSupport", "_TestingInterop"].contains {
                line.contains($0)
            }
        }
    }
}
