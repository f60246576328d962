import Foundation
import SeamsCore
import SeamsWebDAV

/// The WebDAV server of `seams-sync demo --webdav`: `rclone serve webdav` on 127.0.0.1, on a free
/// port, serving the demo's container folder behind a user and a random password.
///
/// The password reaches rclone in its environment (`RCLONE_PASS`), not on its command line,
/// where every user of the machine could read it. rclone reads no configuration of the user's
/// (`RCLONE_CONFIG` is an empty file of the demo's) and caches no listing, so the demo's edits
/// made in the folder itself show on the server at once.
final class DemoServer {
    /// The served collection.
    let url: URL
    /// What the sync logs in with.
    let credentials: WebDAVCredentials
    private let process: Process

    /// Why the server could not be started.
    enum StartError: Error, CustomStringConvertible {
        case notInstalled
        case didNotStart(String)

        var description: String {
            switch self {
            case .notInstalled:
                "The WebDAV demo starts `rclone serve webdav` on this machine, and rclone is not installed "
                    + "(Debian and Ubuntu: apt-get install rclone; macOS: brew install rclone)."
            case .didNotStart(let output):
                "rclone serve webdav did not start: \(output)"
            }
        }
    }

    private init(url: URL, credentials: WebDAVCredentials, process: Process) {
        self.url = url
        self.credentials = credentials
        self.process = process
    }

    /// rclone's path on `PATH`, or `nil`.
    static var rclone: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/rclone" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts serving `folder` and waits until the server answers (10 s at most).
    ///
    /// - Parameters:
    ///   - folder: The folder to serve.
    ///   - work: A folder of the demo's for rclone's empty configuration, cache and log.
    /// - Throws: ``StartError``.
    static func start(serving folder: URL, work: URL) throws -> DemoServer {
        guard let rclone else { throw StartError.notInstalled }
        let port: Int
        do {
            port = try Loopback.freePort()
        } catch {
            throw StartError.didNotStart("no free port: \(error)")
        }
        let credentials = WebDAVCredentials(user: "demo", password: UUID().uuidString)
        let configuration = work.appending(path: "rclone.conf")
        let log = work.appending(path: "rclone.log")
        guard FileManager.default.createFile(atPath: configuration.path, contents: nil),
            FileManager.default.createFile(atPath: log.path, contents: nil)
        else { throw StartError.didNotStart("cannot write in \(work.path)") }
        let process = Process()
        process.executableURL = URL(filePath: rclone)
        process.arguments = [
            "serve", "webdav", folder.path, "--addr", "127.0.0.1:\(port)",
            "--cache-dir", work.appending(path: "cache").path,
            "--dir-cache-time", "0s", "--poll-interval", "0s", "--vfs-cache-mode", "off",
        ]
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": work.path,
            "RCLONE_CONFIG": configuration.path, "RCLONE_USER": credentials.user, "RCLONE_PASS": credentials.password,
        ]
        process.standardInput = FileHandle.nullDevice
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw StartError.didNotStart("\(rclone): \(error)")
        }
        let server = DemoServer(
            url: URL(string: "http://127.0.0.1:\(port)/")!, credentials: credentials, process: process)
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline, process.isRunning {
            if Loopback.acceptsConnections(port: port) { return server }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.stop()
        let said =
            (try? String(contentsOf: log, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        throw StartError.didNotStart(said.isEmpty ? "it did not answer on port \(port) within 10 seconds" : said)
    }

    /// Stops the server and waits for it to end.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
