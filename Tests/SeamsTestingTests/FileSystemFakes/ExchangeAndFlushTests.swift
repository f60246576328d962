import Foundation
import Seams
import SeamsTesting
import Testing

/// The fake's atomic exchange (`renameat2(RENAME_EXCHANGE)`) and flushes the fault injector ignores.
@Suite struct ExchangeAndFlushTests {
    let folder = URL(filePath: "/f", directoryHint: .isDirectory)

    func setUp() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        try fileSystem.write(Data("a".utf8), to: folder.appending(path: "a"))
        try fileSystem.createDirectory(at: folder.appending(path: "d"), withIntermediateDirectories: false)
        fileSystem.synchronizeAll()
        return fileSystem
    }

    func text(_ fileSystem: InMemoryFileSystem, _ name: String) -> String? {
        (try? fileSystem.read(from: folder.appending(path: name))).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("two names swap their items in one call, a file with a folder too")
    func swaps() throws {
        let fileSystem = try setUp()
        try fileSystem.write(Data("b".utf8), to: folder.appending(path: "b"))
        #expect(try fileSystem.exchangeItems(at: folder.appending(path: "a"), and: folder.appending(path: "b")))
        #expect(text(fileSystem, "a") == "b" && text(fileSystem, "b") == "a")
        #expect(try fileSystem.exchangeItems(at: folder.appending(path: "a"), and: folder.appending(path: "d")))
        #expect(try fileSystem.metadata(at: folder.appending(path: "a")).kind == .directory)
        #expect(text(fileSystem, "d") == "b")
    }

    @Test("a missing name is ENOENT; a folder into its own subtree EINVAL; nothing changes")
    func refusals() throws {
        let fileSystem = try setUp()
        #expect(throws: CocoaError.self) {
            try fileSystem.exchangeItems(at: folder.appending(path: "a"), and: folder.appending(path: "none"))
        }
        try fileSystem.write(Data("in".utf8), to: folder.appending(path: "d/in"))
        do {
            _ = try fileSystem.exchangeItems(at: folder.appending(path: "d"), and: folder.appending(path: "d/in"))
            Issue.record("a folder swapped into its own subtree")
        } catch let error as CocoaError {
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EINVAL))
        }
        #expect(text(fileSystem, "a") == "a" && text(fileSystem, "d/in") == "in")
    }

    @Test("without the swap (exchangesItems off, or a folder that folds case) the answer is false and nothing changes")
    func unsupported() throws {
        let fileSystem = try setUp()
        try fileSystem.write(Data("b".utf8), to: folder.appending(path: "b"))
        fileSystem.exchangesItems = false
        #expect(try !fileSystem.exchangeItems(at: folder.appending(path: "a"), and: folder.appending(path: "b")))
        #expect(text(fileSystem, "a") == "a")
        let folding = URL(filePath: "/fat", directoryHint: .isDirectory)
        fileSystem.exchangesItems = true
        try fileSystem.createCaseFoldingDirectory(at: folding)
        try fileSystem.write(Data("x".utf8), to: folding.appending(path: "x"))
        try fileSystem.write(Data("y".utf8), to: folding.appending(path: "y"))
        #expect(try !fileSystem.exchangeItems(at: folding.appending(path: "x"), and: folding.appending(path: "y")))
    }

    @Test("a swap not flushed is undone by a power cut, whole")
    func swapIsUndone() throws {
        let fileSystem = try setUp()
        try fileSystem.write(Data("b".utf8), to: folder.appending(path: "b"))
        fileSystem.synchronizeAll()
        _ = try fileSystem.exchangeItems(at: folder.appending(path: "a"), and: folder.appending(path: "b"))
        fileSystem.cutPower()
        #expect(text(fileSystem, "a") == "a" && text(fileSystem, "b") == "b")
    }

    @Test("ignored flushes answer success and make nothing durable; others still do")
    func ignoredFlushes() throws {
        let fileSystem = try setUp()
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem)
        faulty.ignoreFlushes(.synchronizeDirectory) { $0.lastPathComponent == "f" }
        try faulty.write(Data("n".utf8), to: folder.appending(path: "d/n"))
        try faulty.write(Data("m".utf8), to: folder.appending(path: "m"))
        try faulty.synchronizeFile(at: folder.appending(path: "d/n"))
        try faulty.synchronizeFile(at: folder.appending(path: "m"))
        try faulty.synchronizeDirectory(at: folder.appending(path: "d"))
        try faulty.synchronizeDirectory(at: folder)
        #expect(faulty.calls.filter { $0.operation == .synchronizeDirectory }.count == 2)
        fileSystem.cutPower()
        #expect(text(fileSystem, "d/n") == "n")
        #expect(text(fileSystem, "m") == nil)
    }
}
