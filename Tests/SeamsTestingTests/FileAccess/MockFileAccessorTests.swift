import Foundation
import Seams
import SeamsTesting
import Testing

@Suite struct MockFileAccessorTests {
    let url = URL(filePath: "/virtual/a.json")
    let other = URL(filePath: "/virtual/b.json")

    @Test("files given at init or set later are read back; writes land in files")
    func storesFiles() throws {
        let mock = MockFileAccessor(files: [url: Data("a".utf8)])
        #expect(try mock.read(from: url) == Data("a".utf8))
        try mock.write(Data("b".utf8), to: other)
        #expect(mock.files == [url: Data("a".utf8), other: Data("b".utf8)])
        mock.files[url] = nil
        #expect(!mock.fileExists(at: url))
        #expect(mock.fileExists(at: other))
    }

    @Test("a missing file throws what Foundation throws: .fileReadNoSuchFile with ENOENT")
    func missingFileIsFoundationError() {
        let mock = MockFileAccessor()
        let error = #expect(throws: CocoaError.self) { try mock.read(from: url) }
        #expect(error?.code == .fileReadNoSuchFile)
        #expect(error?.posixCode == .ENOENT)
        #expect(error?.userInfo[NSFilePathErrorKey] as? String == url.path)
    }

    @Test("readError fails every read and leaves the files alone")
    func readError() throws {
        let mock = MockFileAccessor(files: [url: Data("a".utf8)])
        mock.readError = CocoaError(.fileReadCorruptFile)
        #expect(throws: CocoaError(.fileReadCorruptFile)) { try mock.read(from: url) }
        #expect(throws: CocoaError(.fileReadCorruptFile)) { try mock.read(from: other) }
        mock.readError = nil
        #expect(try mock.read(from: url) == Data("a".utf8))
    }

    @Test("writeError fails every write and stores nothing")
    func writeError() {
        let mock = MockFileAccessor()
        mock.writeError = CocoaError(.fileWriteOutOfSpace)
        #expect(throws: CocoaError(.fileWriteOutOfSpace)) { try mock.write(Data("x".utf8), to: url) }
        #expect(mock.files.isEmpty)
    }

    @Test("every call is recorded in order, failed ones included")
    func recordsCalls() throws {
        let mock = MockFileAccessor()
        try mock.write(Data("x".utf8), to: url)
        _ = mock.fileExists(at: other)
        mock.readError = CocoaError(.fileReadUnknown)
        _ = try? mock.read(from: url)
        #expect(mock.calls == [.write(Data("x".utf8), url), .fileExists(other), .read(url)])
        mock.resetCalls()
        #expect(mock.calls.isEmpty)
        #expect(mock.files == [url: Data("x".utf8)])
    }

    @Test("withState changes several things as one step")
    func withState() throws {
        let mock = MockFileAccessor()
        let count = mock.withState { state in
            state.files[url] = Data("1".utf8)
            state.files[other] = Data("2".utf8)
            state.writeError = CocoaError(.fileWriteVolumeReadOnly)
            return state.files.count
        }
        #expect(count == 2)
        #expect(throws: CocoaError(.fileWriteVolumeReadOnly)) { try mock.write(Data(), to: url) }
    }
}
