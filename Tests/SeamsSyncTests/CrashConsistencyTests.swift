import Foundation
import Seams
import SeamsSync
import SeamsTesting
import Testing

/// For every scenario: count the I/O calls of a clean run, then for every call k, crash at k
/// (the process dies, the disk keeps what was done) and cut the power at k (unflushed changes
/// are lost too); check the invariant; run again and check that it finishes and converges.
@Suite struct CrashConsistencyTests {
    @Test("crash and power cut at every I/O call keep every version and recover", arguments: CrashScenario.all)
    func everyCrashPoint(_ scenario: CrashScenario) throws {
        try everyCrashPoint(scenario, hardLinks: true)
    }

    @Test("the same on a file system without hard links (FAT, exFAT)", arguments: CrashScenario.all)
    func everyCrashPointWithoutHardLinks(_ scenario: CrashScenario) throws {
        try everyCrashPoint(scenario, hardLinks: false)
    }

    private func everyCrashPoint(_ scenario: CrashScenario, hardLinks: Bool) throws {
        let clean = try CrashHarness(scenario, hardLinks: hardLinks)
        let counter = clean.boundary()
        let before = clean.fileSystem.callCount
        _ = try clean.engine(directories: counter, files: counter, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state)
        // A crash can come at any call the engine makes; the power can fail at any call that
        // reaches the disk (a refused `link` does not).
        let calls = counter.callCount
        let diskCalls = clean.fileSystem.callCount - before
        #expect(try clean.convergenceProblems() == [], "clean run of \(scenario.name)")
        var violations: [String] = []
        for call in 1...calls {
            violations += try crash(scenario, hardLinks: hardLinks, at: call).map { "crash at \(call)/\(calls): \($0)" }
        }
        for call in 1...diskCalls {
            violations += try powerCut(scenario, hardLinks: hardLinks, at: call).map { "power cut at \(call)/\(diskCalls): \($0)" }
        }
        let kind = hardLinks ? "" : " (no hard links)"
        print("crash-consistency: \(scenario.name)\(kind): \(calls + diskCalls) crash points, \(violations.count) violations")
        #expect(violations == [], "\(scenario.name)")
    }

    private func crash(_ scenario: CrashScenario, hardLinks: Bool, at call: Int) throws -> [String] {
        let harness = try CrashHarness(scenario, hardLinks: hardLinks)
        let start = try harness.versions(includingTrash: false)
        let faulty = harness.boundary()
        faulty.scheduleCrash(atCall: call)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state)
        return try recover(harness, start: start)
    }

    private func powerCut(_ scenario: CrashScenario, hardLinks: Bool, at call: Int) throws -> [String] {
        let harness = try CrashHarness(scenario, hardLinks: hardLinks)
        let start = try harness.versions(includingTrash: false)
        harness.fileSystem.schedulePowerCut(atCall: call)
        _ = try? harness.sync(runID: "run")
        harness.fileSystem.restart()
        return try recover(harness, start: start)
    }

    /// The invariant now; then, once the lock has expired, a clean run that must finish and converge.
    private func recover(_ harness: CrashHarness, start: Set<Data>) throws -> [String] {
        var problems = try harness.violations(start: start)
        harness.fileSystem.advanceTime(by: 600)
        do {
            let report = try harness.sync(runID: "rerun")
            if !report.failures.isEmpty { problems.append("rerun failures: \(report.failures)") }
        } catch {
            problems.append("rerun failed: \(error)")
            return problems
        }
        problems += try harness.violations(start: start).map { "after rerun: \($0)" }
        problems += try harness.convergenceProblems()
        return problems
    }
}
