import ArgumentParser
import SeamsSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The exit codes of the CLI contract.
enum ExitStatus: Int32 {
    /// Synced; conflicts resolved by keeping both count as success.
    case synced = 0
    /// Anything else.
    case other = 1
    /// Bad usage or bad input.
    case badUsage = 2
    /// Refused by a safety guard or an unavailable folder; nothing changed.
    case refused = 3
    /// Another run holds the lock.
    case locked = 4
    /// Finished, but some paths failed (listed; nothing lost).
    case partial = 5
    /// Stopped by SIGHUP at a safe point (what was done is recorded).
    case hangUp = 129
    /// Stopped by SIGINT (Ctrl-C) at a safe point (what was done is recorded).
    case interrupt = 130
    /// Stopped by SIGTERM at a safe point (what was done is recorded).
    case terminate = 143

    /// The status of a run stopped by signal `number`.
    static func interrupted(by number: Int32) -> ExitStatus {
        switch number {
        case SIGTERM: .terminate
        case SIGHUP: .hangUp
        default: .interrupt
        }
    }

    /// The status for an error a run threw.
    init(_ error: any Error) {
        switch error {
        case let error as SyncError:
            if error.isRefusal {
                self = .refused
            } else if case .lockHeld = error {
                self = .locked
            } else if case .serverLost = error {
                self = .partial  // what was done is kept; the next run does the rest
            } else if case .unsupportedState = error {
                self = .badUsage
            } else if case .noStateDirectory = error {
                self = .badUsage
            } else if case .overlappingFolders = error {
                self = .badUsage
            } else if case .stateInsideFolder = error {
                self = .badUsage
            } else if case .localFolderNotChosen = error {
                self = .badUsage
            } else if case .badIgnoreRule = error {
                self = .badUsage
            } else {
                self = .other
            }
        case is ValidationError:
            self = .badUsage
        default:
            self = .other
        }
    }

    /// The status of a finished run.
    init(_ report: SyncReport) {
        self = report.succeeded ? .synced : .partial
    }

    /// A word for the JSON report.
    var word: String {
        switch self {
        case .synced: "synced"
        case .other: "error"
        case .badUsage: "bad-input"
        case .refused: "refused"
        case .locked: "locked"
        case .partial: "partial"
        case .hangUp, .interrupt, .terminate: "interrupted"
        }
    }
}
