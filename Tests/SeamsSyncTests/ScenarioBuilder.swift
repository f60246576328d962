import Foundation
import Seams
import SeamsSync
import SeamsTesting

/// Writes a scenario's starting state: files, folders, a first sync, edits.
struct ScenarioBuilder {
    let harness: CrashHarness

    func root(_ side: Side) -> URL { side == .local ? CrashHarness.local : CrashHarness.container }

    func write(_ side: Side, _ path: String, _ text: String) throws {
        let url = root(side).appending(path: path)
        try harness.fileSystem.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try harness.fileSystem.write(Data(text.utf8), to: url)
    }

    /// Makes a symbolic link, replacing whatever is at `path`.
    func link(_ side: Side, _ path: String, to target: String) throws {
        let url = root(side).appending(path: path)
        try? harness.fileSystem.removeItem(at: url, recursively: false)
        try harness.fileSystem.createSymbolicLink(at: url, withDestination: target)
    }

    func folder(_ side: Side, _ path: String) throws {
        try harness.fileSystem.createDirectory(at: root(side).appending(path: path), withIntermediateDirectories: true)
    }

    func remove(_ side: Side, _ path: String) throws {
        try harness.fileSystem.removeItem(at: root(side).appending(path: path), recursively: true)
    }

    /// A clean sync, then the clock moves on so later edits get new dates.
    func sync() throws {
        try harness.sync(runID: "setup")
        tick()
    }

    func tick(_ seconds: TimeInterval = 5) { harness.fileSystem.advanceTime(by: seconds) }
}
