import Foundation
import SeamsCore
import SeamsTesting
import Testing

@testable import SeamsSync

/// The crash suite with the container in an S3 bucket (the in-memory server of `SeamsTesting`,
/// whose bucket is the container folder, so the same lineage checks read it).
///
/// For every scenario a bucket can hold (those of the WebDAV suite: no symbolic links, names
/// that do not fold case), every point of an uninterrupted run is tried:
/// - a crash at each call to the local file system (the process dies; the bucket keeps all it
///   answered);
/// - a crash at each request, before it leaves (nothing applied) and after the server applied it
///   (the answer never read);
/// - the answer to each request lost after the server applied it while the process goes on;
/// - a crash after the server applied the middle request, then a crash at each request of the
///   recovery.
///
/// After each, the folder suite's checks: every path holds only versions of its own history, no
/// version is lost, and a recovery run finishes and ends where an uninterrupted run ends. S3 has
/// no atomic move: a move is a copy and a delete, and these points cut between the two; the
/// recovery must end where an uninterrupted run ends there too (no copy left under the old name).
@Suite struct S3CrashTests {
    @Test(
        "crash at every local call and every request, and a lost answer at every request, keep every version and recover",
        .disabled(
            if: CrashConsistencyTests.underThreadSanitizer,
            "the sweep tests ordering, not threads; the client's threads are covered by the S3 contract"),
        .disabled(
            if: ProcessInfo.processInfo.environment["SEAMS_S3_CRASH_SUITE"] == "separately",
            "CI runs this suite in a phase of its own (.ci/run), so its load does not overlap the end-to-end tests"),
        arguments: WebDAVCrashTests.scenarios)
    func everyPoint(_ scenario: CrashScenario) async throws {
        if CrashConsistencyTests.stopEarly.withLock({ $0 }) { return }
        let (tally, problems) = try await BlockingExecutor.shared.run { try Self.sweep(scenario) }
        #expect(problems == [], "clean run of \(scenario.name) over S3")
        #expect(tally.points > 0 && tally.fired == tally.points, "every scheduled fault happened: \(tally)")
        #expect(tally.violations == [], "\(scenario.name)")
        if !tally.violations.isEmpty, CrashConsistencyTests.failFast {
            CrashConsistencyTests.stopEarly.withLock { $0 = true }
        }
    }

    static func sweep(_ scenario: CrashScenario) throws -> (CrashConsistencyTests.Tally, [String]) {
        var problems: [String] = []
        let saveCall = try userSaveCall(scenario) ?? 1
        let reference = try CrashHarness(scenario, overS3: true)
        guard let bucket = reference.bucket else { return (CrashConsistencyTests.Tally(), ["no bucket"]) }
        let counter = reference.boundary()
        let save = reference.scheduleUserSave(on: counter, atCall: saveCall)
        let requestsBefore = bucket.requestCount
        _ = try reference.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: reference.containerURL, stateDirectory: CrashHarness.state,
                options: reference.options)
        let localCalls = counter.callCount
        let requests = bucket.requestCount - requestsBefore
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
                _, faulty, bucket in
                faulty.beforeCall(call) { bucket.crash() }
                faulty.scheduleCrash(atCall: call)
            }.map { "crash at local call \(call)/\(localCalls): \($0)" }
        }
        for request in 1...max(1, requests) {
            for fault in [CrashingS3Server.Fault.crashBeforeSending, .crashAfterApplying, .loseAnswer] {
                tally.violations += try point(scenario, saveCall: saveCall, expected: expected, tally: &tally) {
                    _, _, bucket in
                    bucket.inject(fault, atRequest: request)
                }.map { "\(fault) at request \(request)/\(requests): \($0)" }
            }
        }
        tally.violations += try crashTwice(
            scenario, saveCall: saveCall, at: max(1, requests / 2), expected: expected, tally: &tally
        ).map { "crash after request \(max(1, requests / 2))/\(requests), then in recovery: \($0)" }
        print("crash-consistency over S3: \(scenario.name): \(localCalls) local calls, \(requests) requests, \(tally)")
        return (tally, problems)
    }

    /// The run crashed after the server applied request `first`; the recovery crashed at each of
    /// its requests in turn (before it leaves); then a third run must recover.
    private static func crashTwice(
        _ scenario: CrashScenario, saveCall: Int, at first: Int, expected: [String: [Data]],
        tally: inout CrashConsistencyTests.Tally
    ) throws -> [String] {
        func crashedRun() throws -> CrashHarness {
            let harness = try CrashHarness(scenario, overS3: true)
            guard let bucket = harness.bucket else { return harness }
            let faulty = harness.boundary()
            let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
            bucket.whenCrashed { faulty.scheduleCrash(atCall: 1) }
            bucket.inject(.crashAfterApplying, atRequest: first)
            _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
                .run(
                    local: CrashHarness.local, container: harness.containerURL, stateDirectory: CrashHarness.state,
                    options: harness.options)
            try harness.finishUserSave(save)
            bucket.restart()
            harness.fileSystem.advanceTime(by: 600)
            return harness
        }
        let probe = try crashedRun()
        let before = probe.bucket?.requestCount ?? 0
        _ = try? probe.sync(runID: "rerun")
        let recoveryRequests = (probe.bucket?.requestCount ?? 0) - before
        var problems: [String] = []
        for second in 1...max(1, recoveryRequests) {
            let start = try CrashHarness(scenario, overS3: true).lineage()
            let harness = try crashedRun()
            guard let bucket = harness.bucket else { return ["no bucket"] }
            let faulty = harness.boundary()
            bucket.whenCrashed { faulty.scheduleCrash(atCall: 1) }
            bucket.inject(.crashBeforeSending, atRequest: second)
            _ = try? harness.engine(directories: faulty, files: faulty, runID: "rerun")
                .run(
                    local: CrashHarness.local, container: harness.containerURL, stateDirectory: CrashHarness.state,
                    options: harness.options)
            tally.secondCrashes += 1
            bucket.restart()
            problems += try harness.lineageViolations(start).map { "at \(second): \($0)" }
            problems += try CrashConsistencyTests().recover(harness, start: start, expected: expected, runID: "third")
                .map { "at \(second): \($0)" }
        }
        return problems
    }

    private static func userSaveCall(_ scenario: CrashScenario) throws -> Int? {
        guard let save = scenario.duringRun else { return nil }
        let probe = try CrashHarness(scenario, overS3: true)
        let counter = probe.boundary()
        _ = try probe.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: probe.containerURL, stateDirectory: CrashHarness.state,
                options: probe.options)
        return max(1, Int(Double(counter.callCount) * save.fraction))
    }

    private static func point(
        _ scenario: CrashScenario, saveCall: Int, expected: [String: [Data]], tally: inout CrashConsistencyTests.Tally,
        arm: (inout CrashHarness, FaultInjectingFileSystem, CrashingS3Server) -> Void
    ) throws -> [String] {
        var harness = try CrashHarness(scenario, overS3: true)
        guard let bucket = harness.bucket else { return ["no bucket"] }
        let start = try harness.lineage()
        let faulty = harness.boundary()
        let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
        // A crash at a request kills the process: its next local call fails too.
        bucket.whenCrashed { faulty.scheduleCrash(atCall: 1) }
        let requestsBefore = bucket.requestCount
        arm(&harness, faulty, bucket)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(
                local: CrashHarness.local, container: harness.containerURL, stateDirectory: CrashHarness.state,
                options: harness.options)
        harness.afterRun?()
        tally.points += 1
        _ = requestsBefore
        if faulty.hasCrashed || bucket.hasCrashed || bucket.faultFired { tally.fired += 1 }
        harness.fileSystem.powerLossModel = .perItem
        harness.fileSystem.powerLossSelection = .flushedOnly
        try harness.finishUserSave(save)
        bucket.restart()
        let inTrash = harness.saveMetTrashMove(faulty, saveCall: saveCall)
        return try CrashConsistencyTests().recover(
            harness, start: start, expected: expected, newestInTrashAllowed: inTrash)
    }
}
