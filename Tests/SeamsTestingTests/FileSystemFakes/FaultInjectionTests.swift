import Foundation
import Seams
import SeamsTesting
import Testing

/// ``FaultInjectingFileSystem`` on the fake and on the live file system.
@Suite struct FaultInjectionTests {
    let base = InMemoryFileSystem()
    let fs: FaultInjectingFileSystem
    let folder = URL(filePath: "/work")
    var file: URL { folder.appending(path: "f") }

    init() throws {
        try base.createDirectory(at: folder, withIntermediateDirectories: false)
        fs = FaultInjectingFileSystem(wrapping: base)
    }

    struct Case: Sendable, CustomStringConvertible {
        var fault: InjectedFault
        var writeCode: CocoaError.Code
        var readCode: CocoaError.Code
        var errno: POSIXErrorCode
        var description: String { fault.description }
    }

    static let cases: [Case] = [
        Case(fault: .diskFull, writeCode: .fileWriteOutOfSpace, readCode: .fileReadUnknown, errno: .ENOSPC),
        Case(
            fault: .permissionDenied, writeCode: .fileWriteNoPermission, readCode: .fileReadNoPermission, errno: .EACCES
        ),
        Case(fault: .ioError, writeCode: .fileWriteUnknown, readCode: .fileReadUnknown, errno: .EIO),
        Case(fault: .missingFile, writeCode: .fileNoSuchFile, readCode: .fileReadNoSuchFile, errno: .ENOENT),
        Case(fault: .readOnlyVolume, writeCode: .fileWriteVolumeReadOnly, readCode: .fileReadUnknown, errno: .EROFS),
    ]

    @Test("a failed write throws Foundation's code and never reaches the file system", arguments: cases)
    func writeFaults(_ c: Case) throws {
        fs.addRule(.operation(.write, fails: c.fault))
        let error = #expect(throws: CocoaError.self) { try fs.write(Data("x".utf8), to: file) }
        #expect(error?.code == c.writeCode)
        #expect(error?.posixCode == c.errno)
        #expect(!base.fileExists(at: file))
    }

    @Test("a failed read throws Foundation's read code", arguments: cases)
    func readFaults(_ c: Case) throws {
        try base.write(Data("x".utf8), to: file)
        fs.addRule(.operation(.read, at: file, fails: c.fault))
        let error = #expect(throws: CocoaError.self) { _ = try fs.read(from: file) }
        #expect(error?.code == c.readCode)
        #expect(error?.posixCode == c.errno)
    }

    private func code(_ body: () throws -> Void) -> CocoaError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CocoaError)?.code
        }
    }

    @Test("the n-th call fails and only it")
    func nthCall() throws {
        fs.addRule(.call(2, fails: .ioError))
        try fs.write(Data("1".utf8), to: file)
        #expect(code { try fs.write(Data("2".utf8), to: file) } == .fileWriteUnknown)
        try fs.write(Data("3".utf8), to: file)
        #expect(try base.read(from: file) == Data("3".utf8))
        #expect(fs.calls.map { $0.error == nil } == [true, false, true])
    }

    @Test("the second move fails, the others pass")
    func occurrence() throws {
        try base.write(Data(), to: file)
        fs.addRule(.operation(.moveItem, occurrence: 2, fails: .diskFull))
        let a = folder.appending(path: "a")
        let b = folder.appending(path: "b")
        try fs.moveItem(at: file, to: a, replacingExisting: false)
        #expect(throws: CocoaError.self) { try fs.moveItem(at: a, to: b, replacingExisting: false) }
        try fs.moveItem(at: a, to: b, replacingExisting: false)
        #expect(base.fileExists(at: b))
    }

    @Test("a predicate rule fails the matching paths, a limited number of times")
    func predicate() throws {
        fs.addRule(
            .calls(where: { _, url in url?.lastPathComponent == "data.json" }, fail: .permissionDenied, times: 1))
        let data = folder.appending(path: "data.json")
        #expect(code { try fs.write(Data(), to: data) } == .fileWriteNoPermission)
        try fs.write(Data(), to: file)
        try fs.write(Data(), to: data)  // the limit is spent
        #expect(base.fileExists(at: data))
    }

    @Test("a move matches its destination too")
    func destinationMatches() throws {
        try base.write(Data(), to: file)
        let target = folder.appending(path: "target")
        fs.addRule(.operation(.moveItem, at: target, fails: .readOnlyVolume))
        #expect(code { try fs.moveItem(at: file, to: target, replacingExisting: true) } == .fileWriteVolumeReadOnly)
        #expect(base.fileExists(at: file))
    }

    @Test(
        "an action set for call N runs once, just before that call, even when the call then crashes; resetCalls keeps it on the same call"
    )
    func beforeCall() throws {
        let base = self.base
        let file = self.file
        try fs.write(Data("0".utf8), to: file)
        fs.beforeCall(2) { try? base.write(Data("edited".utf8), to: file) }
        #expect(try fs.read(from: file) == Data("0".utf8))
        #expect(try fs.read(from: file) == Data("edited".utf8))
        try base.write(Data("again".utf8), to: file)
        #expect(try fs.read(from: file) == Data("again".utf8))

        fs.beforeCall(3) { try? base.write(Data("before the crash".utf8), to: file) }
        fs.resetCalls()
        fs.scheduleCrash(atCall: 2)
        _ = fs.fileExists(at: file)
        #expect(throws: SimulatedCrash.self) { try fs.write(Data("lost".utf8), to: file) }
        #expect(try base.read(from: file) == Data("again".utf8))
        fs.restart()
        #expect(try fs.read(from: file) == Data("before the crash".utf8))
        #expect(fs.callCount == 3)
    }

    @Test("a crash at call N stops that call and all later ones until restart")
    func crash() throws {
        fs.scheduleCrash(atCall: 2)
        try fs.write(Data("1".utf8), to: file)
        #expect(throws: SimulatedCrash(cause: .crash, callNumber: 2)) { try fs.write(Data("2".utf8), to: file) }
        #expect(throws: SimulatedCrash.self) { _ = try fs.read(from: file) }
        #expect(!fs.fileExists(at: file))
        #expect(fs.hasCrashed)
        #expect(try base.read(from: file) == Data("1".utf8))
        fs.restart()
        #expect(try fs.read(from: file) == Data("1".utf8))
    }

    @Test("calls are recorded with operation, paths and outcome, so a test can see no content was read")
    func recording() throws {
        try base.write(Data("x".utf8), to: file)
        _ = try fs.contentsOfDirectory(at: folder)
        _ = try fs.metadata(at: file)
        #expect(throws: CocoaError.self) { _ = try fs.metadata(at: folder.appending(path: "nope")) }
        #expect(!fs.calls.contains { $0.operation == .read })
        #expect(fs.calls[0] == FileSystemCall(operation: .contentsOfDirectory, url: folder, outcome: .success))
        let failure = UnderlyingError(CocoaError.fileSystemError(errno: ENOENT, path: "", writing: false))
        #expect(fs.calls[2].outcome == .failure(failure))
        // The fake records what reached it: the setup and the three calls, the missing one included.
        #expect(base.calls.map(\.operation) == [.createDirectory, .write, .contentsOfDirectory, .metadata, .metadata])
    }

    @Test("the wrapper injects faults into the live file system")
    func live() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "seams-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let live = FaultInjectingFileSystem(files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor())
        live.addRule(.operation(.createDirectory, fails: .diskFull))
        let error = #expect(throws: CocoaError.self) {
            try live.createDirectory(at: root.appending(path: "d"), withIntermediateDirectories: false)
        }
        #expect(error?.code == .fileWriteOutOfSpace)
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "d").path))
        try live.write(Data("ok".utf8), to: root.appending(path: "f"))
        #expect(try Data(contentsOf: root.appending(path: "f")) == Data("ok".utf8))
        #expect(live.calls.map(\.operation) == [.createDirectory, .write])
    }
}
