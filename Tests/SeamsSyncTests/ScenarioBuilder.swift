import Foundation
import Seams
import SeamsTesting

@testable import SeamsSync

/// Writes a scenario's starting state: files, folders, a first sync, edits.
struct ScenarioBuilder {
    let harness: CrashHarness
    /// The renames and moves the scenario made (old path, new path): a version may follow its
    /// item from one to the other.
    var moved: [(from: SyncPath, to: SyncPath)] = []

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

    /// Renames or moves an item on one side, as a user does (the same item, at a new path), over
    /// a file already there when `replacing`.
    mutating func move(_ side: Side, _ from: String, to: String, replacing: Bool = false) throws {
        try harness.fileSystem.moveItem(
            at: root(side).appending(path: from), to: root(side).appending(path: to), replacingExisting: replacing)
        moved.append((SyncPath(from), SyncPath(to)))
    }

    func remove(_ side: Side, _ path: String) throws {
        try harness.fileSystem.removeItem(at: root(side).appending(path: path), recursively: true)
    }

    /// The lock of a run of this host that was killed: its process no longer exists (a process id
    /// above any the kernel hands out), so the next run takes it over at once.
    func killedRunsLock() throws {
        let me = SyncProcess.current
        let record =
            #"{"owner":"a killed run","heartbeat":\#(harness.fileSystem.now.timeIntervalSince1970),"host":"\#(me.host)","boot":"\#(me.bootID)","pid":\#(Self.deadProcess)}"#
        try harness.fileSystem.write(Data(record.utf8), to: CrashHarness.container.appending(path: ".seams-lock"))
    }

    /// A process id no process has: above Linux's largest `pid_max` (2^22) and Darwin's 99,999.
    static let deadProcess: Int32 = 1 << 30

    /// A clean sync, then the clock moves on so later edits get new dates.
    func sync() throws {
        try harness.sync(runID: "setup")
        tick()
    }

    func tick(_ seconds: TimeInterval = 5) { harness.fileSystem.advanceTime(by: seconds) }
}
