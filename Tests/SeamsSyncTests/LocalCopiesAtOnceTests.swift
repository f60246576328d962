import Foundation
import Seams
import Testing

@testable import SeamsSync

/// Between local folders, files are copied to their temp names two at a time, and new files moved
/// into place two at a time, on the real file system; one at a time when the engine must keep its
/// calls in order.
@Suite struct LocalCopiesAtOnceTests {
    let base: URL
    var local: URL { base.appending(path: "local", directoryHint: .isDirectory) }
    var container: URL { base.appending(path: "container", directoryHint: .isDirectory) }
    var state: URL { base.appending(path: "state", directoryHint: .isDirectory) }

    init() throws {
        base = FileManager.default.temporaryDirectory.appending(
            path: "seams-copies-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: local.appending(path: "d"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        for index in 0..<20 {
            try Data("file \(index)".utf8).write(to: local.appending(path: "d/f\(index).txt"))
        }
    }

    /// Watches the copies to temp names: how many run at once, holding the first `gathering`
    /// until that many have arrived (30 s at most, so a run that copies one at a time ends, and
    /// fails the test, rather than hangs).
    final class Watch: Sendable {
        let gathering: Int
        let watched: String
        let state = LockedValue((inFlight: 0, most: 0, arrived: 0, copies: 0))

        init(gathering: Int, watching watched: String = "copyItem") {
            self.gathering = gathering
            self.watched = watched
        }

        /// Counts a watched call (`copies` counts them all) and holds the first `gathering`.
        /// Returns whether the call was watched.
        @discardableResult
        func before(_ call: String, _ url: URL) -> Bool {
            guard call == watched else { return false }
            let held = state.withLock { state in
                state.copies += 1
                state.inFlight += 1
                state.most = max(state.most, state.inFlight)
                state.arrived += 1
                return state.arrived <= gathering
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while held, state.withLock({ $0.arrived }) < gathering, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.002)
            }
            return true
        }

        func after() {
            state.withLock { $0.inFlight -= 1 }
        }
    }

    /// The live file system, announcing each `copyItem` to a watch and counting it done when it returns.
    final class Watched: DirectoryAccessorProviding, FileAccessorProviding {
        let boundary = LiveBoundary()
        let watch: Watch
        /// Runs before each move of a temp file to a new name (source, destination).
        let beforeNewName: @Sendable (URL, URL) throws -> Void
        /// Runs before each batch flush that holds files (their URLs).
        let beforeBatchFlush: @Sendable ([URL]) throws -> Void

        init(
            _ watch: Watch, beforeNewName: @escaping @Sendable (URL, URL) throws -> Void = { _, _ in },
            beforeBatchFlush: @escaping @Sendable ([URL]) throws -> Void = { _ in }
        ) {
            self.watch = watch
            self.beforeNewName = beforeNewName
            self.beforeBatchFlush = beforeBatchFlush
        }

        func read(from url: URL) throws -> Data { try boundary.read(from: url) }
        func write(_ data: Data, to url: URL) throws { try boundary.write(data, to: url) }
        func fileExists(at url: URL) -> Bool { boundary.fileExists(at: url) }
        func contentsEqual(_ first: URL, _ second: URL) throws -> Bool { try boundary.contentsEqual(first, second) }
        func createFile(_ data: Data, at url: URL) throws { try boundary.createFile(data, at: url) }
        func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] { try boundary.contentsOfDirectory(at: url) }
        func metadata(at url: URL) throws -> FileMetadata { try boundary.metadata(at: url) }
        func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
            try boundary.createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories)
        }
        func removeItem(at url: URL, recursively: Bool) throws {
            try boundary.removeItem(at: url, recursively: recursively)
        }
        func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
            guard !replacingExisting, source.lastPathComponent.hasPrefix(".seams-tmp-") else {
                return try boundary.moveItem(at: source, to: destination, replacingExisting: replacingExisting)
            }
            let watched = watch.before("moveItem", source)
            defer { if watched { watch.after() } }
            try beforeNewName(source, destination)
            try boundary.moveItem(at: source, to: destination, replacingExisting: false)
        }
        func copyItem(at source: URL, to destination: URL) throws {
            let watched = watch.before("copyItem", source)
            defer { if watched { watch.after() } }
            try boundary.copyItem(at: source, to: destination)
        }
        func linkItem(at source: URL, to destination: URL) throws { try boundary.linkItem(at: source, to: destination) }
        func destinationOfSymbolicLink(at url: URL) throws -> String { try boundary.destinationOfSymbolicLink(at: url) }
        func createSymbolicLink(at url: URL, withDestination destination: String) throws {
            try boundary.createSymbolicLink(at: url, withDestination: destination)
        }
        func synchronizeFile(at url: URL) throws { try boundary.synchronizeFile(at: url) }
        func synchronizeDirectory(at url: URL) throws { try boundary.synchronizeDirectory(at: url) }
        func synchronize(files: [URL], directories: [URL]) throws {
            if !files.isEmpty { try beforeBatchFlush(files) }
            try boundary.synchronize(files: files, directories: directories)
        }
        func setPermissions(_ permissions: UInt16, at url: URL) throws {
            try boundary.setPermissions(permissions, at: url)
        }
        func setModificationDate(_ date: Date, at url: URL) throws { try boundary.setModificationDate(date, at: url) }
        func exchangeItems(at first: URL, and second: URL) throws -> Bool {
            try boundary.exchangeItems(at: first, and: second)
        }
    }

    @Test("a first sync copies two files at once, each once, and leaves the same tree as one at a time")
    func twoAtOnce() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let watch = Watch(gathering: 2)
        let watched = Watched(watch)
        let report = try sync(watched)
        #expect(report.copiedToContainer == 20 && report.failures.isEmpty, "\(report.summary)")
        let seen = watch.state.withLock { $0 }
        #expect(seen.most == 2, "two copies were in flight together")
        #expect(seen.copies == 20, "each file copied once")
        for index in 0..<20 {
            #expect(try Data(contentsOf: container.appending(path: "d/f\(index).txt")) == Data("file \(index)".utf8))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: container.appending(path: "d").path)
        #expect(!names.contains { $0.hasPrefix(".seams-tmp") }, "\(names)")
    }

    @Test("an engine that keeps its calls in order copies one file at a time")
    func oneAtATime() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let watch = Watch(gathering: 0)
        let watched = Watched(watch)
        let report = try sync(watched, inOrder: true)
        #expect(report.copiedToContainer == 20)
        #expect(watch.state.withLock { ($0.most, $0.copies) } == (1, 20))
    }

    /// One run of an engine that copies at once (unless `inOrder`) through `accessor`.
    private func sync(_ accessor: Watched, options: SyncOptions = SyncOptions(), inOrder: Bool = false) throws
        -> SyncReport
    {
        try SyncEngine(directories: accessor, files: accessor, owner: "test", scansConcurrently: !inOrder).run(
            local: local, container: container, stateDirectory: state, options: options)
    }

    /// Expects no `.seams-tmp-` name left in each of `folders` of the container.
    private func expectNoTempFiles(in folders: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: container.appending(path: folder).path)
            #expect(!names.contains { $0.hasPrefix(".seams-tmp") }, "\(names)", sourceLocation: sourceLocation)
        }
    }

    /// Expects every file of ``twoFolders()`` in the container with its content, and no temp file.
    private func expectTwoFoldersLanded(sourceLocation: SourceLocation = #_sourceLocation) throws {
        for folder in ["a", "b"] {
            for index in 0..<10 {
                let copy = try Data(contentsOf: container.appending(path: "\(folder)/f\(index).txt"))
                #expect(copy == Data("\(folder) \(index)".utf8), sourceLocation: sourceLocation)
            }
        }
        try expectNoTempFiles(in: ["a", "b"], sourceLocation: sourceLocation)
    }

    /// Ten new files in each of the folders `a` and `b` of the local folder.
    private func twoFolders() throws {
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(
                at: local.appending(path: folder), withIntermediateDirectories: true)
            for index in 0..<10 {
                try Data("\(folder) \(index)".utf8).write(to: local.appending(path: "\(folder)/f\(index).txt"))
            }
        }
    }

    @Test("new files in two folders are moved into place two at a time, each once, and every one lands")
    func newNamesTwoAtOnce() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try twoFolders()
        let watch = Watch(gathering: 2, watching: "moveItem")
        let watched = Watched(watch)
        let report = try sync(watched)
        #expect(report.copiedToContainer == 40 && report.failures.isEmpty, "\(report.summary)")
        let seen = watch.state.withLock { $0 }
        #expect(seen.most == 2, "two moves into place were in flight together")
        #expect(seen.copies == 40, "each new file moved into place once")
        try expectTwoFoldersLanded()
        let again = try sync(watched)
        #expect(again.copiedToContainer == 0 && again.copiedToLocal == 0 && again.failures.isEmpty)
    }

    @Test(
        "a name taken after the scan is not replaced by a move made at once with others: the file there stays, the new one becomes a conflict copy"
    )
    func newNameTakenMeanwhile() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try twoFolders()
        let taken = container.appending(path: "b/f3.txt")
        let watched = Watched(Watch(gathering: 0)) { _, destination in
            if destination.path == taken.path { try Data("made meanwhile".utf8).write(to: taken) }
        }
        let report = try sync(watched)
        #expect(try Data(contentsOf: taken) == Data("made meanwhile".utf8), "the file made meanwhile is kept")
        #expect(report.conflicts.map(\.path) == ["b/f3.txt"], "\(report.summary)")
        let copy = try #require(report.conflicts.first?.copy)
        #expect(try Data(contentsOf: container.appending(path: copy)) == Data("b 3".utf8))
        #expect(report.copiedToContainer == 39)
        try expectNoTempFiles(in: ["b"])
    }

    @Test(
        "a move into place that fails among others fails that path alone: its temp file is removed, the rest land, the next run places it"
    )
    func failedMoveAmongOthers() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try twoFolders()
        let failing = container.appending(path: "a/f7.txt")
        let watched = Watched(Watch(gathering: 0)) { _, destination in
            if destination.path == failing.path {
                throw CocoaError.fileSystemError(errno: EIO, path: destination.path, writing: true)
            }
        }
        let report = try sync(watched)
        #expect(report.failures.map(\.path) == ["a/f7.txt"], "\(report.summary)")
        #expect(report.copiedToContainer == 39)
        #expect(!FileManager.default.fileExists(atPath: failing.path))
        try expectNoTempFiles(in: ["a", "b"])
        let again = try SyncEngine(directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor(), owner: "test")
            .run(
                local: local, container: container, stateDirectory: state)
        #expect(again.copiedToContainer == 1 && again.failures.isEmpty, "\(again.summary)")
        #expect(try Data(contentsOf: failing) == Data("a 7".utf8))
    }

    /// Options with batches of five copies.
    private var smallBatches: SyncOptions {
        var options = SyncOptions()
        options.copyBatchCount = 5
        return options
    }

    @Test("a full batch is flushed while the next batch is copied, and every batch lands once flushed")
    func flushBesideCopies() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try twoFolders()
        let watch = Watch(gathering: 0)
        let flushes = LockedValue((count: 0, copiesSeenDuringFirst: 0))
        let watched = Watched(
            watch,
            beforeBatchFlush: { _ in
                let first = flushes.withLock { state in
                    state.count += 1
                    return state.count == 1
                }
                guard first else { return }
                // The first batch's flush waits until a copy of the next batch has started (30 s at
                // most): a run that copies nothing while a flush runs ends this wait with none seen.
                // The first batch is the first five copies; the next may have started before this
                // thread got here, so copies are counted from the batch's end, not from now.
                let firstBatch = 5
                let deadline = ContinuousClock.now + .seconds(30)
                while watch.state.withLock({ $0.copies }) <= firstBatch, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.002)
                }
                let during = watch.state.withLock { $0.copies } - firstBatch
                flushes.withLock { $0.copiesSeenDuringFirst = during }
            })
        let report = try sync(watched, options: smallBatches)
        #expect(report.copiedToContainer == 40 && report.failures.isEmpty, "\(report.summary)")
        let seen = flushes.withLock { $0 }
        #expect(seen.count == 8, "eight batches of five")
        #expect(seen.copiesSeenDuringFirst > 0, "the next batch was copied while the first was flushed")
        try expectTwoFoldersLanded()
    }

    @Test(
        "a batch whose flush fails on the other thread fails its own copies alone: their temp files are removed, the other batches land, the next run copies them"
    )
    func failedBackgroundFlush() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try twoFolders()
        let failed = LockedValue<[String]>([])
        let flushes = LockedValue(0)
        let watched = Watched(
            Watch(gathering: 0),
            beforeBatchFlush: { files in
                guard
                    flushes.withLock({ count in
                        count += 1
                        return count == 2
                    })
                else { return }
                // Two batches' flushes may overlap, so the second to get here may be the first
                // batch, which also carries the container's new marker: only copies are counted.
                let marker = "\(Snapshot.temporaryPrefix)replica-"
                failed.withLock { $0 = files.filter { !$0.lastPathComponent.hasPrefix(marker) }.map(\.path) }
                throw CocoaError.fileSystemError(errno: EIO, path: files[0].path, writing: true)
            })
        let report = try sync(watched, options: smallBatches)
        #expect(failed.withLock { $0.count } == 5)
        #expect(report.failures.count == 5 && report.copiedToContainer == 35, "\(report.summary)")
        for failure in report.failures {
            #expect(!FileManager.default.fileExists(atPath: container.appending(path: failure.path).path))
        }
        try expectNoTempFiles(in: ["a", "b"])
        let again = try SyncEngine(directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor(), owner: "test")
            .run(
                local: local, container: container, stateDirectory: state)
        #expect(again.copiedToContainer == 5 && again.failures.isEmpty, "\(again.summary)")
        let left = try FileManager.default.contentsOfDirectory(atPath: container.path)
        #expect(!left.contains { $0.hasPrefix(Snapshot.temporaryPrefix) }, "no marker temp file is left: \(left)")
    }
}
