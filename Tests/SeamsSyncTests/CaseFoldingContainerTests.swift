import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// A container whose names fold case (FAT, exFAT), on the fake: a folder renamed by case only
/// syncs in one run, a folder it cannot hold is reported with everything in it, and a stop asked
/// for while the renamed folder is made again is a safe point.
@Suite struct CaseFoldingContainerTests {
    /// `Photos/` with two files and a few others synced, then `Photos` renamed to `photos` locally.
    static let renamedFolder = CrashScenario(
        "a folder renamed by case", options: CrashScenario.deleteAny, foldingContainer: true
    ) {
        (b: inout ScenarioBuilder) in
        try b.write(.local, "Photos/a.jpg", "a")
        try b.write(.local, "Photos/sub/b.jpg", "b")
        try b.write(.local, "k.txt", "k")
        try b.sync()
        try b.harness.fileSystem.moveItem(
            at: b.root(.local).appending(path: "Photos"), to: b.root(.local).appending(path: "photos"),
            replacingExisting: false)
    }

    func text(_ harness: CrashHarness, _ path: String) throws -> String {
        String(decoding: try harness.fileSystem.read(from: CrashHarness.container.appending(path: path)), as: UTF8.self)
    }

    func containerNames(_ harness: CrashHarness) throws -> [String] {
        try harness.fileSystem.contentsOfDirectory(at: CrashHarness.container).map(\.name).filter {
            !$0.hasPrefix(".seams")
        }
    }

    @Test(
        "a folder renamed by case only reaches the container in one run, with all it holds; the old one goes to the trash"
    )
    func folderRenamedByCase() throws {
        let harness = try CrashHarness(Self.renamedFolder, hardLinks: false)
        let report = try harness.sync(runID: "one")
        #expect(report.failures == [], "\(report.failures)")
        #expect(try containerNames(harness) == ["k.txt", "photos"])
        #expect(try text(harness, "photos/a.jpg") == "a")
        #expect(try text(harness, "photos/sub/b.jpg") == "b")
        let trash = try harness.files(under: CrashHarness.container, includingOwn: true).keys.map(\.rawValue)
        #expect(trash.contains { $0.hasPrefix(".seams-trash/") && $0.hasSuffix("/Photos/a.jpg") }, "\(trash.sorted())")
        #expect(try harness.convergenceProblems() == [])
    }

    @Test("a folder the container cannot hold beside another is reported, and so is all it holds, naming the folder")
    func folderThatCannotBeHeld() throws {
        let scenario = CrashScenario("two folders differing in case", foldingContainer: true) {
            (b: inout ScenarioBuilder) in
            try b.write(.local, "Docs/a.txt", "a")
            try b.write(.local, "docs/b.txt", "b")
        }
        let harness = try CrashHarness(scenario, hardLinks: false)
        for run in ["one", "two"] {
            let report = try harness.sync(runID: run)
            #expect(report.failures.map(\.path) == ["docs", "docs/b.txt"], "run \(run)")
            #expect(report.failures.first?.reason.contains("cannot hold both this name and \"Docs\"") == true)
            #expect(
                report.failures.last?.reason.contains(
                    "its folder \"docs\" could not be made: the other side's file system cannot hold both that name and \"Docs\""
                ) == true,
                "\(report.failures)")
            #expect(try containerNames(harness) == ["Docs"])
            #expect(
                try harness.fileSystem.contentsOfDirectory(at: CrashHarness.container.appending(path: "Docs")).map(
                    \.name) == ["a.txt"])
        }
    }

    @Test("a stop asked for while the renamed folder is made again ends at a safe point; the next run finishes")
    func stopDuringTheRetry() throws {
        // Where the folder is made again (the first try, before the deletions, met `Photos`):
        // found in an identical run.
        let probe = try CrashHarness(Self.renamedFolder, hardLinks: false)
        let counted = probe.boundary()
        _ = try probe.engine(directories: counted, files: counted, runID: "one")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: probe.options)
        let makeFolder =
            try #require(
                counted.calls.lastIndex {
                    $0.operation == .createDirectory && $0.url?.lastPathComponent == "photos"
                }) + 1

        let harness = try CrashHarness(Self.renamedFolder, hardLinks: false)
        let boundary = harness.boundary()
        let stop = SyncStopToken()
        boundary.beforeCall(makeFolder) { stop.requestStop() }
        let report = try harness.engine(directories: boundary, files: boundary, runID: "one")
            .run(
                local: CrashHarness.local, container: CrashHarness.container, stateDirectory: CrashHarness.state,
                options: harness.options, stop: stop)
        #expect(
            counted.calls.filter { $0.operation == .createDirectory && $0.url?.lastPathComponent == "photos" }.count
                == 2)
        let interruption = try #require(report.interruption)
        #expect(interruption.done < interruption.total, "\(interruption)")
        #expect(report.failures == [], "\(report.failures)")
        #expect(try containerNames(harness) == ["k.txt", "photos"])
        #expect(
            try harness.fileSystem.contentsOfDirectory(at: CrashHarness.container.appending(path: "photos")).isEmpty,
            "nothing inside the folder was copied after the stop")

        harness.fileSystem.advanceTime(by: 5)
        let next = try harness.sync(runID: "two")
        #expect(next.interruption == nil)
        #expect(next.failures == [], "\(next.failures)")
        #expect(try text(harness, "photos/a.jpg") == "a")
        #expect(try text(harness, "photos/sub/b.jpg") == "b")
        #expect(try harness.convergenceProblems() == [])
    }
}
