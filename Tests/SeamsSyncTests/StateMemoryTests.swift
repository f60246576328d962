import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// The state kept between the runs of one engine (the watcher's) is the state file's contents,
/// is used only while that file is the one it was kept for, and saves reading the file.
@Suite struct StateMemoryTests: InMemoryFolderPair {
    func keepingEngine(_ fileSystem: InMemoryFileSystem, _ memory: StateMemory) -> SyncEngine {
        var engine = engine(fileSystem)
        engine.stateMemory = memory
        return engine
    }

    func store(_ fileSystem: InMemoryFileSystem) -> ArchiveStore {
        ArchiveStore(
            directories: fileSystem, files: fileSystem, stateDirectory: state, localRoot: local,
            containerRoot: container)
    }

    /// What the memory holds for the state file as it is now (`nil`: nothing, or kept for another file).
    func kept(_ memory: StateMemory, _ fileSystem: InMemoryFileSystem) throws -> Archive? {
        let url = store(fileSystem).url
        return memory.archive(at: url, file: StateMemory.Fingerprint(try fileSystem.metadata(at: url)))
    }

    func stateReads(_ fileSystem: InMemoryFileSystem) -> Int {
        let url = store(fileSystem).url
        return fileSystem.calls.filter { $0.operation == .read && $0.url == url }.count
    }

    @Test("after every run, what is kept is what the state file holds")
    func keptIsTheFile() throws {
        let fileSystem = try fileSystem()
        let memory = StateMemory()
        let engine = keepingEngine(fileSystem, memory)
        var random = SplitMix64(seed: 11)
        for round in 0..<8 {
            for step in 0..<3 {
                let side = random.next() % 3 == 0 ? container : local
                let name = "d\(random.next() % 3)/f\(random.next() % 6).txt"
                if random.next() % 4 == 0 {
                    try? fileSystem.removeItem(at: side.appending(path: name), recursively: false)
                } else {
                    try write("r\(round) s\(step)", name, in: side, fileSystem)
                }
            }
            fileSystem.advanceTime(by: 1)
            _ = try engine.run(local: local, container: container, stateDirectory: state)
            let file = try ArchiveCodec.decode(fileSystem.read(from: store(fileSystem).url))
            let kept = try #require(try kept(memory, fileSystem), "round \(round)")
            #expect(kept == file, "round \(round)")
            #expect(kept.entries.changes.isEmpty, "kept compact, as a load gives it")
        }
        #expect(try tree(local, fileSystem) == tree(container, fileSystem))
    }

    @Test("a run after a kept state does not read the state file, and syncs as one that reads it")
    func keptStateNotRead() throws {
        let fileSystem = try fileSystem()
        let engine = keepingEngine(fileSystem, StateMemory())
        try write("v1", "a/x.txt", in: local, fileSystem)
        _ = try engine.run(local: local, container: container, stateDirectory: state)
        try fileSystem.removeItem(at: local.appending(path: "a/x.txt"), recursively: false)
        try write("new", "a/y.txt", in: container, fileSystem)
        fileSystem.advanceTime(by: 1)
        fileSystem.resetCalls()
        let report = try engine.run(local: local, container: container, stateDirectory: state)
        #expect(stateReads(fileSystem) == 0)
        // The deletion is told from a new file only by the state: it was used.
        #expect(report.deletedContainer == 1)
        #expect(report.copiedToLocal == 1)
        #expect(try tree(container, fileSystem) == ["a/y.txt": "new"])
    }

    @Test("a state file another run committed since is read again")
    func replacedStateIsRead() throws {
        let fileSystem = try fileSystem()
        let memory = StateMemory()
        let watching = keepingEngine(fileSystem, memory)
        try write("v1", "x.txt", in: local, fileSystem)
        try write("kept", "keep.txt", in: local, fileSystem)
        _ = try watching.run(local: local, container: container, stateDirectory: state)
        // Another process syncs a removal: its state no longer records x.txt.
        try fileSystem.removeItem(at: local.appending(path: "x.txt"), recursively: false)
        _ = try sync(fileSystem)
        #expect(try kept(memory, fileSystem) == nil)
        // Made again on the container: new to the state on file, which must be the one used (the
        // kept one would take the local side's absence for a deletion).
        try write("again", "x.txt", in: container, fileSystem)
        fileSystem.advanceTime(by: 1)
        fileSystem.resetCalls()
        let report = try watching.run(local: local, container: container, stateDirectory: state)
        #expect(stateReads(fileSystem) == 1)
        #expect(report.copiedToLocal == 1)
        #expect(report.deletedContainer == 0)
        #expect(read("x.txt", in: local, fileSystem) == "again")
    }

    @Test("a state file damaged after it was kept is found damaged, set aside and rebuilt; nothing is deleted")
    func damagedAfterKept() throws {
        let fileSystem = try fileSystem()
        let watching = keepingEngine(fileSystem, StateMemory())
        try write("v1", "x.txt", in: local, fileSystem)
        _ = try watching.run(local: local, container: container, stateDirectory: state)
        fileSystem.advanceTime(by: 1)
        try fileSystem.write(Data("not a state".utf8), to: store(fileSystem).url)
        try fileSystem.removeItem(at: local.appending(path: "x.txt"), recursively: false)
        fileSystem.advanceTime(by: 1)
        let report = try watching.run(local: local, container: container, stateDirectory: state)
        #expect(report.rebuiltState)
        #expect(report.deletedContainer == 0)
        #expect(read("x.txt", in: local, fileSystem) == "v1")
    }

    @Test(
        "an archive written in pieces of any size is the file's table, its restarts where a load finds them",
        arguments: [64, 1000, Int.max])
    func writtenTableIsTheFile(pieceSize: Int) throws {
        var archive = Archive(localRoot: local.path, containerRoot: container.path)
        for index in 0..<500 {
            let stamp = Stamp(size: Int64(index), modified: Int64(index) * 1_000_000_007)
            archive.entries[SyncPath("d\(index % 7)/f\(index).txt")] = Archive.Entry(
                kind: .file, local: stamp, container: stamp, localID: UInt64(index + 10))
        }
        // Read back, then changed: unchanged blocks are copied, the rest encoded again.
        var loaded = try ArchiveCodec.decode(ArchiveCodec.encode(archive))
        loaded.entries[SyncPath("d3/f3.txt")] = nil
        loaded.entries[SyncPath("d0/new.txt")] = Archive.Entry(
            kind: .file, local: Stamp(size: 1, modified: 2), container: Stamp(size: 1, modified: 2))
        var pieces = ArchiveCodec.Pieces(loaded, pieceSize: pieceSize)
        var file = Data()
        while let piece = pieces.next() { file.append(piece) }
        #expect(pieces.copiedBlocks > 0)
        let written = pieces.archive(
            writtenTo: file, localRoot: loaded.localRoot, containerRoot: loaded.containerRoot, replica: nil)
        let decoded = try ArchiveCodec.decode(file)
        #expect(written.entries.changes.isEmpty)
        #expect(written.entries.table.restarts == decoded.entries.table.restarts)
        #expect(written.entries.table.start == decoded.entries.table.start)
        #expect(written.entries.table.end == decoded.entries.table.end)
        #expect(written == decoded)
        #expect(written == loaded)
        for (path, entry) in decoded.entries {
            #expect(written.entries[path] == entry, "\(path)")
        }
        #expect(written.entries[SyncPath("d3/f3.txt")] == nil)
    }

    @Test("what is kept is dropped when another file was placed than the one staged, or the file cannot be looked at")
    func placedOtherwise() throws {
        let memory = StateMemory()
        let url = state.appending(path: "pair.archive")
        let file = StateMemory.Fingerprint(
            FileMetadata(
                kind: .file, size: 10, modificationDate: Date(timeIntervalSince1970: 5), permissions: 0o644,
                fileIdentifier: 3))
        let archive = Archive(localRoot: local.path, containerRoot: container.path)
        memory.stage(archive, as: state.appending(path: "a.tmp"))
        memory.placed(state.appending(path: "a.tmp"), at: url, file: file)
        #expect(memory.archive(at: url, file: file) == archive)
        #expect(memory.archive(at: state.appending(path: "other.archive"), file: file) == nil)
        var moved = file
        moved.fileIdentifier = 4
        #expect(memory.archive(at: url, file: moved) == nil)
        memory.stage(archive, as: state.appending(path: "b.tmp"))
        memory.placed(state.appending(path: "c.tmp"), at: url, file: file)
        #expect(memory.archive(at: url, file: file) == nil)
        memory.keep(archive, at: url, file: file)
        memory.stage(archive, as: state.appending(path: "d.tmp"))
        memory.placed(state.appending(path: "d.tmp"), at: url, file: nil)
        #expect(memory.archive(at: url, file: file) == nil)
    }
}
