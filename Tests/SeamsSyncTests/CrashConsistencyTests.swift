import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// For every scenario: count the I/O calls of a clean run, then for every call k, crash at k
/// (the process dies, the disk keeps what was done) and cut the power at k and after the last
/// call (unflushed changes are lost too). Every cut is tried under both power models of the fake
/// (``PowerLossModel``): the strict one, where a folder's flush makes only that folder's names
/// durable, and the journaling one, where it commits every earlier name change too; each keeping
/// nothing unflushed, then keeping parts of it (every part when there are at most eight outcomes,
/// else everything and four seeded parts). At each point: the crash is confirmed to have
/// happened; every path holds only versions of its own history and no version of any path is lost
/// (at its path, in a conflict copy beside it, or in the trash under its own name); then a
/// recovery run must finish and end where an uninterrupted run ends, which is where the scenario
/// says the rules put every version (``CrashScenario/expected``). For three points per scenario the
/// recovery run itself is crashed at each of its calls, and a third run must recover from that.
///
/// In some scenarios the user saves a file while the run goes (``CrashScenario/UserSave``): that
/// save is the newest version of its path and must end at the path or in a conflict copy beside
/// it; the uninterrupted run they are compared with is the run with the save plus the next run.
/// Those scenarios also run with the save at every call of the run in turn (every race window,
/// every position). In others the container's names fold case, as on FAT and exFAT: names it
/// cannot hold apart are reported every run and left out of "both sides equal", never out of the
/// lineage. Scenarios with several copies run again with the engine's concurrent work (copies,
/// placements, the background flush) in seeded interleavings.
///
/// Two controls keep the sweep honest: with the data's folder flushes (or file flushes) ignored by
/// the boundary, the state's and the trash's kept, the sweep must find what a power cut broke; and
/// the partial cuts must have kept name changes.
@Suite struct CrashConsistencyTests {
    @Test(
        "crash and power cut at every I/O call keep every version of every path and recover",
        arguments: underThreadSanitizer ? sanitizerScenarios : CrashScenario.all)
    func everyCrashPoint(_ scenario: CrashScenario) async throws {
        try await offThePool { try everyCrashPoint(scenario, hardLinks: true) }
    }

    @Test(
        "the same on a file system without hard links (FAT, exFAT)",
        .disabled(
            if: underThreadSanitizer,
            "under the thread sanitizer the sweep runs once, with hard links: it tests ordering, not threads"),
        arguments: CrashScenario.all)
    func everyCrashPointWithoutHardLinks(_ scenario: CrashScenario) async throws {
        try await offThePool { try everyCrashPoint(scenario, hardLinks: false) }
    }

    /// A scenario whose run copies several files, with the seed of the interleaving its
    /// concurrent work runs in.
    struct Interleaved: Sendable, CustomTestStringConvertible {
        let scenario: CrashScenario
        let seed: UInt64
        var testDescription: String { "\(scenario.name), interleaving \(seed)" }

        /// The scenarios with copies enough to go at once, each in three interleavings.
        static let all: [Interleaved] = CrashScenario.all.filter(\.copiesAtOnce).flatMap { scenario in
            (1...3).map { Interleaved(scenario: scenario, seed: $0) }
        }
    }

    @Test(
        "the same with copies, placements and the background flush at once, in seeded interleavings",
        .disabled(
            if: underThreadSanitizer, "the interleavings are run one call at a time: they test ordering, not threads"),
        arguments: Interleaved.all)
    func everyCrashPointInterleaved(_ interleaved: Interleaved) async throws {
        try await offThePool {
            try everyCrashPoint(interleaved.scenario, hardLinks: true, interleaving: interleaved.seed)
        }
    }

    @Test(
        "the user's save at every call of the run (every race window, every position) is never lost nor left in the trash",
        .disabled(if: underThreadSanitizer, "one call at a time: it tests ordering, not threads"),
        arguments: CrashScenario.all.filter { $0.duringRun != nil })
    func everyRaceWindow(_ scenario: CrashScenario) async throws {
        try await offThePool {
            try raceWindows(scenario, interleaving: nil)
            if scenario.copiesAtOnce { try raceWindows(scenario, interleaving: 1) }
        }
    }

    @Test(
        "control: with flushes ignored, the power cuts of the sweep lose versions",
        .disabled(if: underThreadSanitizer, "a control of the sweep's ordering"),
        arguments: [FileSystemOperation.synchronizeDirectory, .synchronizeFile])
    func ignoredFlushesAreFound(_ flush: FileSystemOperation) async throws {
        try await offThePool { try ignoredFlushesAreFound(flush) }
    }

    private func ignoredFlushesAreFound(_ flush: FileSystemOperation) throws {
        var found = 0
        for scenario in CrashScenario.every where Self.controls.contains(scenario.name) {
            let (_, diskCalls, expected, _) = try reference(scenario, hardLinks: true, interleaving: nil)
            var tally = Tally()
            for call in 1...diskCalls + 1 {
                let (_, problems) = try powerCut(
                    scenario, hardLinks: true, interleaving: nil, at: call, of: diskCalls,
                    cut: Cut(.perItem, .flushedOnly),
                    saveCall: 1, expected: expected, tally: &tally, ignoring: flush)
                found += problems.count
            }
        }
        #expect(found > 0, "a sweep that finds nothing wrong when \(flush) is ignored cannot find a missing one")
        if found == 0, Self.failFast { Self.stopEarly.withLock { $0 = true } }
    }

    /// The scenarios the control sweeps: a replace, a first copy, a deletion.
    static let controls: Set<String> = [
        "edit on the local side", "first sync, local to an empty container", "delete on the local side",
    ]

    /// What one scenario's sweep counted.
    struct Tally: CustomStringConvertible, Sendable {
        var points = 0
        var fired = 0
        var secondCrashes = 0
        /// Power cuts that kept a part of the unflushed changes (beside the one that kept none).
        var partialCuts = 0
        /// Power cuts that kept a name change not flushed.
        var cutsKeepingNameChanges = 0
        var violations: [String] = []

        var description: String {
            "\(points) crash points, \(fired) fired, \(partialCuts) partial power cuts "
                + "(\(cutsKeepingNameChanges) keeping name changes), "
                + "\(secondCrashes) second crashes in recovery, "
                + "\(violations.count) violations"
        }
    }

    /// One way a power cut goes: the model of the flushes before it, and what it keeps.
    struct Cut: CustomStringConvertible {
        let model: PowerLossModel
        let selection: PowerLossSelection
        init(_ model: PowerLossModel, _ selection: PowerLossSelection) {
            self.model = model
            self.selection = selection
        }
        var description: String { "\(model), keeping \(selection)" }
    }

    /// Whether this process runs under the thread sanitizer: there the partial power cuts and the
    /// sweep without hard links are left out (they test single-threaded ordering, and would make
    /// the sanitizer run too long).
    static let underThreadSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    /// The scenarios swept under the thread sanitizer: every third, and every one whose run copies
    /// several files at once (the engine's threads). The rest run the same code on the same
    /// threads; the full sweep runs without the sanitizer.
    static let sanitizerScenarios: [CrashScenario] = CrashScenario.all.enumerated()
        .filter { $0.offset % 3 == 0 || $0.element.copiesAtOnce }.map(\.element)

    /// The partial outcomes tried at a power cut that could have had `combinations`: every one
    /// when there are at most 8, else everything kept plus four seeded choices.
    static func partialSelections(_ combinations: Int, call: Int) -> [PowerLossSelection] {
        if underThreadSanitizer || combinations <= 1 { return [] }
        if combinations <= 8 { return (1..<combinations).map { .combination($0) } }
        return [.everything] + (1...4).map { .seeded(UInt64(call * 31 + $0)) }
    }

    /// The call of the run before which the user saves, for a scenario with a save during the
    /// run: `fraction` of the calls an uninterrupted run without the save makes.
    private func userSaveCall(_ scenario: CrashScenario, hardLinks: Bool, interleaving: UInt64?) throws -> Int? {
        guard let save = scenario.duringRun else { return nil }
        let probe = try CrashHarness(scenario, hardLinks: hardLinks, interleaving: interleaving)
        let counter = probe.boundary()
        _ = try probe.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: probe.options)
        return max(1, Int(Double(counter.callCount) * save.fraction))
    }

    /// An uninterrupted run (with the save, if any, and the next run that syncs what it left),
    /// checked against the scenario's expected outcome.
    ///
    /// - Returns: Its calls, its calls that reach the disk, where it ends, and the save's call.
    private func reference(
        _ scenario: CrashScenario, hardLinks: Bool, interleaving: UInt64?
    ) throws -> (calls: Int, diskCalls: Int, expected: [String: [Data]], saveCall: Int) {
        let saveCall = try userSaveCall(scenario, hardLinks: hardLinks, interleaving: interleaving) ?? 1
        let clean = try CrashHarness(scenario, hardLinks: hardLinks, interleaving: interleaving)
        let counter = clean.boundary()
        let save = clean.scheduleUserSave(on: counter, atCall: saveCall)
        let before = clean.fileSystem.callCount
        _ = try clean.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: clean.options)
        let diskCalls = clean.fileSystem.callCount - before
        if scenario.duringRun != nil {
            #expect(save.wasMade, "the user's save happened during the clean run of \(scenario.name)")
            // What a save during a run leaves for the next run is synced by it.
            clean.fileSystem.advanceTime(by: 600)
            try clean.sync(runID: "next")
        }
        #expect(try clean.convergenceProblems() == [], "clean run of \(scenario.name)")
        #expect(try clean.newestVersionViolations() == [], "clean run of \(scenario.name)")
        #expect(try clean.expectationProblems(scenario) == [], "clean run of \(scenario.name)")
        return (counter.callCount, diskCalls, try clean.outcome(), saveCall)
    }

    private func everyCrashPoint(_ scenario: CrashScenario, hardLinks: Bool, interleaving: UInt64? = nil) throws {
        if Self.stopEarly.withLock({ $0 }) { return }
        let (calls, diskCalls, expected, saveCall) = try reference(
            scenario, hardLinks: hardLinks, interleaving: interleaving)
        var tally = Tally()
        func note(_ problems: [String], _ point: String) {
            tally.violations += problems.map { "\(point): \($0)" }
            if !problems.isEmpty, Self.failFast { Self.stopEarly.withLock { $0 = true } }
        }
        for call in 1...calls where !Self.stopEarly.withLock({ $0 }) {
            note(
                try crash(
                    scenario, hardLinks: hardLinks, interleaving: interleaving, at: call, saveCall: saveCall,
                    expected: expected,
                    tally: &tally), "crash at \(call)/\(calls)")
        }
        // Power cuts at every call that reaches the disk, and after the last one. Not under the
        // thread sanitizer: a run cut by power runs the same code on the same threads as one cut
        // by a crash (above), and what the cut keeps is the in-memory file system's ordering.
        for call in 1...diskCalls + 1 where !Self.underThreadSanitizer && !Self.stopEarly.withLock({ $0 }) {
            let point = call > diskCalls ? "power cut after the last call" : "power cut at \(call)/\(diskCalls)"
            for model in PowerLossModel.allCases {
                // Outcome 0 keeps nothing unflushed, as `.flushedOnly` does, but journals the
                // changes under the per-item model too, so the cut counts its other outcomes.
                let nothing = Cut(model, .combination(0))
                let (combinations, problems) = try powerCut(
                    scenario, hardLinks: hardLinks, interleaving: interleaving, at: call, of: diskCalls, cut: nothing,
                    saveCall: saveCall, expected: expected, tally: &tally)
                note(problems, "\(point) (\(nothing))")
                for selection in Self.partialSelections(combinations, call: call) {
                    let cut = Cut(model, selection)
                    let (_, problems) = try powerCut(
                        scenario, hardLinks: hardLinks, interleaving: interleaving, at: call, of: diskCalls, cut: cut,
                        saveCall: saveCall, expected: expected, tally: &tally)
                    note(problems, "\(point) (\(cut))")
                    tally.partialCuts += 1
                }
            }
        }
        for call in Set([max(1, calls / 4), max(1, calls / 2), max(1, calls * 3 / 4)]).sorted()
        where !Self.stopEarly.withLock({ $0 }) {
            note(
                try crashTwice(
                    scenario, hardLinks: hardLinks, interleaving: interleaving, at: call, saveCall: saveCall,
                    expected: expected, tally: &tally), "crash at \(call)/\(calls), then in recovery")
        }
        let kind = (hardLinks ? "" : " (no hard links)") + (interleaving.map { " (interleaving \($0))" } ?? "")
        print("crash-consistency: \(scenario.name)\(kind): \(tally)")
        if Self.stopEarly.withLock({ $0 }) && tally.violations.isEmpty { return }
        #expect(tally.fired == tally.points, "every scheduled crash and power cut happened: \(tally)")
        #expect(
            tally.partialCuts == 0 || tally.cutsKeepingNameChanges > 0,
            "some partial power cuts kept name changes: \(tally)")
        #expect(tally.violations == [], "\(scenario.name)")
    }

    /// Whether a sweep stops at its first violation (`SEAMS_CRASH_FAIL_FAST=1`, set by the
    /// mutation suite, which needs one failure, not all of them).
    static let failFast = ProcessInfo.processInfo.environment["SEAMS_CRASH_FAIL_FAST"] == "1"
    /// Set once a sweep found a violation under ``failFast``: the other sweeps stop too.
    static let stopEarly = LockedValue(false)

    /// The user's save before each call of the run in turn, with no crash: it must end at its
    /// path or in a conflict copy beside it, never only in the trash, and every version lives.
    private func raceWindows(_ scenario: CrashScenario, interleaving: UInt64?) throws {
        let probe = try CrashHarness(scenario, interleaving: interleaving)
        let counter = probe.boundary()
        _ = try probe.engine(directories: counter, files: counter, runID: "run")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: probe.options)
        var problems: [String] = []
        for call in 1...counter.callCount + 1 {
            let harness = try CrashHarness(scenario, interleaving: interleaving)
            let start = try harness.lineage()
            let boundary = harness.boundary()
            let save = harness.scheduleUserSave(on: boundary, atCall: call)
            do {
                _ = try harness.engine(directories: boundary, files: boundary, runID: "run")
                    .run(
                        local: CrashHarness.local, container: CrashHarness.container,
                        stateDirectory: CrashHarness.state, options: harness.options)
            } catch {
                problems.append("save before call \(call): the run failed: \(error)")
            }
            try harness.finishUserSave(save)
            problems += try harness.lineageViolations(start).map { "save before call \(call): \($0)" }
            problems += try harness.newestVersionViolations().map { "save before call \(call): \($0)" }
            // A save between the engine's last check of its path and the change of that path (a
            // swap, a move into the trash, a rename, a move into place) keeps its name: the rules
            // make the incoming version the conflict copy, and put back what was moved.
            let metChange = harness.callChangesSavedPath(boundary, call: call)
            harness.fileSystem.advanceTime(by: 600)
            try harness.sync(runID: "next")
            problems += try
                (harness.lineageViolations(start) + harness.convergenceProblems() + harness.newestVersionViolations())
                .map { "save before call \(call), after the next run: \($0)" }
            if metChange, try !harness.saveIsAtItsPath() {
                problems.append("save before call \(call), which changed its path: the save lost its name")
            }
        }
        #expect(problems == [], "\(scenario.name)\(interleaving.map { " (interleaving \($0))" } ?? "")")
    }

    private func crash(
        _ scenario: CrashScenario, hardLinks: Bool, interleaving: UInt64?, at call: Int, saveCall: Int,
        expected: [String: [Data]],
        tally: inout Tally
    ) throws -> [String] {
        let harness = try CrashHarness(scenario, hardLinks: hardLinks, interleaving: interleaving)
        let start = try harness.lineage()
        let inTrash = try crashRun(harness, at: call, saveCall: saveCall, tally: &tally)
        return try recover(harness, start: start, expected: expected, newestInTrashAllowed: inTrash)
    }

    /// A power cut at `call` of the run's `diskCalls` (after the last one when `call` is past
    /// them) that keeps what `cut` picks of the unflushed changes, under its model.
    ///
    /// - Parameter ignoring: Flushes the boundary answers without making anything durable (the
    ///   controls).
    /// - Returns: How many outcomes that cut could have had, and the problems found.
    private func powerCut(
        _ scenario: CrashScenario, hardLinks: Bool, interleaving: UInt64?, at call: Int, of diskCalls: Int, cut: Cut,
        saveCall: Int, expected: [String: [Data]], tally: inout Tally, ignoring: FileSystemOperation? = nil
    ) throws -> (combinations: Int, problems: [String]) {
        let harness = try CrashHarness(scenario, hardLinks: hardLinks, interleaving: interleaving)
        let start = try harness.lineage()
        harness.fileSystem.powerLossModel = cut.model
        harness.fileSystem.powerLossSelection = cut.selection
        let afterLast = call > diskCalls
        if !afterLast { harness.fileSystem.schedulePowerCut(atCall: call) }
        var save: CrashHarness.SaveRecord?
        var boundary: FaultInjectingFileSystem?
        _ = try? harness.sync(runID: "run") {
            boundary = $0
            // The state's and the trash's flushes kept: a state committed over new names (or
            // content) that are not durable.
            if let ignoring {
                $0.ignoreFlushes(ignoring) {
                    !$0.path.hasPrefix(CrashHarness.state.path) && !$0.path.contains("/.seams-trash")
                }
            }
            save = harness.scheduleUserSave(on: $0, atCall: saveCall)
        }
        tally.points += 1
        if afterLast { harness.fileSystem.cutPower() }
        if harness.fileSystem.isPoweredOff || afterLast { tally.fired += 1 }
        let report = harness.fileSystem.lastPowerCut
        if (report?.keptNameChanges ?? 0) > 0 { tally.cutsKeepingNameChanges += 1 }
        harness.fileSystem.restart()
        harness.fileSystem.powerLossModel = .perItem
        harness.fileSystem.powerLossSelection = .flushedOnly
        if let save { try harness.finishUserSave(save) }
        // A power cut may undo the move back of a save that met the move into the trash.
        let inTrash = boundary.map { harness.saveMetTrashMove($0, saveCall: saveCall) } ?? false
        return (
            report?.combinations ?? 1,
            try recover(harness, start: start, expected: expected, newestInTrashAllowed: inTrash)
        )
    }

    /// A crash at `call`, then a crash at every call of the recovery run, then a clean run.
    private func crashTwice(
        _ scenario: CrashScenario, hardLinks: Bool, interleaving: UInt64?, at call: Int, saveCall: Int,
        expected: [String: [Data]],
        tally: inout Tally
    ) throws -> [String] {
        // How many calls the recovery after this first crash makes.
        var ignored = Tally()
        let probe = try CrashHarness(scenario, hardLinks: hardLinks, interleaving: interleaving)
        try crashRun(probe, at: call, saveCall: saveCall, tally: &ignored)
        probe.fileSystem.advanceTime(by: 600)
        let counter = probe.boundary()
        _ = try? probe.engine(directories: counter, files: counter, runID: "rerun")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: probe.options)
        var problems: [String] = []
        for second in 1...max(1, counter.callCount) {
            let harness = try CrashHarness(scenario, hardLinks: hardLinks, interleaving: interleaving)
            let start = try harness.lineage()
            let inTrash = try crashRun(harness, at: call, saveCall: saveCall, tally: &ignored)
            harness.fileSystem.advanceTime(by: 600)
            let faulty = harness.boundary()
            faulty.scheduleCrash(atCall: second)
            _ = try? harness.engine(directories: faulty, files: faulty, runID: "rerun")
                .run(
                    local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                    options: harness.options)
            tally.secondCrashes += 1
            problems += try harness.lineageViolations(start).map { "at \(second): \($0)" }
            problems += try recover(
                harness, start: start, expected: expected, runID: "third", newestInTrashAllowed: inTrash
            )
            .map { "at \(second): \($0)" }
        }
        return problems
    }

    /// A run crashed at `call`, with the user's save made during it or, if the crash came first, after it.
    ///
    /// - Returns: Whether the crash left the save in the trash: it came between the engine's
    ///   check and its move into the trash, and the run stopped at the check after that move or
    ///   at the move back.
    @discardableResult
    private func crashRun(_ harness: CrashHarness, at call: Int, saveCall: Int, tally: inout Tally) throws -> Bool {
        let faulty = harness.boundary()
        let save = harness.scheduleUserSave(on: faulty, atCall: saveCall)
        faulty.scheduleCrash(atCall: call)
        _ = try? harness.engine(directories: faulty, files: faulty, runID: "run")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: harness.options)
        tally.points += 1
        if faulty.hasCrashed { tally.fired += 1 }
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
            // the recovery keeps both (a conflict copy more than an uninterrupted run makes); and
            // a save that came after the crash instead of during the run may win the path where
            // the uninterrupted run kept it as the copy. So each path's versions are compared as
            // a set, its conflict copies' with its own; every copy still holds a version of its
            // own path (the lineage above).
            func merged(_ outcome: [String: [Data]]) -> [String: [Data]] {
                var sets: [String: Set<Data>] = [:]
                for (key, versions) in outcome {
                    sets[key.replacingOccurrences(of: " (conflict copy)", with: ""), default: []].formUnion(versions)
                }
                return sets.mapValues { $0.sorted { $0.lexicographicallyPrecedes($1) } }
            }
            outcome = merged(outcome)
            expected = merged(expected)
            // Versions beyond the uninterrupted run's are extra copies (their lineage is checked).
            if Set(outcome.keys) == Set(expected.keys),
                expected.allSatisfy({ Set(outcome[$0.key] ?? []).isSuperset(of: $0.value) })
            {
                outcome = expected
            }
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
