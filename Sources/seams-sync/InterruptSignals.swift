import Dispatch
import Foundation
import SeamsCore
import SeamsSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP during a run: the first asks the run to stop at its next safe point
/// (what is done is recorded, the lock released, exit 130, 143 or 129); a second one ends the
/// process at once, as a user pressing Ctrl-C twice expects. The lock such an exit leaves behind
/// belongs to a dead process of this host, and the next run takes it over at once.
final class InterruptSignals {
    private static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let stop: SyncStopToken
    private let sources: [any DispatchSourceSignal]
    /// The first signal that arrived.
    private let received = LockedSignal()

    /// Starts watching; the signals' default action (ending the process) is off until ``cancel()``.
    init(stop: SyncStopToken, quiet: Bool = false) {
        self.stop = stop
        let queue = DispatchQueue(label: "seams-sync.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in Self.watched {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
        }
        self.sources = sources
        for (source, number) in zip(sources, Self.watched) {
            source.setEventHandler { [received, stop] in
                if let first = received.set(number) {
                    // A second signal: the user wants out now.
                    _exit(ExitStatus.interrupted(by: first).rawValue)
                }
                stop.requestStop()
                if quiet { return }
                FileHandle.standardError.write(
                    Data(
                        "\nseams-sync: stopping at the next safe point; press Ctrl-C again to quit at once.\n".utf8))
            }
            source.resume()
        }
    }

    /// The exit status for the signal that stopped the run (SIGINT when none arrived, as when
    /// the run stopped for another reason).
    var status: ExitStatus {
        ExitStatus.interrupted(by: received.value ?? SIGINT)
    }

    /// Stops watching and gives the signals their default action back.
    func cancel() {
        for source in sources { source.cancel() }
        for number in Self.watched { signal(number, SIG_DFL) }
    }
}

/// The first signal number seen, behind a lock.
private final class LockedSignal: Sendable {
    private let first = LockedValue<Int32?>(nil)

    /// Records `number` when it is the first; returns the earlier one otherwise.
    func set(_ number: Int32) -> Int32? {
        first.withLock { value in
            if let earlier = value { return earlier }
            value = number
            return nil
        }
    }

    var value: Int32? { first.withLock { $0 } }
}
