import ArgumentParser
import Foundation
import SeamsAsyncHTTPClient
import SeamsCore
import SeamsS3
import SeamsSync
import SeamsWebDAV

/// `seams-sync sync LOCAL CONTAINER`: one two-way sync of two folders.
///
/// A synchronous command: the run is the engine's blocking overload, called on the main thread,
/// so no thread hands the run to another before it starts or after it ends (on a busy machine a
/// thread handed work waits for a core, about a scheduler tick each time).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync LOCAL with CONTAINER, two-way; deleted and replaced versions go to .seams-trash."
    )

    @OptionGroup var pair: PairOptions

    @Flag(name: .customLong("dry-run"), help: "Show what would change; change nothing.")
    var dryRun = false

    func run() throws {
        let output = Output(json: pair.json)
        let prepared = try pair.prepare(output, dryRun: dryRun)
        defer { try? prepared.transport?.shutdownWaiting() }
        let (engine, localURL, containerURL, state, options) = (
            prepared.engine, prepared.local, prepared.container, prepared.state, prepared.options
        )
        let stop = SyncStopToken()
        let signals = InterruptSignals(stop: stop)
        defer { signals.cancel() }
        let status: ExitStatus
        do {
            let report = try engine.run(
                local: localURL, container: containerURL, stateDirectory: state, options: options, stop: stop)
            status = report.interruption == nil ? ExitStatus(report) : signals.status
            output.finish(report, status: status, local: localURL, container: containerURL, listIgnored: pair.verbose)
        } catch SyncError.interrupted {
            status = signals.status
            output.fail(status, SyncError.interrupted.description)
        } catch {
            status = ExitStatus(error)
            output.fail(status, String(describing: error))
        }
        if status != .synced { throw ExitCode(status.rawValue) }
    }

}

/// The arguments and options `sync` and `watch` share: the two folders, the server's, the
/// state's place, the guards and the ignore rules.
struct PairOptions: ParsableArguments {
    /// What a run needs, made from the command line.
    struct Prepared {
        let local: URL
        let container: URL
        let state: URL
        let options: SyncOptions
        let engine: SyncEngine
        /// The HTTP client of a server container, to shut down at the end.
        let transport: AsyncHTTPClientTransport?
    }

    @Argument(help: "The local folder.")
    var local: String

    @Argument(
        help:
            "The container: a folder; a WebDAV collection's https:// URL (credentials from SEAMS_WEBDAV_USER and SEAMS_WEBDAV_PASSWORD, or ~/.netrc); or an S3 folder, s3://bucket/folder/ (keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the AWS_PROFILE in ~/.aws/credentials)."
    )
    var container: String

    @Option(
        help: ArgumentHelp(
            "With an s3:// container: the S3 server (default: the profile's endpoint_url, else AWS's for the region).",
            valueName: "URL"))
    var endpoint: String?

    @Option(help: "With an s3:// container: the region (default: AWS_REGION, the profile's, else us-east-1).")
    var region: String?

    @Flag(
        name: .customLong("path-style"), inversion: .prefixedNo,
        help:
            "With an s3:// container: name the bucket in the path (https://host/bucket/key), or with --no-path-style in the host (https://bucket.host/key). Default: path-style with --endpoint, virtual-hosted for AWS."
    )
    var pathStyle: Bool?

    @Flag(
        name: .customLong("allow-insecure-http"),
        help: "Allow a plain http:// container on another machine (the password then travels unencrypted).")
    var allowInsecureHTTP = false

    @Option(name: .customLong("state-dir"), help: "Where the sync state lives (default $XDG_STATE_HOME/seams-sync).")
    var stateDir: String?

    @Flag(help: "Print one machine-readable JSON report on standard output.")
    var json = false

    @Option(
        name: .customLong("max-delete"),
        help: "Refuse a run that deletes more than PERCENT of the known items on a side.")
    var maxDelete = 50

    @Flag(help: "Run even when a safety guard (empty side, max delete) would refuse.")
    var force = false

    @Option(
        help:
            "With a WebDAV or S3 container: at most N requests to the server at once (folder listings, uploads and downloads to temp names, new files moved into place); 1 sends them one by one."
    )
    var requests = SyncEngine.defaultRequestsInFlight

    @Option(
        name: .customLong("exclude"),
        help: ArgumentHelp(
            "Leave paths matching PATTERN alone on both sides (.gitignore syntax; repeat it for more).",
            valueName: "PATTERN"))
    var excludes: [String] = []

    @Option(
        name: .customLong("exclude-from"),
        help: ArgumentHelp(
            "Read --exclude patterns from FILE, one a line (.gitignore syntax).", valueName: "FILE"))
    var excludeFrom: [String] = []

    @Flag(
        name: .customLong("no-default-excludes"),
        help: ArgumentHelp(
            "Sync platform junk too; by default \(SyncOptions.defaultExcludePatterns.joined(separator: " ")) are left alone."
        ))
    var noDefaultExcludes = false

    @Flag(help: "List every path the ignore rules left alone.")
    var verbose = false

    func validate() throws {
        guard (0...100).contains(maxDelete) else {
            throw ValidationError("--max-delete must be a percentage from 0 to 100.")
        }
        guard (1...64).contains(requests) else {
            throw ValidationError("--requests must be from 1 to 64.")
        }
    }

    /// Checks the command line and makes what a run needs: the folders, the state's place, the
    /// options and the engine; a refusal is reported through `output` and thrown as its exit code.
    func prepare(_ output: Output, dryRun: Bool = false) throws -> Prepared {
        let localURL = Self.absolute(local)
        let remote: RemoteContainer?
        let bucket: S3Container?
        do {
            let environment = ProcessInfo.processInfo.environment
            let home = URL(filePath: environment["HOME"] ?? NSHomeDirectory(), directoryHint: .isDirectory)
            bucket = try S3Container.parse(
                container, endpoint: endpoint, region: region, pathStyle: pathStyle,
                allowInsecureHTTP: allowInsecureHTTP, environment: environment, home: home)
            let netrc = environment["HOME"].map { URL(filePath: $0).appending(path: ".netrc") }
            remote = try RemoteContainer.parse(
                container, allowInsecureHTTP: allowInsecureHTTP, environment: environment, netrc: netrc)
        } catch let refusal as S3Container.Refusal {
            output.fail(ExitStatus.badUsage, refusal.description)
            throw ExitCode(ExitStatus.badUsage.rawValue)
        } catch let refusal as RemoteContainer.Refusal {
            output.fail(ExitStatus.badUsage, refusal.description)
            throw ExitCode(ExitStatus.badUsage.rawValue)
        }
        let containerURL = bucket?.url ?? remote?.url ?? Self.absolute(container)
        let isFolder = remote == nil && bucket == nil
        if isFolder, Self.overlap(localURL, containerURL) {
            output.fail(
                ExitStatus.badUsage, "LOCAL and CONTAINER must be two separate folders, neither inside the other.")
            throw ExitCode(ExitStatus.badUsage.rawValue)
        }
        guard let state = stateDir.map(Self.absolute) ?? Self.defaultStateDirectory() else {
            output.fail(ExitStatus.badUsage, SyncError.noStateDirectory.description)
            throw ExitCode(ExitStatus.badUsage.rawValue)
        }
        if Self.contains(localURL, state) || (isFolder && Self.contains(containerURL, state)) {
            // It would be synced with the rest, and change under the run that writes it.
            output.fail(
                ExitStatus.badUsage,
                "The state folder \(state.path(percentEncoded: false)) is inside LOCAL or CONTAINER; choose another with --state-dir."
            )
            throw ExitCode(ExitStatus.badUsage.rawValue)
        }
        var options = SyncOptions()
        options.dryRun = dryRun
        options.force = force
        options.maxDeletePercent = maxDelete
        options.defaultExcludes = !noDefaultExcludes
        options.excludes = excludes
        for file in excludeFrom {
            do {
                let text = try String(contentsOf: Self.absolute(file), encoding: .utf8)
                options.excludes += SyncOptions.ignoreFileLines(text)
            } catch {
                output.fail(ExitStatus.badUsage, "--exclude-from \(file) cannot be read: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.badUsage.rawValue)
            }
        }
        // Made only for a server: a local run starts no event loop.
        let transport = isFolder ? nil : AsyncHTTPClientTransport()
        let server = remote.map {
            WebDAVAccessor(baseURL: $0.url, credentials: $0.credentials, transport: transport!)
        }
        let objectStore = bucket.map {
            S3Accessor(
                client: S3Client(
                    endpoint: $0.endpoint, bucket: $0.bucket, region: $0.region,
                    credentials: $0.configuration.credentials, addressing: $0.addressing, transport: transport!),
                prefix: $0.prefix)
        }
        let engine = SyncEngine(
            directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor(), progress: output.progress,
            requestsInFlight: requests, remote: server, objectStore: objectStore)
        return Prepared(
            local: localURL, container: containerURL, state: state, options: options, engine: engine,
            transport: transport)
    }

    static func absolute(_ path: String) -> URL {
        URL(filePath: path, directoryHint: .isDirectory, relativeTo: URL.currentDirectory()).standardizedFileURL
    }

    /// `$XDG_STATE_HOME/seams-sync` or `~/.local/state/seams-sync`; `nil` with neither set
    /// (never a temporary folder, which a reboot may empty).
    static func defaultStateDirectory() -> URL? {
        SyncManager.defaultStateDirectory()
    }

    /// Whether one folder is the other or inside it.
    static func overlap(_ a: URL, _ b: URL) -> Bool {
        contains(a, b) || contains(b, a)
    }

    /// Whether `inner` is `outer` or inside it, symbolic links resolved (as far as the path exists).
    static func contains(_ outer: URL, _ inner: URL) -> Bool {
        let outside = outer.resolvingSymlinksInPath().path(percentEncoded: false)
        let inside = inner.resolvingSymlinksInPath().path(percentEncoded: false)
        return inside == outside || inside.hasPrefix(outside.hasSuffix("/") ? outside : outside + "/")
    }
}
