import Foundation
import Seams
import SeamsTesting
import Testing

/// Cuts the power at every call of a save, as the sync engine's crash tests do: the safe save
/// keeps old-or-new content at every point, the naive one does not, so the model is doing work.
@Suite struct PowerLossScenarioTests {
    static let folder = URL(filePath: "/docs")
    static let target = folder.appending(path: "note.txt")

    /// Temp file, flush it, rename over the target, flush the folder.
    static func safeSave(_ data: Data, on fs: InMemoryFileSystem) throws {
        let temp = folder.appending(path: ".seams-tmp")
        try fs.write(data, to: temp)
        try fs.synchronizeFile(at: temp)
        try fs.moveItem(at: temp, to: target, replacingExisting: true)
        try fs.synchronizeDirectory(at: folder)
    }

    /// Remove, then write, without any flush.
    static func naiveSave(_ data: Data, on fs: InMemoryFileSystem) throws {
        try fs.removeItem(at: target, recursively: false)
        try fs.write(data, to: target)
        try fs.synchronizeDirectory(at: folder)
    }

    static func freshFileSystem() throws -> InMemoryFileSystem {
        let fs = InMemoryFileSystem()
        try fs.createDirectory(at: folder, withIntermediateDirectories: false)
        try fs.write(Data("old".utf8), to: target)
        fs.synchronizeAll()
        fs.resetCalls()
        return fs
    }

    /// The content after a cut at each call of `save` (that call not made), then after a cut
    /// once every call was made.
    static func outcomes(_ save: (Data, InMemoryFileSystem) throws -> Void) throws -> [String] {
        let probe = try freshFileSystem()
        try save(Data("new".utf8), probe)
        let callCount = probe.callCount
        var results: [String] = []
        for cut in 1...callCount {
            let fs = try freshFileSystem()
            fs.schedulePowerCut(atCall: cut)
            #expect(throws: SimulatedCrash.self) { try save(Data("new".utf8), fs) }
            fs.restart()
            let data = (try? fs.read(from: target)).map { String(decoding: $0, as: UTF8.self) }
            results.append(data ?? "<missing>")
        }
        // And a cut right after the last call.
        let finished = try freshFileSystem()
        try save(Data("new".utf8), finished)
        finished.cutPower()
        results.append((try? finished.read(from: target)).map { String(decoding: $0, as: UTF8.self) } ?? "<missing>")
        return results
    }

    @Test("a safe save leaves the old or the new content after a cut at any call")
    func safeSaveSurvives() throws {
        let results = try Self.outcomes { try Self.safeSave($0, on: $1) }
        #expect(results == ["old", "old", "old", "old", "new"])
        #expect(results.allSatisfy { $0 == "old" || $0 == "new" }, "\(results)")
    }

    @Test("the power model catches a naive save that loses the file")
    func naiveSaveLoses() throws {
        let results = try Self.outcomes { try Self.naiveSave($0, on: $1) }
        #expect(results.contains { $0 != "old" && $0 != "new" }, "\(results)")
    }

    @Test("a cut after the last call of a safe save keeps the new content")
    func completedSaveIsDurable() throws {
        let fs = try Self.freshFileSystem()
        try Self.safeSave(Data("new".utf8), on: fs)
        fs.cutPower()
        #expect(try fs.read(from: Self.target) == Data("new".utf8))
    }
}
