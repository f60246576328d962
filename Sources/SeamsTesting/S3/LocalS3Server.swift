public import Foundation
import SeamsCore

/// A real S3 server for tests: moto in server mode (PyPI `moto[server]`) on a free port of
/// 127.0.0.1, started by the test and stopped with it.
///
/// moto keeps every bucket in memory, honours `If-None-Match: *` and `If-Match` on `PUT`, and by
/// default checks no signature (any keys are accepted). It is found through the `python3` of the
/// test process's `PATH` that can import it.
///
/// ```swift
/// let server = try LocalS3Server.start()
/// defer { server.stop() }
/// let client = S3Client(endpoint: server.endpoint, bucket: "b", region: "us-east-1",
///                       credentials: LocalS3Server.credentials, transport: URLSessionHTTPTransport())
/// try client.createBucket()
/// ```
public final class LocalS3Server: Sendable {
    /// Why the server could not be started.
    public enum StartError: Error, Equatable, CustomStringConvertible {
        /// moto is not installed here; the reason says what is missing.
        case notInstalled(String)
        /// It was started but never answered; what it printed.
        case didNotStart(output: String)

        public var description: String {
            switch self {
            case .notInstalled(let reason): "cannot start an S3 server: \(reason)"
            case .didNotStart(let output): "moto did not start; its output:\n\(output)"
            }
        }
    }

    /// `http://127.0.0.1:<port>`.
    public let endpoint: URL
    private let running: LockedValue<LoopbackProcess?>

    /// Why moto cannot run here, or `nil` when it can.
    public static var unavailableReason: String? {
        python == nil ? "moto is not installed (PyPI moto[server]) for any python3 on PATH" : nil
    }

    /// The interpreter that imports `moto.server`, found once.
    private static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/python3"
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let probe = Process()
            probe.executableURL = URL(filePath: candidate)
            probe.arguments = ["-c", "import sys, moto.server; print(sys.executable)"]
            let pipe = Pipe()
            probe.standardOutput = pipe
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            probe.waitUntilExit()
            if probe.terminationStatus == 0 {
                let executable = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return executable.isEmpty ? candidate : executable
            }
        }
        return nil
    }()

    /// Any keys: moto checks none by default.
    public static let credentials = (accessKeyID: "seams-test", secretAccessKey: "seams-test-secret")

    /// Starts moto on a free port and waits until it answers.
    ///
    /// - Throws: ``StartError``.
    public static func start() throws(StartError) -> LocalS3Server {
        guard let python else { throw .notInstalled(unavailableReason ?? "moto is missing") }
        var lastOutput = ""
        for _ in 1...5 {
            let workFolder = FileManager.default.temporaryDirectory
                .appending(path: "seams-s3-moto-\(UUID().uuidString)", directoryHint: .isDirectory)
            guard (try? FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)) != nil,
                let port = try? Loopback.freePort()
            else { throw .didNotStart(output: "cannot prepare \(workFolder.path) or find a free port") }
            let launch: LoopbackProcess
            do throws(LoopbackProcess.Failure) {
                launch = try LoopbackProcess.spawn(
                    label: "LocalS3Server moto",
                    command: [python, "-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"],
                    port: port, workFolder: workFolder,
                    environment: ["PATH": "/usr/bin:/bin", "HOME": workFolder.path, "LANG": "C.UTF-8"])
            } catch {
                try? FileManager.default.removeItem(at: workFolder)
                throw .didNotStart(output: error.output)
            }
            if launch.waitUntilListening(within: .seconds(60)) {
                return LocalS3Server(port: port, launch: launch)
            }
            lastOutput = launch.output()
            launch.stop()
            // Another process took the port between our pick and moto's bind: pick again.
            guard lastOutput.lowercased().contains("address already in use") else { break }
        }
        throw .didNotStart(output: lastOutput)
    }

    private init(port: Int, launch: LoopbackProcess) {
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        running = LockedValue(launch)
    }

    /// Stops the server; its buckets are gone.
    public func stop() {
        running.withLock { launch in
            launch?.stop()
            launch = nil
        }
    }

    deinit {
        stop()
    }
}
