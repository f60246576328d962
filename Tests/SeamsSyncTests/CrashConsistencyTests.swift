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
        let clean = try CrashHarness(scenario)
        let counter = FaultInjectingFileSystem(wrapping: clean.fileSystem)
        _ = try clean.engine(directories: counter, files: counter, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state)
        let calls = counter.callCount
        #expect(try clean.convergenceProblems() == [], "clean run of \(scenario.name)")
        var violations: [String] = []
        for call in 1...calls {
            violations += try crash(scenario, at: call).map { "crash at \(call)/\(calls): \($0)" }
            violations += try powerCut(scenario, at: call).map { "power cut at \(call)/\(calls): \($0)" }
        }
        print("crash-consistency: \(scenario.name): \(2 * calls) crash points, \(violations.count) violations")
        #expect(violations == [], "\(scenario.name)")
    }

    private func crash(_ scenario: CrashScenario, at call: Int) throws -> [String] {
        let harness = try CrashHarness(scenario)
        let start = try harness.versions(includingTrash: false)
        let faulty = FaultInjectingFileSystem(wrapping: harness.fileSystem)
        faulty.scheduleCrash(atCall: call)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state)
        return try recover(harness, start: start)
    }

    private func powerCut(_ scenario: CrashScenario, at call: Int) throws -> [String] {
        let harness = try CrashHarness(scenario)
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
