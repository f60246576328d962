import Foundation
import Seams
import SeamsCore
import SeamsTesting
import Testing

@testable import SeamsSync

/// The crash suite with the container on a WebDAV server (the in-memory one of `SeamsTesting`,
/// serving the container folder, so the same lineage checks read it).
///
/// For every scenario a server can hold (no symbolic links, names that do not fold case), every
/// point of an uninterrupted run is tried:
/// - a crash at each call to the local file system (the process dies; the server keeps all it
///   answered);
/// - a crash at each HTTP request, before it leaves (nothing applied) and after the server applied
///   it (the answer never read);
/// - the answer to each request lost after the server applied it while the process goes on (the
///   accessor cannot tell whether it happened; the run must not assume either);
/// - a power cut of the local machine before each local call and after the last one, under both
///   power models of the fake, keeping nothing unflushed, then parts of it (as the folder suite
///   chooses them); the server keeps all it answered.
///
/// After each, the same checks as the folder suite: every path holds only versions of its own
/// history, no version is lost, and a recovery run (once a lock left on the server has expired)
/// finishes and ends where an uninterrupted run ends.
@Suite struct WebDAVCrashTests {
    /// The scenarios a WebDAV server can hold: no symbolic links on either side (a server has
    /// none), no case-folding container.
    static let scenarios: [CrashScenario] = CrashScenario.all.filter { scenario in
        guard !scenario.foldingContainer, let harness = try? CrashHarness(scenario) else { return false }
        let starting =
            (try? harness.files(under: CrashHarness.local)).map(Array.init) ?? []
            + ((try? harness.files(under: CrashHarness.container)).map(Array.init) ?? [])
        return !starting.contains { $0.value.starts(with: Data("link →".utf8)) }
    }

    @Test(
        "crash at every local call and every request, and a lost answer at every request, keep every version and recover",
        .disabled(
            if: CrashConsistencyTests.underThreadSanitizer,
            "the sweep tests ordering, not threads; the accessor's threads are covered by the WebDAV contract"),
        arguments: scenarios)
    func everyPoint(_ scenario: CrashScenario) async throws {
        if CrashConsistencyTests.stopEarly.withLock({ $0 }) { return }
        // The accessor blocks its thread while it waits for the transport's task: the sweep runs
        // on a thread of its own, never on one of the cooperative pool.
        let (tally, problems) = try await BlockingExecutor.shared.run { try Self.sweep(scenario) }
        #expect(problems == [], "clean run of \(scenario.name) over WebDAV")
        #expect(tally.points > 0 && tally.fired == tally.points, "every scheduled fault happened: \(tally)")
        #expect(
            tally.partialCuts == 0 || tally.cutsKeepingNameChanges > 0,
            "some partial power cuts kept name changes: \(tally)")
        #expect(tally.violations == [], "\(scenario.name)")
        if !tally.violations.isEmpty, CrashConsistencyTests.failFast {
            CrashConsistencyTests.stopEarly.withLock { $0 = true }
        }
    }

    /// The whole sweep of one scenario: what it counted, and what was wrong with the uninterrupted run.
    static func sweep(_ scenario: CrashScenario) throws -> (CrashConsistencyTests.Tally, [String]) {
        var problems: [String] = []
        let saveCall = try userSaveCall(scenario) ?? 1
        // The uninterrupted run (with the save, if any, and the next run that syncs what the save
        // left): what every point must end as, and how many calls and requests it makes.
        let reference = try CrashHarness(scenario, overWebDAV: true)
        guard let server = reference.server else { return (CrashConsistencyTests.Tally(), ["no server"]) }
        let counter = reference.boundary()
        let save = reference.scheduleUserSave(on: counter, atCall: saveCall)
        let requestsBefore = server.requestCount
        _ = try reference.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: reference.containerURL, stateDirectory: CrashHarness.state,
                options: reference.options)
        let localCalls = counter.callCount
        let requests = server.requestCount - requestsBefore
        if scenario.duringRun != nil {
            if !save.wasMade { problems.append("the user's save did not happen during the clean run") }
            reference.fileSystem.advanceTime(by: 600)
            try reference.sync(runID: "next")
        }
        problems += try reference.convergenceProblems() + reference.newestVersionViolations()
        let expected = try reference.outcome()

        var tally = CrashConsistencyTests.Tally()
        for call in 1...max(1, localCalls) {
            tally.violations += try point(scenario, saveCall: saveCall, expected: expected, tally: &tally) {
                harness, faulty, server in
                faulty.beforeCall(call) { server.crash() }
                faulty.scheduleCrash(atCall: call)
            }.map { "crash at local call \(call)/\(localCalls): \($0)" }
        }
        // The local machine loses power before a local call (or after the last): what its disk
        // had not flushed is lost (all of it, then parts of it), the server keeps what it
        // answered, the process is gone.
        for call in 1...localCalls + 1 {
            for model in PowerLossModel.allCases {
                // Outcome 0 keeps nothing; it tells how many outcomes the cut could have had.
                var selections: [PowerLossSelection] = [.combination(0)]
                var index = 0
                while index < selections.count {
                    let selection = selections[index]
                    var machine: InMemoryFileSystem?
                    tally.violations += try point(scenario, saveCall: saveCall, expected: expected, tally: &tally) {
                        harness, faulty, server in
                        harness.fileSystem.powerLossModel = model
                        harness.fileSystem.powerLossSelection = selection
                        machine = harness.fileSystem
                        let cutting = harness
                        let cut = { @Sendable in
                            cutting.flushContainer()
                            cutting.fileSystem.cutPower()
                            server.crash()
                        }
                        if call > localCalls {
                            harness.afterRun = cut
                        } else {
                            faulty.beforeCall(call, run: cut)
                            faulty.scheduleCrash(atCall: call)
                        }
                    }.map {
                        "local power cut (\(model), keeping \(selection)) \(call > localCalls ? "after the last call" : "at local call \(call)/\(localCalls)"): \($0)"
                    }
                    let report = machine?.lastPowerCut
                    if index == 0 {
                        selections += CrashConsistencyTests.partialSelections(report?.combinations ?? 1, call: call)
                    } else {
                        tally.partialCuts += 1
                        if (report?.keptNameChanges ?? 0) > 0 { tally.cutsKeepingNameChanges += 1 }
                    }
                    index += 1
                }
            }
        }
        for request in 1...max(1, requests) {
            for fault in [WebDAVFault.crashBeforeSending, .crashAfterApplying, .loseAnswer] {
                tally.violations += try point(scenario, saveCall: saveCall, expected: expected, tally: &tally) {
                    _, _, server in
                    server.inject(fault, atRequest: request)
                }.map { "\(fault) at request \(request)/\(requests): \($0)" }
            }
        }
        // A crash after the server applied a request, then a crash at every request of the recovery.
        for request in [max(1, requests / 2)] {
            tally.violations += try crashTwice(
                scenario, saveCall: saveCall, at: request, expected: expected, tally: &tally
            )
            .map { "crash after request \(request)/\(requests), then in recovery: \($0)" }
        }
        print(
            "crash-consistency over WebDAV: \(scenario.name): \(localCalls) local calls, \(requests) requests, \(tally)"
        )
        return (tally, problems)
    }

    /// The scenario's run crashed after the server applied request `first`; the recovery run
    /// crashed at each of its requests in turn (before it leaves); then a third run must recover.
    private static func crashTwice(
        _ scenario: CrashScenario, saveCall: Int, at first: Int, expected: [String: [Data]],
        tally: inout CrashConsistencyTests.Tally
    ) throws -> [String] {
        func crashedRun() throws -> CrashHarness {
            let harness = try CrashHarness(scenario, overWebDAV: true)
            guard let server = harness.server else { return harness }
            let faulty = harness.boundary()
            let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
            server.whenCrashed { faulty.scheduleCrash(atCall: 1) }
            server.inject(.crashAfterApplying, atRequest: first)
            _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
                .run(
                    local: CrashHarness.local, container: harness.containerURL, stateDirectory: CrashHarness.state,
                    options: harness.options)
            try harness.finishUserSave(save)
            server.restart()
            harness.fileSystem.advanceTime(by: 600)
            return harness
        }
        // How many requests the recovery after that crash makes.
        let probe = try crashedRun()
        let before = probe.server?.requestCount ?? 0
        _ = try? probe.sync(runID: "rerun")
        let recoveryRequests = (probe.server?.requestCount ?? 0) - before
        var problems: [String] = []
        for second in 1...max(1, recoveryRequests) {
            // The lineage is that of the scenario's start, taken on a fresh copy of it.
            let start = try CrashHarness(scenario, overWebDAV: true).lineage()
            let harness = try crashedRun()
            guard let server = harness.server else { return ["no server"] }
            let faulty = harness.boundary()
            server.whenCrashed { faulty.scheduleCrash(atCall: 1) }
            server.inject(.crashBeforeSending, atRequest: second)
            _ = try? harness.engine(directories: faulty, files: faulty, runID: "rerun")
                .run(
                    local: CrashHarness.local, container: harness.containerURL, stateDirectory: CrashHarness.state,
                    options: harness.options)
            tally.secondCrashes += 1
            server.restart()
            problems += try harness.lineageViolations(start).map { "at \(second): \($0)" }
            problems += try CrashConsistencyTests().recover(harness, start: start, expected: expected, runID: "third")
                .map { "at \(second): \($0)" }
        }
        return problems
    }

    /// The local call before which the user saves: `fraction` of the local calls of a run without the save.
    private static func userSaveCall(_ scenario: CrashScenario) throws -> Int? {
        guard let save = scenario.duringRun else { return nil }
        let probe = try CrashHarness(scenario, overWebDAV: true)
        let counter = probe.boundary()
        _ = try probe.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: probe.containerURL, stateDirectory: CrashHarness.state,
                options: probe.options)
        return max(1, Int(Double(counter.callCount) * save.fraction))
    }

    /// One point: the scenario's run with the faults `arm` sets, then the checks and a recovery.
    private static func point(
        _ scenario: CrashScenario, saveCall: Int, expected: [String: [Data]], tally: inout CrashConsistencyTests.Tally,
        arm: (inout CrashHarness, FaultInjectingFileSystem, InMemoryWebDAVServer) -> Void
    ) throws -> [String] {
        var harness = try CrashHarness(scenario, overWebDAV: true)
        guard let server = harness.server else { return ["no server"] }
        let start = try harness.lineage()
        let faulty = harness.boundary()
        let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
        // A crash at a request kills the process: its next local call fails too.
        server.whenCrashed { faulty.scheduleCrash(atCall: 1) }
        let requestsBefore = server.requestCount
        arm(&harness, faulty, server)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(
                local: CrashHarness.local, container: harness.containerURL, stateDirectory: CrashHarness.state,
                options: harness.options)
        harness.afterRun?()
        tally.points += 1
        let faulted = server.requests.dropFirst(requestsBefore).contains { $0.fault != nil }
        if faulty.hasCrashed || server.hasCrashed || faulted { tally.fired += 1 }
        harness.fileSystem.powerLossModel = .perItem
        harness.fileSystem.powerLossSelection = .flushedOnly
        try harness.finishUserSave(save)
        server.restart()
        let inTrash = harness.saveMetTrashMove(faulty, saveCall: saveCall)
        return try CrashConsistencyTests().recover(
            harness, start: start, expected: expected, newestInTrashAllowed: inTrash)
    }
}
