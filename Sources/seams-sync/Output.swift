import Foundation
import Logging
import SeamsSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI writes: a text summary (progress on a terminal, problems through swift-log on
/// standard error) or, with `--json`, exactly one JSON object on standard output.
struct Output: Sendable {
    private struct JSONReport: Encodable {
        var status: String
        var exitCode: Int32
        var local: String?
        var container: String?
        var error: String?
        var report: SyncReport?
    }

    let json: Bool
    let logger: Logger
    private let interactive: Bool

    init(json: Bool) {
        self.json = json
        self.interactive = !json && isatty(STDERR_FILENO) == 1
        var logger = Logger(label: "seams-sync") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .info
        self.logger = logger
    }

    /// A progress callback for the engine: one line on the terminal, updated in place at most ten
    /// times a second (and whenever the phase changes, and at the end); nothing otherwise.
    var progress: @Sendable (SyncProgress) -> Void {
        guard interactive else { return { _ in } }
        let line = ProgressLine()
        return { progress in
            if let text = line.update(progress, now: ContinuousClock.now) {
                FileHandle.standardError.write(Data(text.utf8))
            }
        }
    }

    func finish(_ report: SyncReport, status: ExitStatus, local: URL, container: URL, listIgnored: Bool = false) {
        if json {
            emit(
                JSONReport(
                    status: status.word, exitCode: status.rawValue, local: local.path,
                    container: container.isFileURL ? container.path : container.absoluteString, report: report))
            return
        }
        print(report.summary)
        if listIgnored { for path in report.ignored { print("  ignored: \(path)") } }
        if !report.failures.isEmpty {
            logger.warning(
                "\(report.failures.count) paths were not synced; nothing was lost. They will be retried on the next run."
            )
        }
    }

    /// One line for what a watcher did: a sync's summary (one JSON object with `--json`), a
    /// failure it retries, a recovery, a side it cannot watch.
    func watched(_ event: SyncWatcher.Event, local: URL, container: URL) {
        let time = Date().formatted(.iso8601.time(includingFractionalSeconds: false))
        switch event {
        case .synced(let sync):
            let status = ExitStatus(sync.report)
            if json {
                emitLine(
                    WatchLine(
                        event: "synced", reason: sync.reason.rawValue, status: status.word, report: sync.report))
            } else {
                // The sync that follows a sync's own writes finds nothing to do: no line for it.
                if sync.reason == .changes, sync.report.changedNothing { return }
                let first = sync.report.summary.split(separator: "\n", maxSplits: 1).first ?? ""
                print("\(time) synced (\(sync.reason.rawValue)): \(first)")
                for line in sync.report.summary.split(separator: "\n").dropFirst() { print("  \(line)") }
            }
        case .waiting(let error, let retry):
            let message = "\(error); retrying in \(retry.components.seconds) s, and quietly after that"
            if json { emitLine(WatchLine(event: "waiting", error: message)) } else { logger.warning("\(message)") }
        case .resumed:
            if json { emitLine(WatchLine(event: "resumed")) } else { print("\(time) syncing again") }
        case .notWatched(let side, let reason):
            let message = "the \(side) folder is not watched (\(reason)); it is listed whole at every poll"
            if json { emitLine(WatchLine(event: "notWatched", error: message)) } else { logger.warning("\(message)") }
        }
        fflush(nil)  // each line as it comes, also into a pipe
    }

    /// One line of `watch --json`.
    private struct WatchLine: Encodable {
        var event: String
        var reason: String?
        var status: String?
        var error: String?
        var report: SyncReport?
    }

    private func emitLine(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(value) { print(String(decoding: data, as: UTF8.self)) }
    }

    func fail(_ status: ExitStatus, _ message: String) {
        if json {
            emit(JSONReport(status: status.word, exitCode: status.rawValue, error: message))
        } else {
            logger.error("\(message)")
        }
    }

    /// Whether a command line asks for the JSON report: `--json` before any `--`. Read from the
    /// raw arguments, so a command line that does not parse still gets its report as JSON.
    static func requestsJSON(_ arguments: some Sequence<String>) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    private func emit(_ value: JSONReport) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(value) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
