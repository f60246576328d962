public import Foundation
import SeamsCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real WebDAV server on loopback for tests: Apache httpd with `mod_dav_fs`, or
/// `rclone serve webdav`, serving a local folder on a free port behind HTTP Basic auth.
///
/// ```swift
/// @Test(arguments: LocalWebDAVServer.Kind.allCases)
/// func roundTrip(kind: LocalWebDAVServer.Kind) throws {
///     let folder = try makeTemporaryFolder()
///     let server = try LocalWebDAVServer.start(kind, serving: folder)
///     defer { server.stop() }
///     // requests to server.baseURL with server.user / server.password reach `folder`
/// }
/// ```
///
/// The server runs as a child process through `setpriv --pdeathsig KILL`, so it dies with the
/// test process even when that one crashes; ``stop()`` (or the last reference going away) ends
/// it and removes its private folder (config, logs, lock database). Apache refuses to run as
/// root: when the tests are root it runs as uid/gid 65534 with the capabilities `DAC_OVERRIDE`
/// and `FOWNER`, so it can still read and write whatever the tests put in the served folder. Files
/// it creates then belong to uid 65534; the tests, as root, read and write them all the same.
public final class LocalWebDAVServer: Sendable {
    /// Which server program to run.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Apache httpd 2.4 with `mod_dav` and `mod_dav_fs`; ``LocalWebDAVServer/baseURL`` is
        /// `http://127.0.0.1:PORT/dav/`.
        case apache
        /// `rclone serve webdav` on the local backend; ``LocalWebDAVServer/baseURL`` is
        /// `http://127.0.0.1:PORT/`.
        case rclone

        /// The server's name, for test names and messages.
        public var description: String {
            switch self {
            case .apache: "Apache mod_dav_fs"
            case .rclone: "rclone serve webdav"
            }
        }
    }

    /// Why a server could not be started.
    public enum StartError: Error, Equatable, CustomStringConvertible {
        /// The program or something it needs is missing here: the sentence of
        /// ``LocalWebDAVServer/unavailableReason(_:)``.
        case notInstalled(String)
        /// The served folder, the private folder, the password file or a port could not be made
        /// ready; the message says which and why.
        case couldNotPrepare(String)
        /// The server exited, or did not accept connections within a minute; `output` is what
        /// it wrote (standard output, standard error and, for Apache, its error log).
        case didNotStart(Kind, output: String)

        /// The reason, for test failures.
        public var description: String {
            switch self {
            case .notInstalled(let reason): "cannot start a WebDAV server: \(reason)"
            case .couldNotPrepare(let message): "cannot start a WebDAV server: \(message)"
            case .didNotStart(let kind, let output): "\(kind) did not start; its output:\n\(output)"
            }
        }
    }

    /// The program run.
    public let kind: Kind
    /// The collection that maps to ``folder``, ending in `/`: `http://127.0.0.1:PORT/dav/` for
    /// Apache, `http://127.0.0.1:PORT/` for rclone.
    public let baseURL: URL
    /// The local folder served.
    public let folder: URL
    /// The one user name the server accepts.
    public let user: String
    /// That user's password.
    public let password: String

    private let running: LockedValue<ServerLaunch?>

    /// Whether a server of `kind` can be started here.
    ///
    /// ```swift
    /// if let reason = LocalWebDAVServer.unavailableReason(.apache) { print("skipped: \(reason)") }
    /// ```
    ///
    /// - Parameter kind: The server program.
    /// - Returns: `nil` when it can; otherwise a sentence saying what is missing, such as
    ///   "apache2 is not installed (Debian package apache2)".
    public static func unavailableReason(_ kind: Kind) -> String? {
        let isRoot = System.isRoot
        if isRoot, !FileManager.default.isExecutableFile(atPath: ServerLaunch.setpriv) {
            return "the tests run as root and /usr/bin/setpriv (util-linux) is missing, "
                + "so the server cannot be tied to the test process or run unprivileged"
        }
        switch kind {
        case .apache: return ApacheConfiguration.unavailableReason
        case .rclone:
            return RcloneConfiguration.executable == nil ? "rclone is not installed (Debian package rclone)" : nil
        }
    }

    /// Starts a server of `kind` serving `folder` to one user, on a free port of 127.0.0.1.
    ///
    /// Returns once the server accepts connections. A port another process took in the
    /// meantime is replaced by a new one, up to five times.
    ///
    /// ```swift
    /// let server = try LocalWebDAVServer.start(.rclone, serving: folder, user: "ana", password: "pw")
    /// var request = URLRequest(url: server.baseURL.appending(path: "notes.txt"))
    /// ```
    ///
    /// - Parameters:
    ///   - kind: The server program.
    ///   - folder: An existing folder, served as ``baseURL``.
    ///   - user: The user name the server accepts.
    ///   - password: That user's password.
    /// - Returns: The running server; call ``stop()`` when done (the last reference going away
    ///   stops it too).
    /// - Throws: ``StartError/notInstalled(_:)`` when ``unavailableReason(_:)`` is not `nil`,
    ///   ``StartError/couldNotPrepare(_:)`` when `folder` is not a folder or the server's private
    ///   folder cannot be written, ``StartError/didNotStart(_:output:)`` when the server exits or
    ///   does not accept connections within a minute (a busy machine can take many seconds).
    public static func start(
        _ kind: Kind, serving folder: URL, user: String = "seams", password: String = "seams-secret"
    ) throws(StartError) -> LocalWebDAVServer {
        if let reason = unavailableReason(kind) { throw .notInstalled(reason) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .couldNotPrepare("\(folder.path) is not a folder")
        }
        for attempt in 1...5 {
            do throws(StartError) {
                let launch = try ServerLaunch.start(
                    kind, serving: folder.standardizedFileURL, user: user, password: password)
                return LocalWebDAVServer(kind: kind, folder: folder, user: user, password: password, launch: launch)
            } catch {
                // Another process took the port between our pick and the server's bind: pick again.
                guard attempt < 5, case .didNotStart(_, let output) = error,
                    output.lowercased().contains("address already in use")
                else { throw error }
            }
        }
        preconditionFailure("unreachable: the last attempt returns or throws")
    }

    private init(kind: Kind, folder: URL, user: String, password: String, launch: ServerLaunch) {
        self.kind = kind
        self.folder = folder
        self.user = user
        self.password = password
        let root = URL(string: "http://127.0.0.1:\(launch.port)/")!
        baseURL = kind == .apache ? root.appending(path: "dav/", directoryHint: .isDirectory) : root
        running = LockedValue(launch)
    }

    /// Ends the server and removes its private folder; does nothing when it has ended already.
    ///
    /// Sends `SIGTERM`, then `SIGKILL` if the server still runs 3 seconds later, and returns once
    /// it has exited. The served folder stays as it is.
    public func stop() {
        running.withLock { launch in
            launch?.stop()
            launch = nil
        }
    }

    /// Starts the server again after ``stop()``, on the same port (so ``baseURL`` holds), as a
    /// server that was restarted after going away mid-run comes back.
    ///
    /// - Throws: ``StartError/didNotStart(_:output:)`` when it does not accept connections within
    ///   a minute (another process may have taken the port meanwhile).
    public func restart() throws(StartError) {
        let port =
            running.withLock { launch -> Int? in
                defer {
                    launch?.stop()
                    launch = nil
                }
                return launch?.port
            } ?? baseURL.port ?? 0
        let launch = try ServerLaunch.start(
            kind, serving: folder.standardizedFileURL, user: user, password: password, port: port)
        running.withLock { $0 = launch }
    }

    deinit {
        stop()
    }
}

// MARK: - Launch

/// One started server process and its private folder (config, password file, logs).
private struct ServerLaunch: Sendable {
    static let setpriv = LoopbackProcess.setpriv

    let kind: LocalWebDAVServer.Kind
    let loopback: LoopbackProcess

    var port: Int { loopback.port }
    var process: Process { loopback.process }

    /// Writes the server's configuration into a new private folder, starts it on `chosen` (or a
    /// free port), and waits until it answers there.
    static func start(
        _ kind: LocalWebDAVServer.Kind, serving folder: URL, user: String, password: String, port chosen: Int? = nil
    ) throws(LocalWebDAVServer.StartError) -> ServerLaunch {
        let workFolder = FileManager.default.temporaryDirectory
            .appending(path: "seams-webdav-\(kind.rawValue)-\(UUID().uuidString)", directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        } catch {
            throw .couldNotPrepare("cannot make \(workFolder.path): \(error)")
        }
        let launch: ServerLaunch
        do throws(LocalWebDAVServer.StartError) {
            let port: Int
            if let chosen { port = chosen } else { port = try System.freePort() }
            let command: [String]
            switch kind {
            case .apache:
                command = try ApacheConfiguration.write(
                    into: workFolder, serving: folder, port: port, user: user, password: password)
            case .rclone:
                command = try RcloneConfiguration.command(
                    workFolder: workFolder, serving: folder, port: port, user: user, password: password)
            }
            do throws(LoopbackProcess.Failure) {
                // Apache will not serve as root: it runs as nobody, with the two capabilities that
                // let it read and write every file the tests (root) make in the served folder.
                launch = ServerLaunch(
                    kind: kind,
                    loopback: try LoopbackProcess.spawn(
                        label: "LocalWebDAVServer \(kind.rawValue)", command: command, port: port,
                        workFolder: workFolder, asNobodyWithFileCapabilities: kind == .apache,
                        environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": workFolder.path, "LANG": "C"]))
            } catch {
                throw .didNotStart(kind, output: error.output)
            }
        } catch {
            try? FileManager.default.removeItem(at: workFolder)
            throw error
        }
        if launch.loopback.waitUntilListening(within: .seconds(60)) { return launch }
        let output = launch.output()
        launch.stop()
        throw .didNotStart(kind, output: output)
    }

    /// What the server wrote: its standard output and error, then Apache's error log.
    func output() -> String { loopback.output(logs: ["output.log", "error.log"]) }

    /// Stops the server and removes its private folder.
    func stop() { loopback.stop() }
}

// MARK: - Apache

/// Apache httpd 2.4 as Debian installs it, with a configuration of our own (none of
/// `/etc/apache2` is read, so none of Debian's `APACHE_*` variables is needed).
private enum ApacheConfiguration {
    static let executable = "/usr/sbin/apache2"
    static let htpasswd = "/usr/bin/htpasswd"
    static let modulesFolder = "/usr/lib/apache2/modules"
    /// The modules loaded: one process of the event MPM (run with `-X`), Basic auth against a
    /// password file, `Alias`, content types, and WebDAV on the file system.
    static let modules = [
        "mpm_event", "authz_core", "authn_core", "authn_file", "authz_user", "auth_basic", "alias", "mime", "dav",
        "dav_fs",
    ]

    static var unavailableReason: String? {
        let files = FileManager.default
        if !files.isExecutableFile(atPath: executable) { return "apache2 is not installed (Debian package apache2)" }
        if !files.isExecutableFile(atPath: htpasswd) {
            return "htpasswd is not installed (Debian package apache2-utils)"
        }
        if let missing = modules.first(where: { !files.fileExists(atPath: "\(modulesFolder)/mod_\($0).so") }) {
            return "the Apache module mod_\(missing) is missing from \(modulesFolder)"
        }
        return nil
    }

    /// Writes `httpd.conf` and `htpasswd` into `work`; returns the command that runs Apache.
    static func write(
        into work: URL, serving folder: URL, port: Int, user: String, password: String
    ) throws(LocalWebDAVServer.StartError) -> [String] {
        let passwords = work.appending(path: "htpasswd")
        try System.run(htpasswd, ["-bc", passwords.path, user, password], output: work.appending(path: "htpasswd.log"))
        let run = work.appending(path: "run", directoryHint: .isDirectory)
        let documents = work.appending(path: "empty", directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        } catch {
            throw .couldNotPrepare("cannot make folders in \(work.path): \(error)")
        }
        let served = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        let lines =
            [
                "ServerRoot \(quoted(work.path))",
                "ServerName 127.0.0.1",
                "Listen 127.0.0.1:\(port)",
                "PidFile \(quoted(work.appending(path: "httpd.pid").path))",
                "ErrorLog \(quoted(work.appending(path: "error.log").path))",
                "LogLevel warn",
                "DefaultRuntimeDir \(quoted(run.path))",
                "Mutex file:\(run.path) default",
            ] + modules.map { "LoadModule \($0)_module \(quoted("\(modulesFolder)/mod_\($0).so"))" } + [
                "TypesConfig /etc/mime.types",
                "DocumentRoot \(quoted(documents.path))",
                "DavLockDB \(quoted(run.appending(path: "DavLock").path))",
                "Alias /dav/ \(quoted(served))",
                "<Directory \(quoted(served))>",
                "    Dav On",
                "    AuthType Basic",
                "    AuthName \"seams\"",
                "    AuthUserFile \(quoted(passwords.path))",
                "    Require valid-user",
                "</Directory>",
            ]
        let configuration = work.appending(path: "httpd.conf")
        do {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: configuration)
        } catch {
            throw .couldNotPrepare("cannot write \(configuration.path): \(error)")
        }
        return [executable, "-f", configuration.path, "-X", "-DFOREGROUND"]
    }

    /// A path as a quoted argument of an Apache directive.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

// MARK: - rclone

/// `rclone serve webdav` on the local backend, with no directory cache so that changes the
/// tests make in the folder directly show at once.
private enum RcloneConfiguration {
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map { "\($0)/rclone" } + ["/usr/bin/rclone"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The command that serves `folder`; an empty config file and a cache folder in `work`, so
    /// nothing of the user's rclone setup is read.
    static func command(
        workFolder work: URL, serving folder: URL, port: Int, user: String, password: String
    ) throws(LocalWebDAVServer.StartError) -> [String] {
        guard let executable else { throw .notInstalled("rclone is not installed (Debian package rclone)") }
        let configuration = work.appending(path: "rclone.conf")
        guard FileManager.default.createFile(atPath: configuration.path, contents: nil) else {
            throw .couldNotPrepare("cannot write \(configuration.path)")
        }
        return [
            executable, "serve", "webdav", folder.path,
            "--addr", "127.0.0.1:\(port)", "--user", user, "--pass", password,
            "--config", configuration.path, "--cache-dir", work.appending(path: "cache").path,
            "--dir-cache-time", "0s", "--poll-interval", "0s", "--vfs-cache-mode", "off",
        ]
    }
}

// MARK: - System calls

/// The few system calls of this file, with this server's errors.
private enum System {
    static var isRoot: Bool { LoopbackProcess.isRoot }

    /// A TCP port of 127.0.0.1 free right now: bound with port 0, read back, released.
    static func freePort() throws(LocalWebDAVServer.StartError) -> Int {
        do throws(Loopback.Failure) {
            return try Loopback.freePort()
        } catch {
            throw .couldNotPrepare(error.description)
        }
    }

    /// Runs a tool to its end, its output into `output`; throws when it fails.
    static func run(_ tool: String, _ arguments: [String], output: URL) throws(LocalWebDAVServer.StartError) {
        do throws(LoopbackProcess.Failure) {
            try LoopbackProcess.run(tool, arguments, output: output)
        } catch {
            throw .couldNotPrepare(error.output)
        }
    }
}
