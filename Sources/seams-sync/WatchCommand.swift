import ArgumentParser
import Foundation
import SeamsAsyncHTTPClient
import SeamsCore
import SeamsSync

/// `seams-sync watch LOCAL CONTAINER`: stays running and keeps the pair in step.
///
/// Each sync is the one `sync` runs, with its lock taken for that sync only; a sync started by
/// file events lists only the folders they name. One line per sync (one JSON object with
/// `--json`); Ctrl-C or SIGTERM stops at a safe point (exit 130 or 143).
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep LOCAL and CONTAINER in step: sync whenever files change, until stopped.",
        discussion: """
            Syncs at the start, then after each change of the local folder (and of a local \
            container) once nothing more changed for a moment, and every --poll seconds where \
            the container cannot be watched (a server). A sync started by changes lists only the \
            folders they name; both sides are listed whole at the start, after the system lost \
            events or the machine slept, and once an hour. A sync that fails is retried with \
            back-off (at most a minute apart). Ctrl-C or SIGTERM stops at a safe point.
            """
    )

    @OptionGroup var pair: PairOptions

    @Option(help: "How often, in seconds, a container that cannot be watched (a server) is looked at.")
    var poll = 30

    func validate() throws {
        guard (1...86_400).contains(poll) else { throw ValidationError("--poll must be from 1 to 86400 seconds.") }
    }

    func run() throws {
        let output = Output(json: pair.json)
        let prepared = try pair.prepare(output)
        defer { try? prepared.transport?.shutdownWaiting() }
        var settings = SyncWatcher.Settings()
        settings.poll = .seconds(poll)
        let watcher = SyncWatcher(engine: prepared.engine, settings: settings)
        let stop = SyncStopToken()
        let signals = InterruptSignals(stop: stop, quiet: true)
        defer { signals.cancel() }
        do {
            try watcher.run(
                local: prepared.local, container: prepared.container, stateDirectory: prepared.state,
                options: prepared.options, stop: stop
            ) { event in
                output.watched(event, local: prepared.local, container: prepared.container)
            }
        } catch SyncError.interrupted {
        } catch {
            let status = ExitStatus(error)
            output.fail(status, String(describing: error))
            throw ExitCode(status.rawValue)
        }
        throw ExitCode(signals.status.rawValue)
    }
}
