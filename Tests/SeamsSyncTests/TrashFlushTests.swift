import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// The trash folders a batch of replacing copies needs are made first and made durable together:
/// one flush for the batch, not one per folder (each is a `syncfs` on the live file system, which
/// waits for everything dirty on that file system to reach the disk).
@Suite struct TrashFlushTests {
    let local = URL(filePath: "/local", directoryHint: .isDirectory)
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let state = URL(filePath: "/state", directoryHint: .isDirectory)

    @Test(
        "ten files edited in ten folders: one flush for their temp files, the new trash folders and the versions kept there, before any rename"
    )
    func oneFlushForTheBatchsTrashFolders() throws {
        let fileSystem = InMemoryFileSystem(containerURL: container)
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        let names = (0..<10).map { "d\($0)/f.txt" }
        for name in names {
            try fileSystem.createDirectory(
                at: local.appending(path: name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileSystem.write(Data("v1 \(name)".utf8), to: local.appending(path: name))
        }
        let engine = SyncEngine(
            directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test", runID: { "edit" })
        _ = try engine.run(local: local, container: container, stateDirectory: state)
        fileSystem.advanceTime(by: 5)
        for name in names { try fileSystem.write(Data("v2 \(name), longer".utf8), to: local.appending(path: name)) }

        let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
        let report = try SyncEngine(
            directories: boundary, files: boundary, clock: { fileSystem.now }, owner: "test", runID: { "edit" }
        )
        .run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 10)
        let calls = boundary.calls
        let runTrash = try #require(
            calls.first {
                $0.operation == .createDirectory && $0.url?.path.contains("/.seams-trash/") == true
            }?.url?.deletingLastPathComponent().standardizedFileURL.path)
        func inTrash(_ call: FileSystemCall) -> Bool {
            call.url?.path.hasPrefix(container.path + "/.seams-trash") == true
        }
        let made = calls.indices.filter { calls[$0].operation == .createDirectory && inTrash(calls[$0]) }
        let flushes = calls.indices.filter { calls[$0].operation == .synchronizeDirectory && inTrash(calls[$0]) }
        #expect(made.count == 10, "one new trash folder per edited folder")
        let runTrashFlushes = calls.indices.filter {
            calls[$0].operation == .synchronizeDirectory && calls[$0].url?.standardizedFileURL.path == runTrash
        }
        #expect(
            runTrashFlushes.count == 1,
            "the run's trash folder, parent of the ten new ones, is flushed once: with the batch, not again at the end")
        #expect(made.max()! < flushes.min()!, "every new trash folder is made before the first trash flush")
        // The batch's ten temp files and the new trash folders' parents go in one flush (one
        // `syncfs` on the live file system): nothing but flushes between the first and the last.
        let tempFlushes = calls.indices.filter {
            calls[$0].operation == .synchronizeFile
                && calls[$0].url?.lastPathComponent.hasPrefix(".seams-tmp-edit-") == true
        }
        #expect(tempFlushes.count == 10)
        #expect(made.max()! < tempFlushes.min()!, "the trash folders are made before the batch's flush")
        let first = try #require(tempFlushes.min())
        let last = try #require(runTrashFlushes.first)
        let batch = first..<last
        #expect(
            calls[batch].allSatisfy { $0.operation == .synchronizeFile || $0.operation == .synchronizeDirectory },
            "one flush for the temp files and the trash folders: \(calls[batch].map(\.operation))")
        // The ten versions replaced are linked into the trash before that flush (it makes them
        // durable too), and no target is replaced before it ends.
        let links = calls.indices.filter {
            calls[$0].operation == .linkItem
                && calls[$0].destination?.path.hasPrefix(container.path + "/.seams-trash") == true
        }
        try #require(links.count == 10)
        #expect(links.max()! < first, "every replaced version is kept in the trash before the batch's flush")
        let renames = calls.indices.filter {
            calls[$0].operation == .moveItem && calls[$0].url?.lastPathComponent.hasPrefix(".seams-tmp-edit-") == true
        }
        try #require(renames.count >= 10, "each temp file is moved onto (or exchanged with) its target")
        #expect(renames.min()! > last, "no target is replaced before the flush")
        let trashLeafFlushes = calls.indices.filter {
            calls[$0].operation == .synchronizeDirectory
                && calls[$0].url?.deletingLastPathComponent().standardizedFileURL.path == runTrash
        }
        #expect(
            trashLeafFlushes.count == 10 && trashLeafFlushes.allSatisfy { batch.contains($0) },
            "the ten folders holding the kept versions are flushed once, in the batch")
        for name in names {
            #expect(try fileSystem.read(from: container.appending(path: name)) == Data("v2 \(name), longer".utf8))
        }
    }
}
