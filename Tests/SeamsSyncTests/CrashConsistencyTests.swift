import Foundation
import Seams
import SeamsSync
import SeamsTesting
import Testing

/// For every scenario: count the I/O calls of a clean run, then for every call k, crash at k
/// (the process dies, the disk keeps what was done) and cut the power at k (unflushed changes
/// are lost too). At each point: the crash is confirmed to have happened; every path holds only
/// versions of its own history and no version of any path is lost (at its path, in a conflict
/// copy beside it, or in the trash under its own name); then a recovery run must finish and end
/// where an uninterrupted run ends (conflict-copy dates aside). For three points per scenario the
/// recovery run itself is crashed at each of its calls, and a third run must recover from that.
///
/// In some scenarios the user saves a file while the run goes (``CrashScenario/UserSave``): that
/// save is the newest version of its path and must end at the path or in a conflict copy beside
/// it; the uninterrupted run they are compared with is the run with the save plus the next run.
/// In others the container's names fold case, as on FAT and exFAT: names it cannot hold apart are
/// reported every run and left out of "both sides equal", never out of the lineage.
@Suite struct CrashConsistencyTests {
    @Test("crash and power cut at every I/O call keep every version of every path and recover", arguments: CrashScenario.all)
    func everyCrashPoint(_ scenario: CrashScenario) throws {
        try everyCrashPoint(scenario, hardLinks: true)
    }

    @Test(
        "the same on a file system without hard links (FAT, exFAT)",
        .disabled(if: underThreadSanitizer, "under the thread sanitizer the sweep runs once, with hard links: it tests ordering, not threads"),
        arguments: CrashScenario.all)
    func everyCrashPointWithoutHardLinks(_ scenario: CrashScenario) throws {
        try everyCrashPoint(scenario, hardLinks: false)
    }

    /// What one scenario's sweep counted.
    struct Tally: CustomStringConvertible, Sendable {
        var points = 0
        var fired = 0
        var secondCrashes = 0
        /// Power cuts that kept a part of the unflushed changes (beside the one that kept none).
        var partialCuts = 0
        var violations: [String] = []

        var description: String {
            "\(points) crash points, \(fired) fired, \(partialCuts) partial power cuts, "
                + "\(secondCrashes) second crashes in recovery, \(violations.count) violations"
        }
    }

    /// Whether this process runs under the thread sanitizer: there the partial power cuts and the
    /// sweep without hard links are left out (they test single-threaded ordering, and would make
    /// the sanitizer run too long).
    static let underThreadSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    /// The partial outcomes tried at a power cut that could have had `combinations`: every one
    /// when there are at most 8, else everything kept plus four seeded choices.
    static func partialSelections(_ combinations: Int, call: Int) -> [PowerLossSelection] {
        if underThreadSanitizer || combinations <= 1 { return [] }
        if combinations <= 8 { return (1..<combinations).map { .combination($0) } }
        return [.everything] + (1...4).map { .seeded(UInt64(call * 31 + $0)) }
    }

    /// The call of the run before which the user saves, for a scenario with a save during the
    /// run: `fraction` of the calls an uninterrupted run without the save makes.
    private func userSaveCall(_ scenario: CrashScenario, hardLinks: Bool) throws -> Int? {
        guard let save = scenario.duringRun else { return nil }
        let probe = try CrashHarness(scenario, hardLinks: hardLinks)
        let counter = probe.boundary()
        _ = try probe.engine(directories: counter, files: counter, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state, options: probe.options)
        return max(1, Int(Double(counter.callCount) * save.fraction))
    }

    private func everyCrashPoint(_ scenario: CrashScenario, hardLinks: Bool) throws {
        let saveCall = try userSaveCall(scenario, hardLinks: hardLinks) ?? 1
        let clean = try CrashHarness(scenario, hardLinks: hardLinks)
        let counter = clean.boundary()
        let save = clean.scheduleUserSave(on: counter, atCall: saveCall)
        let before = clean.fileSystem.callCount
        _ = try clean.engine(directories: counter, files: counter, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state, options: clean.options)
        // A crash can come at any call the engine makes; the power can fail at any call that
        // reaches the disk (a refused `link` does not).
        let calls = counter.callCount
        let diskCalls = clean.fileSystem.callCount - before
        if scenario.duringRun != nil {
            #expect(save.wasMade, "the user's save happened during the clean run of \(scenario.name)")
            // What a save during a run leaves for the next run is synced by it.
            clean.fileSystem.advanceTime(by: 600)
            try clean.sync(runID: "next")
        }
        #expect(try clean.convergenceProblems() == [], "clean run of \(scenario.name)")
        #expect(try clean.newestVersionViolations() == [], "clean run of \(scenario.name)")
        let expected = try clean.outcome()
        var tally = Tally()
        for call in 1...calls {
            tally.violations += try crash(scenario, hardLinks: hardLinks, at: call, saveCall: saveCall, expected: expected, tally: &tally)
                .map { "crash at \(call)/\(calls): \($0)" }
        }
        for call in 1...diskCalls {
            let (combinations, problems) = try powerCut(
                scenario, hardLinks: hardLinks, at: call, keeping: .combination(0), saveCall: saveCall, expected: expected, tally: &tally)
            tally.violations += problems.map { "power cut at \(call)/\(diskCalls): \($0)" }
            for selection in Self.partialSelections(combinations, call: call) {
                let (_, problems) = try powerCut(
                    scenario, hardLinks: hardLinks, at: call, keeping: selection, saveCall: saveCall, expected: expected, tally: &tally)
                tally.violations += problems.map { "power cut at \(call)/\(diskCalls) keeping \(selection): \($0)" }
                tally.partialCuts += 1
            }
        }
        for call in Set([max(1, calls / 4), max(1, calls / 2), max(1, calls * 3 / 4)]).sorted() {
            tally.violations += try crashTwice(scenario, hardLinks: hardLinks, at: call, saveCall: saveCall, expected: expected, tally: &tally)
                .map { "crash at \(call)/\(calls), then in recovery: \($0)" }
        }
        let kind = hardLinks ? "" : " (no hard links)"
        print("crash-consistency: \(scenario.name)\(kind): \(tally)")
        #expect(tally.fired == tally.points, "every scheduled crash and power cut happened: \(tally)")
        #expect(tally.violations == [], "\(scenario.name)")
    }

    private func crash(
        _ scenario: CrashScenario, hardLinks: Bool, at call: Int, saveCall: Int, expected: [String: [Data]], tally: inout Tally
    ) throws -> [String] {
        let harness = try CrashHarness(scenario, hardLinks: hardLinks)
        let start = try harness.lineage()
        let faulty = harness.boundary()
        let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
        faulty.scheduleCrash(atCall: call)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state, options: harness.options)
        tally.points += 1
        if faulty.hasCrashed { tally.fired += 1 }
        try harness.finishUserSave(save)
        // Stopped at the check after that move, or at the move back: the save stays in the trash.
        let inTrash = harness.saveMetTrashMove(faulty, saveCall: saveCall) && (saveCall + 1...saveCall + 2).contains(call)
        return try recover(harness, start: start, expected: expected, newestInTrashAllowed: inTrash)
    }

    /// A power cut at `call` that keeps what `selection` picks of the unflushed changes.
    ///
    /// - Returns: How many outcomes that cut could have had, and the problems found.
    private func powerCut(
        _ scenario: CrashScenario, hardLinks: Bool, at call: Int, keeping selection: PowerLossSelection,
        saveCall: Int, expected: [String: [Data]], tally: inout Tally
    ) throws -> (combinations: Int, problems: [String]) {
        let harness = try CrashHarness(scenario, hardLinks: hardLinks)
        let start = try harness.lineage()
        harness.fileSystem.powerLossSelection = selection
        harness.fileSystem.schedulePowerCut(atCall: call)
        var save: CrashHarness.SaveRecord?
        var boundary: FaultInjectingFileSystem?
        _ = try? harness.sync(runID: "run") {
            boundary = $0
            save = harness.scheduleUserSave(on: $0, atCall: saveCall)
        }
        tally.points += 1
        if harness.fileSystem.isPoweredOff { tally.fired += 1 }
        let combinations = harness.fileSystem.lastPowerCut?.combinations ?? 1
        harness.fileSystem.restart()
        harness.fileSystem.powerLossSelection = .flushedOnly
        if let save { try harness.finishUserSave(save) }
        // A power cut may undo the move back of a save that met the move into the trash.
        let inTrash = boundary.map { harness.saveMetTrashMove($0, saveCall: saveCall) } ?? false
        return (combinations, try recover(harness, start: start, expected: expected, newestInTrashAllowed: inTrash))
    }

    /// A crash at `call`, then a crash at every call of the recovery run, then a clean run.
    private func crashTwice(
        _ scenario: CrashScenario, hardLinks: Bool, at call: Int, saveCall: Int, expected: [String: [Data]], tally: inout Tally
    ) throws -> [String] {
        // How many calls the recovery after this first crash makes.
        let probe = try CrashHarness(scenario, hardLinks: hardLinks)
        try crashRun(probe, at: call, saveCall: saveCall)
        probe.fileSystem.advanceTime(by: 600)
        let counter = probe.boundary()
        _ = try? probe.engine(directories: counter, files: counter, runID: "rerun")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state, options: probe.options)
        var problems: [String] = []
        for second in 1...max(1, counter.callCount) {
            let harness = try CrashHarness(scenario, hardLinks: hardLinks)
            let start = try harness.lineage()
            let inTrash = try crashRun(harness, at: call, saveCall: saveCall)
            harness.fileSystem.advanceTime(by: 600)
            let faulty = harness.boundary()
            faulty.scheduleCrash(atCall: second)
            _ = try? harness.engine(directories: faulty, files: faulty, runID: "rerun")
                .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state, options: harness.options)
            tally.secondCrashes += 1
            problems += try harness.lineageViolations(start).map { "at \(second): \($0)" }
            problems += try recover(harness, start: start, expected: expected, runID: "third", newestInTrashAllowed: inTrash)
                .map { "at \(second): \($0)" }
        }
        return problems
    }

    /// A run crashed at `call`, with the user's save made during it or, if the crash came first, after it.
    ///
    /// - Returns: Whether the crash left the save in the trash (see ``crash(_:hardLinks:at:saveCall:expected:tally:)``).
    @discardableResult
    private func crashRun(_ harness: CrashHarness, at call: Int, saveCall: Int) throws -> Bool {
        let faulty = harness.boundary()
        let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
        faulty.scheduleCrash(atCall: call)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state, options: harness.options)
        try harness.finishUserSave(save)
        return harness.saveMetTrashMove(faulty, saveCall: saveCall) && (saveCall + 1...saveCall + 2).contains(call)
    }

    /// The lineage now; then, once the lock has expired, a clean run that must finish, keep the
    /// lineage, converge, and end where an uninterrupted run ends.
    func recover(
        _ harness: CrashHarness, start: CrashHarness.Lineage, expected: [String: [Data]], runID: String = "rerun",
        newestInTrashAllowed: Bool = false
    ) throws -> [String] {
        var problems = try harness.lineageViolations(start)
        harness.fileSystem.advanceTime(by: 600)
        do {
            let report = try harness.sync(runID: runID)
            // Names a case-folding container cannot hold apart are reported every run, by design.
            let failures = report.failures.filter { !(harness.foldsCase && $0.reason.contains("cannot hold both")) }
            if !failures.isEmpty { problems.append("rerun failures: \(failures)") }
        } catch {
            problems.append("rerun failed: \(error)")
            return problems
        }
        problems += try harness.lineageViolations(start).map { "after rerun: \($0)" }
        problems += try harness.convergenceProblems()
        problems += try harness.newestVersionViolations(inTrashAllowed: newestInTrashAllowed)
        var outcome = try harness.outcome()
        var expected = expected
        if harness.duringRun != nil {
            // A save during a crashed run may meet a version the run copied but did not record:
            // the recovery keeps both (a conflict copy more than an uninterrupted run makes).
            // Every copy still holds a version of its own path (the lineage above).
            outcome = outcome.filter { !$0.key.hasSuffix(" (conflict copy)") }
            expected = expected.filter { !$0.key.hasSuffix(" (conflict copy)") }
        }
        if outcome != expected, !newestInTrashAllowed {
            let differing = Set(outcome.keys).symmetricDifference(expected.keys)
                .union(outcome.keys.filter { expected[$0] != nil && expected[$0] != outcome[$0] }).sorted()
            let shown = differing.prefix(3).map { key in
                "\(key): \((outcome[key] ?? []).map { String(decoding: $0.prefix(20), as: UTF8.self) }) instead of "
                    + "\((expected[key] ?? []).map { String(decoding: $0.prefix(20), as: UTF8.self) })"
            }
            problems.append("ends elsewhere than an uninterrupted run: \(shown)")
        }
        return problems
    }
}
