import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// The watch loop, on the in-memory file system and a fake watcher with its own clock: no
/// sleeps, every time below is the fake's.
@Suite struct SyncWatcherTests: InMemoryFolderPair {
    /// What the watcher told, with the fake's time.
    final class Told: Sendable {
        let events = LockedValue<[(Duration, SyncWatcher.Event)]>([])
        var syncs: [(time: Duration, sync: SyncWatcher.Sync)] {
            events.withLock { list in
                list.compactMap { time, event in
                    if case .synced(let sync) = event { return (time, sync) }
                    return nil
                }
            }
        }
        var waits: [(SyncError, Duration)] {
            events.withLock { list in
                list.compactMap { _, event in
                    if case .waiting(let error, let retry) = event { return (error, retry) }
                    return nil
                }
            }
        }
        var resumed: Int {
            events.withLock { list in list.filter { if case .resumed = $0.1 { true } else { false } }.count }
        }
        var notWatched: [Side] {
            events.withLock { list in
                list.compactMap { if case .notWatched(let side, _) = $0.1 { side } else { nil } }
            }
        }
    }

    /// Runs a watcher until the fake's clock reaches `end`, with `script` scheduled on it.
    func watch(
        _ fileSystem: InMemoryFileSystem, events: InMemoryFileEvents, until end: Duration,
        settings: SyncWatcher.Settings = SyncWatcher.Settings(), container: URL? = nil
    ) throws -> Told {
        let stop = SyncStopToken()
        events.schedule(at: end) { _ in stop.requestStop() }
        let told = Told()
        let engine = SyncEngine(directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test")
        try SyncWatcher(engine: engine, events: events, settings: settings).run(
            local: local, container: container ?? self.container, stateDirectory: state, stop: stop
        ) { event in
            told.events.withLock { $0.append((events.now, event)) }
        }
        return told
    }

    func seeded() throws -> InMemoryFileSystem {
        let fileSystem = try fileSystem()
        for path in ["a/one.txt", "a/b/two.txt", "c/three.txt", "top.txt"] {
            try write("v1", path, in: local, fileSystem)
        }
        return fileSystem
    }

    @Test(
        "the first sync lists both sides whole; a saved file reaches the container after the quiet time, by a sync listing its folder only"
    )
    func editSyncsItsFolder() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let local = self.local
        events.schedule(at: .seconds(5)) { fileSystem in
            try fileSystem.write(Data("v2".utf8), to: local.appending(path: "a/b/two.txt"))
        }
        let told = try watch(fileSystem, events: events, until: .seconds(20))
        let syncs = told.syncs
        #expect(syncs.first?.sync.reason == .start)
        #expect(syncs.first?.sync.scope == .full)
        #expect(syncs.first?.sync.report.copiedToContainer == 4)
        let edit = try #require(syncs.first { $0.sync.report.copiedToContainer == 1 })
        #expect(edit.sync.reason == .changes)
        #expect(edit.sync.scope.local == ChangedFolders(folders: ["a/b"]))
        #expect(edit.time == .seconds(5) + SyncWatcher.Settings().quiet)
        #expect(read("a/b/two.txt", in: container, fileSystem) == "v2")
        // No whole listing but the first in 20 seconds (the container is watched too).
        #expect(syncs.dropFirst().allSatisfy { $0.sync.scope.local != nil && $0.sync.scope.container != nil })
    }

    @Test("a file still being written is waited for: one sync after the last write and the quiet time")
    func quietTimeWaits() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let local = self.local
        for step in 0..<5 {
            events.schedule(at: .seconds(5) + .milliseconds(100 * step)) { fileSystem in
                try fileSystem.write(Data("part \(step)".utf8), to: local.appending(path: "c/growing.txt"))
            }
        }
        let told = try watch(fileSystem, events: events, until: .seconds(20))
        let copies = told.syncs.filter { $0.sync.report.copiedToContainer > 0 && $0.sync.reason == .changes }
        #expect(copies.count == 1)
        #expect(copies.first?.time == .seconds(5) + .milliseconds(400) + SyncWatcher.Settings().quiet)
        #expect(read("c/growing.txt", in: container, fileSystem) == "part 4")
    }

    @Test(
        "the wall clock set back an hour, then on a day, moves no sync: each edit is synced at its time plus the quiet time, none as a whole scan"
    )
    func wallClockChanges() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let local = self.local
        events.schedule(at: .seconds(5)) { fileSystem in
            try fileSystem.write(Data("before".utf8), to: local.appending(path: "a/one.txt"))
        }
        events.schedule(at: .seconds(10)) { fileSystem in fileSystem.now = fileSystem.now.addingTimeInterval(-3600) }
        // Saved an hour earlier by the wall clock than the state's record of it: a change all the same.
        events.schedule(at: .seconds(15)) { fileSystem in
            try fileSystem.write(Data("set back".utf8), to: local.appending(path: "a/one.txt"))
        }
        events.schedule(at: .seconds(20)) { fileSystem in fileSystem.now = fileSystem.now.addingTimeInterval(86_400) }
        events.schedule(at: .seconds(25)) { fileSystem in
            try fileSystem.write(Data("on a day".utf8), to: local.appending(path: "c/three.txt"))
        }
        let told = try watch(fileSystem, events: events, until: .seconds(40))
        let quiet = SyncWatcher.Settings().quiet
        let copies = told.syncs.filter { $0.sync.report.copiedToContainer > 0 && $0.sync.reason == .changes }
        #expect(copies.map(\.time) == [.seconds(5) + quiet, .seconds(15) + quiet, .seconds(25) + quiet])
        #expect(told.syncs.filter { $0.sync.scope == .full }.count == 1, "the first sync only")
        #expect(told.waits.isEmpty)
        #expect(read("a/one.txt", in: container, fileSystem) == "set back")
        #expect(read("c/three.txt", in: container, fileSystem) == "on a day")
    }

    @Test("a change in the container folder comes back to the local folder")
    func containerChange() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let container = self.container
        events.schedule(at: .seconds(3)) { fileSystem in
            try fileSystem.write(Data("there".utf8), to: container.appending(path: "c/from-there.txt"))
        }
        let told = try watch(fileSystem, events: events, until: .seconds(10))
        #expect(read("c/from-there.txt", in: local, fileSystem) == "there")
        #expect(told.syncs.contains { $0.sync.scope.container == ChangedFolders(folders: ["c"]) })
    }

    @Test("events lost (the queue overflowed) make the next sync list both sides whole")
    func overflowScansWhole() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        events.schedule(at: .seconds(4)) { fileSystem in
            // A change the watcher never reports, and the report that events were lost.
            try fileSystem.write(Data("unseen".utf8), to: URL(filePath: "/local/a/unseen.txt"))
            events.loseEvents(of: 0)
        }
        let told = try watch(fileSystem, events: events, until: .seconds(10))
        let whole = told.syncs.filter { $0.sync.reason == .fullScan }
        #expect(whole.count == 1)
        // The side whose events were lost is listed whole; the other, watched, by its events.
        #expect(whole.first?.sync.scope.local == nil)
        #expect(whole.first?.sync.scope.container != nil)
        #expect(read("a/unseen.txt", in: container, fileSystem) == "unseen")
    }

    @Test("a wait that lasted far longer than asked (the machine slept) makes the next sync list both sides whole")
    func resumeFromSleep() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        events.schedule(at: .seconds(4)) { _ in events.sleepMachine(for: .seconds(3600)) }
        let told = try watch(fileSystem, events: events, until: .seconds(3700))
        #expect(told.syncs.filter { $0.sync.reason == .fullScan }.count == 1)
    }

    @Test("both sides are listed whole once an hour even when nothing changed")
    func periodicWholeScan() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let told = try watch(fileSystem, events: events, until: .seconds(3 * 3600 + 10))
        let whole = told.syncs.filter { $0.sync.reason == .fullScan }
        #expect(whole.map(\.time) == [.seconds(3600), .seconds(7200), .seconds(10800)])
        #expect(whole.allSatisfy { $0.sync.scope == .full })
        // Idle otherwise: the start, the one that saw the start's own writes, the hourly scans.
        #expect(told.syncs.count == 5)
        #expect(told.syncs.filter { $0.sync.reason == .changes }.allSatisfy { $0.sync.report.changedNothing })
    }

    @Test("without a watcher both sides are listed whole at every poll, and changes still arrive")
    func noWatcherPolls() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem, failure: .unsupported)
        let local = self.local
        events.schedule(at: .seconds(40)) { fileSystem in
            try fileSystem.write(Data("late".utf8), to: local.appending(path: "late.txt"))
        }
        var settings = SyncWatcher.Settings()
        settings.poll = .seconds(30)
        let told = try watch(fileSystem, events: events, until: .seconds(100), settings: settings)
        #expect(told.notWatched == [.local])
        let polls = told.syncs.filter { $0.sync.reason == .poll }
        #expect(polls.map(\.time) == [.seconds(30), .seconds(60), .seconds(90)])
        #expect(polls.allSatisfy { $0.sync.scope == .full })
        #expect(polls.first { $0.time == .seconds(60) }?.sync.report.copiedToContainer == 1)
    }

    @Test("the container gone: told once, retried with doubling waits, and synced again when it is back")
    func containerGoneAndBack() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let (local, container) = (self.local, self.container)
        events.schedule(at: .seconds(5)) { fileSystem in
            try fileSystem.removeItem(at: container, recursively: true)
            events.loseEvents(of: 1, unwatched: true, reason: "unmounted")
            try fileSystem.write(Data("offline edit".utf8), to: local.appending(path: "a/offline.txt"))
        }
        events.schedule(at: .seconds(40)) { fileSystem in
            try fileSystem.createDirectory(at: container, withIntermediateDirectories: false)
        }
        let told = try watch(fileSystem, events: events, until: .seconds(200))
        #expect(told.notWatched == [.container])
        let waits = told.waits
        #expect(waits.count == 1)
        #expect(waits.first?.0 == .folderNotAvailable(container))
        #expect(told.resumed == 1)
        // The retries in between were not told again; the container has everything once back.
        #expect(read("a/offline.txt", in: container, fileSystem) == "offline edit")
        #expect(try tree(local, fileSystem) == tree(container, fileSystem))
    }

    @Test("retries wait 1, 2, 4… seconds, at most the longest retry")
    func backOff() {
        var settings = SyncWatcher.Settings()
        settings.longestRetry = .seconds(8)
        var loop = SyncWatcher.Loop(settings: settings, watchedSides: 2)
        loop.start(at: .zero)
        var now = Duration.zero
        var waits: [Duration] = []
        for _ in 0..<6 {
            guard let (scope, _) = loop.due(at: now) else { break }
            _ = loop.failed(scope, .folderNotAvailable(container), at: now)
            now = loop.nextDue(after: now)
            waits.append(now - (waits.reduce(.zero, +)))
        }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
    }

    @Test("a sync that changed a folder's rules makes the next sync list that folder whole on both sides")
    func rulesChangedListedWhole() {
        var loop = SyncWatcher.Loop(settings: SyncWatcher.Settings(), watchedSides: 2)
        loop.start(at: .zero)
        guard let (first, _) = loop.due(at: .zero) else {
            Issue.record("no first sync")
            return
        }
        var report = SyncReport()
        report.rulesChanged = ["d/sub"]
        _ = loop.succeeded(first, report, at: .seconds(1))
        // The sync's own writes seen: the next sync lists them, and the rules' folder whole
        // with the folder above it.
        loop.add(FileEvents(changes: [0: ChangedFolders(folders: ["e"])]), at: .seconds(1))
        let now = loop.nextDue(after: .seconds(1))
        guard let (next, reason) = loop.due(at: now) else {
            Issue.record("no sync after the events")
            return
        }
        #expect(reason == .changes)
        #expect(next.local == ChangedFolders(folders: ["d", "e"], trees: ["d/sub"]))
        #expect(next.container == ChangedFolders(folders: ["d"], trees: ["d/sub"]))
    }

    @Test("asked to stop, the watcher returns without another sync")
    func stops() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let told = try watch(fileSystem, events: events, until: .seconds(1))
        #expect(told.syncs.first?.sync.reason == .start)
        #expect(told.syncs.allSatisfy { $0.time < .seconds(1) })
        #expect(events.now < .seconds(1) + SyncWatcher.Settings().stopCheck)
    }

    @Test("rules the options give: a folder they ignore makes no sync")
    func ignoredChangesMakeNoCopy() throws {
        let fileSystem = try seeded()
        let events = InMemoryFileEvents(fileSystem: fileSystem)
        let local = self.local
        events.schedule(at: .seconds(5)) { fileSystem in
            try fileSystem.write(Data("junk".utf8), to: local.appending(path: "a/.DS_Store"))
        }
        let told = try watch(fileSystem, events: events, until: .seconds(10))
        #expect(read("a/.DS_Store", in: container, fileSystem) == nil)
        #expect(told.syncs.allSatisfy { $0.sync.report.copiedToContainer == 0 || $0.sync.reason == .start })
    }
}
