import Foundation
import Seams
import SeamsCore
import SeamsTesting
import Testing

@testable import SeamsSync

/// The end of a run that copies: the container's new marker rides with the batch's flush instead
/// of a flush of its own, and the new state is written to its temp name while the final flush
/// goes on, put in place only once that flush has ended well. (Each flush is a wait for the disk
/// on the live file system, and a wait for a core when the machine is busy.)
@Suite struct FinalFlushTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)
    let names = (0..<10).map { "d\($0)/f.txt" }

    /// Work started beside the caller runs only when waited for: the order of calls shows what
    /// the caller did while the work could have been going on.
    final class DeferredStarts: ConcurrentWork {
        func map<T: Sendable>(_ count: Int, width: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
            (0..<count).map(transform)
        }

        func start(_ work: @escaping @Sendable () throws -> Void) -> any PendingWork { Deferred(work) }

        final class Deferred: PendingWork {
            let work: @Sendable () throws -> Void
            init(_ work: @escaping @Sendable () throws -> Void) { self.work = work }
            func wait() -> Result<Void, any Error> { Result { try work() } }
        }
    }

    /// Two folders synced once, then ten files edited on the local side; the next run goes
    /// through the returned boundary.
    func editedPair() throws -> (InMemoryFileSystem, FaultInjectingFileSystem) {
        let fileSystem = InMemoryFileSystem(containerURL: container)
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        for name in names {
            try fileSystem.createDirectory(
                at: local.appending(path: name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileSystem.write(Data("v1 \(name)".utf8), to: local.appending(path: name))
        }
        _ = try SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", runID: { "first" }
        ).run(local: local, container: container, stateDirectory: state)
        fileSystem.advanceTime(by: 5)
        for name in names { try fileSystem.write(Data("v2 \(name), longer".utf8), to: local.appending(path: name)) }
        return (fileSystem, FaultInjectingFileSystem(wrapping: fileSystem))
    }

    func engine(_ boundary: FaultInjectingFileSystem, _ fileSystem: InMemoryFileSystem) -> SyncEngine {
        var engine = SyncEngine(
            directories: boundary, files: boundary, clock: { fileSystem.now }, owner: "test", runID: { "edit" })
        engine.interleaving = DeferredStarts()
        return engine
    }

    func named(_ prefix: String) -> (FileSystemCall) -> Bool {
        { $0.url?.lastPathComponent.hasPrefix(prefix) == true }
    }

    @Test(
        "a run that copies writes the container's new marker before the batch's flush, which makes it durable: renamed after it, never flushed on its own"
    )
    func markerRidesWithTheBatch() throws {
        let (fileSystem, boundary) = try editedPair()
        let report = try engine(boundary, fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 10 && report.failures.isEmpty, "\(report.summary)")
        let calls = boundary.calls
        let marker = named(".seams-tmp-replica-")
        let writes = calls.indices.filter { calls[$0].operation == .write && marker(calls[$0]) }
        let flushes = calls.indices.filter { calls[$0].operation == .synchronizeFile && marker(calls[$0]) }
        let renames = calls.indices.filter { calls[$0].operation == .moveItem && marker(calls[$0]) }
        try #require(writes.count == 1 && renames.count == 1, "\(calls.filter(marker))")
        #expect(flushes.count == 1, "flushed once, with the batch: \(calls.filter(marker))")
        let flush = try #require(flushes.first)
        // The batch's flush: the ten copies' temp files and the marker, nothing but flushes between.
        let copyFlushes = calls.indices.filter {
            calls[$0].operation == .synchronizeFile && named(".seams-tmp-edit-")(calls[$0])
        }
        try #require(copyFlushes.count == 10)
        let batch = min(copyFlushes.min()!, flush)...max(copyFlushes.max()!, flush)
        #expect(
            calls[batch].allSatisfy { $0.operation == .synchronizeFile || $0.operation == .synchronizeDirectory },
            "\(calls[batch].map(\.description))")
        #expect(writes[0] < flush && flush < renames[0])
        let onDisk = try fileSystem.read(from: container.appending(path: ".seams-replica"))
        #expect(String(decoding: onDisk, as: UTF8.self).contains("\"generation\":2"))
        // The marker's name is made durable by the final flush, before the state's commit.
        let rootFlushes = calls.indices.filter {
            calls[$0].operation == .synchronizeDirectory
                && calls[$0].url?.standardizedFileURL.path == container.standardizedFileURL.path
        }
        let commit = try #require(
            calls.indices.last { calls[$0].operation == .moveItem && calls[$0].destination?.pathExtension == "archive" }
        )
        #expect(rootFlushes.contains { renames[0] < $0 && $0 < commit })
    }

    @Test("a run that copies nothing flushes its marker on its own, before the rename")
    func markerAloneIsFlushedFirst() throws {
        let (fileSystem, _) = try editedPair()
        _ = try SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", runID: { "second" }
        ).run(local: local, container: container, stateDirectory: state)
        // Only a deletion now: no copy, so no batch to ride with.
        try fileSystem.removeItem(at: local.appending(path: names[0]), recursively: false)
        let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
        let report = try engine(boundary, fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(report.deletedContainer == 1 && report.failures.isEmpty, "\(report.summary)")
        let calls = boundary.calls
        let marker = named(".seams-tmp-replica-")
        let writes = calls.filter { $0.operation == .write && marker($0) }
        #expect(writes.count == 1, "made and flushed in one call (O_EXCL, write, fsync)")
        #expect(!calls.contains { $0.operation == .synchronizeFile && marker($0) })
        #expect(calls.contains { $0.operation == .moveItem && marker($0) })
    }

    @Test(
        "the new state is written to its temp name while the final flush goes on, and put in place only after the flush"
    )
    func stateWrittenBesideTheFinalFlush() throws {
        let (fileSystem, boundary) = try editedPair()
        _ = try engine(boundary, fileSystem).run(local: local, container: container, stateDirectory: state)
        let calls = boundary.calls
        let stateTemp = calls.indices.filter {
            calls[$0].operation == .write && named(".seams-tmp-archive-")(calls[$0])
        }
        let commit = try #require(
            calls.indices.last { calls[$0].operation == .moveItem && calls[$0].destination?.pathExtension == "archive" }
        )
        // The final flush: the copied files' folders, after the last copy's rename.
        let folderFlushes = calls.indices.filter {
            calls[$0].operation == .synchronizeDirectory && calls[$0].url?.lastPathComponent == "d3"
        }
        let finalFlush = try #require(folderFlushes.last)
        try #require(stateTemp.count == 1)
        #expect(stateTemp[0] < finalFlush, "written while the flush waited to run")
        #expect(finalFlush < commit, "renamed only after the flush")
    }

    @Test(
        "a final flush that fails leaves the old state: the one written meanwhile is removed, the error is the flush's, and the next run finds every copy in place"
    )
    func failedFinalFlush() throws {
        let (fileSystem, boundary) = try editedPair()
        let archive = try #require(
            try fileSystem.contentsOfDirectory(at: state).first { $0.name.hasSuffix(".archive") }?.name)
        let before = try fileSystem.read(from: state.appending(path: archive))
        boundary.addRule(.operation(.synchronizeDirectory, at: local.appending(path: "d3"), fails: .ioError))
        boundary.addRule(.operation(.synchronizeDirectory, at: container.appending(path: "d3"), fails: .ioError))
        #expect(throws: (any Error).self) {
            try engine(boundary, fileSystem).run(local: local, container: container, stateDirectory: state)
        }
        #expect(try fileSystem.read(from: state.appending(path: archive)) == before, "the old state stands")
        let left = try fileSystem.contentsOfDirectory(at: state).map(\.name)
        #expect(!left.contains { $0.hasPrefix(".seams-tmp-") }, "\(left)")
        boundary.removeAllFaults()
        let next = try engine(boundary, fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(next.copiedToContainer == 0 && next.conflicts.isEmpty && next.failures.isEmpty, "\(next.summary)")
        for name in names {
            #expect(
                try fileSystem.read(from: container.appending(path: name)) == Data("v2 \(name), longer".utf8))
        }
    }

    @Test(
        "a batch flush that fails with the marker in it fails its copies alone: the marker is written and flushed on its own at the end, and the run commits"
    )
    func markerOutlivesAFailedBatch() throws {
        let (fileSystem, boundary) = try editedPair()
        // A deletion too, so that the run has something to commit when every copy fails.
        try fileSystem.removeItem(at: local.appending(path: names[0]), recursively: false)
        boundary.addRule(
            .operation(.synchronizeFile, at: container.appending(path: ".seams-tmp-replica-edit"), fails: .ioError))
        let report = try engine(boundary, fileSystem).run(local: local, container: container, stateDirectory: state)
        #expect(
            report.copiedToContainer == 0 && report.failures.count == 9 && report.deletedContainer == 1,
            "\(report.summary)")
        let calls = boundary.calls
        let marker = named(".seams-tmp-replica-")
        let writes = calls.indices.filter { calls[$0].operation == .write && marker(calls[$0]) }
        #expect(writes.count == 2, "staged with the batch, then written again: \(calls.filter(marker))")
        let onDisk = try fileSystem.read(from: container.appending(path: ".seams-replica"))
        #expect(String(decoding: onDisk, as: UTF8.self).contains("\"generation\":2"))
        let left = try fileSystem.contentsOfDirectory(at: container).map(\.name)
        #expect(!left.contains { $0.hasPrefix(".seams-tmp-") }, "\(left)")
        fileSystem.advanceTime(by: 5)
        let next = try SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", runID: { "again" }
        ).run(local: local, container: container, stateDirectory: state)
        #expect(next.copiedToContainer == 9 && next.failures.isEmpty, "\(next.summary)")
    }
}
