import Foundation
import Seams
import SeamsMacros
import Testing

/// Code under test written against Seams' real boundary.
private struct SettingsLoader {
    let accessor: any Seams.FileAccessorProviding

    func load(from url: URL) throws -> Data {
        guard accessor.fileExists(at: url) else { return Data("{}".utf8) }
        return try accessor.read(from: url)
    }
}

@Suite struct SeamsProtocolMockTests {
    let url = URL(fileURLWithPath: "/settings.json")

    @Test("a generated mock of our file boundary stubs, throws and verifies")
    func stubsThrowsVerifies() throws {
        let mock = MockFileAccessor(strict: true)
        mock.stubs.fileExistsAt.returns(true)
        mock.stubs.readFrom.returns(Data("{\"a\":1}".utf8))
        #expect(try SettingsLoader(accessor: mock).load(from: url) == Data("{\"a\":1}".utf8))

        mock.stubs.readFrom.throwing(CocoaError(.fileReadCorruptFile))
        #expect(throws: CocoaError(.fileReadCorruptFile)) { try SettingsLoader(accessor: mock).load(from: url) }
        #expect(mock.stubs.readFrom.calls == [url, url])
        #expect(mock.stubs.writeTo.callCount == 0)
    }

    @Test("a missing file is never read")
    func missingFile() throws {
        let mock = MockFileAccessor(strict: true)
        mock.stubs.fileExistsAt.returns(false)
        #expect(try SettingsLoader(accessor: mock).load(from: url) == Data("{}".utf8))
        #expect(mock.stubs.readFrom.callCount == 0)
    }

    @Test("write records data and URL as a labelled tuple")
    func writeRecords() throws {
        let mock = MockFileAccessor()
        try mock.write(Data([1]), to: url)
        #expect(mock.stubs.writeTo.calls.map(\.data) == [Data([1])])
        #expect(mock.stubs.writeTo.calls.map(\.url) == [url])
    }
}
