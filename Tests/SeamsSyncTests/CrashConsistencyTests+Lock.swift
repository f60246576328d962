import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// The lock's race window: the run reads a killed run's lock, judges it dead, moves it aside,
/// checks what it moved and places its own. Another run of this host may take the lock at any
/// call of that; this run must then refuse, leave the other run's lock where it is, and change
/// nothing else. (The power cuts of the same scenario's sweep cover a cut at every call of the
/// takeover.)
extension CrashConsistencyTests {
    /// The scenario that starts with a killed run's lock in the container.
    static let lockScenario = "a killed run's lock in the container, an edit to sync"

    @Test(
        "another run taking a killed run's lock at any call of this run's takeover keeps it: this run refuses and changes nothing",
        .disabled(if: underThreadSanitizer, "one call at a time: it tests ordering, not threads"))
    func lockTakeoverRace() async throws {
        try await offThePool { try lockTakeoverRaceSweep() }
    }

    private func lockTakeoverRaceSweep() throws {
        let scenario = try #require(CrashScenario.every.first { $0.name == Self.lockScenario })
        let lock = CrashHarness.container.appending(path: ".seams-lock")
        let probe = try CrashHarness(scenario)
        let counter = probe.boundary()
        _ = try probe.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: probe.options)
        var problems: [String] = []
        var refused = 0
        for call in 1...counter.callCount {
            let harness = try CrashHarness(scenario)
            let fileSystem = harness.fileSystem
            let before = [
                try harness.files(under: CrashHarness.local), try harness.files(under: CrashHarness.container),
            ]
            let killed = try fileSystem.read(from: lock)
            let other = Data(Fixtures.lockRecord(owner: "another run", heartbeat: fileSystem.now).utf8)
            let took = LockedValue(false)
            let boundary = harness.boundary()
            boundary.beforeCall(call) {
                // The other run takes the lock where it finds none or the killed run's: it moves
                // the killed one aside and places its own, whole, before this run's next call.
                let found = try? fileSystem.read(from: lock)
                guard found == nil || found == killed else { return }
                if found != nil { try? fileSystem.removeItem(at: lock, recursively: false) }
                if (try? fileSystem.write(other, to: lock)) != nil { took.withLock { $0 = true } }
            }
            let outcome = Result {
                try harness.engine(directories: boundary, files: boundary, runID: "run")
                    .run(
                        local: CrashHarness.local, container: CrashHarness.container,
                        stateDirectory: CrashHarness.state, options: harness.options)
            }
            let point = "the other run's lock before call \(call)"
            guard took.withLock({ $0 }) else {
                if case .failure(let error) = outcome {
                    problems.append("\(point) (not taken): the run failed: \(error)")
                }
                continue
            }
            // Whether this run's own lock had been placed before the other run came: then the
            // other run came after this one released it, and this run's work stands.
            let placed = boundary.calls.prefix(call - 1).contains {
                guard $0.operation == .linkItem, case .success = $0.outcome else { return false }
                return $0.destination?.standardizedFileURL.path == lock.path
            }
            if (try? fileSystem.read(from: lock)) != other {
                problems.append("\(point): the other run's lock is gone or changed")
            }
            for entry in try fileSystem.contentsOfDirectory(at: CrashHarness.container)
            where entry.name.hasPrefix(".seams-tmp") {
                problems.append("\(point): temp left: \(entry.name)")
            }
            if placed {
                if case .failure(let error) = outcome {
                    problems.append("\(point), after this run's release: the run failed: \(error)")
                }
                continue
            }
            refused += 1
            switch outcome {
            case .failure(let error as SyncError) where error == .lockHeld(owner: "another run"): break
            case .failure(let error): problems.append("\(point): failed with \(error), not lockHeld")
            case .success: problems.append("\(point): the run went on under the other run's lock")
            }
            let after = [
                try harness.files(under: CrashHarness.local), try harness.files(under: CrashHarness.container),
            ]
            if after != before { problems.append("\(point): the refused run changed the folders") }
        }
        #expect(
            refused >= 4, "the other run came in at every call of the takeover (write, link, read, move aside, check)")
        #expect(problems == [])
        if !problems.isEmpty, Self.failFast { Self.stopEarly.withLock { $0 = true } }
    }
}
