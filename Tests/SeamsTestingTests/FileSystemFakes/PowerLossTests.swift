import Foundation
import Seams
import SeamsTesting
import Testing

/// The power-loss model of ``InMemoryFileSystem``: what is not flushed is lost at a cut.
@Suite struct PowerLossTests {
    let fs = InMemoryFileSystem()
    let folder = URL(filePath: "/data")
    var file: URL { folder.appending(path: "file") }

    init() throws {
        try fs.createDirectory(at: folder, withIntermediateDirectories: false)
        fs.synchronizeAll()
        fs.resetCalls()
    }

    private func text(_ url: URL) throws -> String { String(decoding: try fs.read(from: url), as: UTF8.self) }

    @Test("a new file nobody flushed is gone after a cut")
    func unflushedFileLost() throws {
        try fs.write(Data("new".utf8), to: file)
        fs.cutPower()
        #expect(!fs.fileExists(at: file))
    }

    @Test("a flushed file whose folder was not flushed loses its name")
    func nameNeedsFolderFlush() throws {
        try fs.write(Data("new".utf8), to: file)
        try fs.synchronizeFile(at: file)
        fs.cutPower()
        #expect(!fs.fileExists(at: file))
    }

    @Test("a flushed name whose content was not flushed comes back empty")
    func contentNeedsFileFlush() throws {
        try fs.write(Data("new".utf8), to: file)
        try fs.synchronizeDirectory(at: folder)
        fs.cutPower()
        #expect(try fs.read(from: file) == Data())
    }

    @Test("file and folder flushed: everything survives")
    func bothFlushed() throws {
        try fs.write(Data("new".utf8), to: file)
        try fs.synchronizeFile(at: file)
        try fs.synchronizeDirectory(at: folder)
        fs.cutPower()
        #expect(try text(file) == "new")
    }

    @Test("a batch flush keeps exactly what it lists: the listed file's content and the listed folder's names")
    func batchFlush() throws {
        let other = folder.appending(path: "other")
        try fs.write(Data("listed".utf8), to: file)
        try fs.write(Data("not listed".utf8), to: other)
        try fs.synchronize(files: [file], directories: [folder])
        #expect(fs.calls.map(\.operation) == [.write, .write, .synchronizeFile, .synchronizeDirectory])
        fs.cutPower()
        #expect(try text(file) == "listed")
        #expect(try fs.read(from: other) == Data(), "its name was flushed with the folder, its content was not")
    }

    @Test("an unflushed rename is undone; a flushed one stays", arguments: [false, true])
    func renames(flushFolder: Bool) throws {
        try fs.write(Data("old".utf8), to: file)
        fs.synchronizeAll()
        let temp = folder.appending(path: ".tmp")
        try fs.write(Data("new".utf8), to: temp)
        try fs.synchronizeFile(at: temp)
        try fs.moveItem(at: temp, to: file, replacingExisting: true)
        if flushFolder { try fs.synchronizeDirectory(at: folder) }
        fs.cutPower()
        #expect(try text(file) == (flushFolder ? "new" : "old"))
    }

    @Test("an unflushed removal is undone, a flushed one stays", arguments: [false, true])
    func removals(flushFolder: Bool) throws {
        try fs.write(Data("kept".utf8), to: file)
        fs.synchronizeAll()
        try fs.removeItem(at: file, recursively: false)
        if flushFolder { try fs.synchronizeDirectory(at: folder) }
        fs.cutPower()
        #expect(fs.fileExists(at: file) == !flushFolder)
        if !flushFolder { #expect(try text(file) == "kept") }
    }

    @Test("permissions and dates revert to the flushed ones")
    func metadataReverts() throws {
        try fs.write(Data("x".utf8), to: file)
        fs.synchronizeAll()
        let flushed = try fs.metadata(at: file)
        try fs.setPermissions(0o600, at: file)
        try fs.setModificationDate(Date(timeIntervalSince1970: 5), at: file)
        fs.cutPower()
        #expect(try fs.metadata(at: file) == flushed)
    }

    @Test("link counts are recounted after a cut undoes a link")
    func linksRecounted() throws {
        try fs.write(Data("x".utf8), to: file)
        fs.synchronizeAll()
        try fs.linkItem(at: file, to: folder.appending(path: "second"))
        #expect(try fs.metadata(at: file).linkCount == 2)
        fs.cutPower()
        #expect(try fs.metadata(at: file).linkCount == 1)
        #expect(!fs.fileExists(at: folder.appending(path: "second")))
    }

    @Test("a scheduled cut stops the call it hits and every later one until restart")
    func scheduledCut() throws {
        fs.schedulePowerCut(atCall: 2)
        try fs.write(Data("first".utf8), to: file)
        #expect(throws: SimulatedCrash(cause: .powerCut, callNumber: 2)) {
            try fs.write(Data("second".utf8), to: folder.appending(path: "b"))
        }
        #expect(fs.isPoweredOff)
        #expect(throws: SimulatedCrash.self) { _ = try fs.contentsOfDirectory(at: folder) }
        #expect(!fs.fileExists(at: folder))
        fs.restart()
        #expect(try fs.contentsOfDirectory(at: folder).isEmpty)  // the unflushed first write is lost too
        #expect(fs.calls.map(\.operation) == [.write, .write, .contentsOfDirectory, .fileExists, .contentsOfDirectory])
    }
}
