import Foundation
import Seams
import Testing
@testable import SeamsSync

@Suite struct ArchiveCodecTests {
    @Test("an archive survives encoding, NFC and NFD paths kept apart")
    func roundTrip() throws {
        var archive = Archive(localRoot: "/home/me/Notes", containerRoot: "/mnt/sync")
        archive.entries[SyncPath("caf\u{E9}")] = .init(kind: .file, local: Stamp(size: 1, modified: 5), container: Stamp(size: 1, modified: 6))
        archive.entries[SyncPath("cafe\u{301}")] = .init(kind: .file, local: Stamp(size: 2, modified: 7), container: Stamp(size: 2, modified: 7))
        archive.entries[SyncPath("d")] = .init(kind: .directory, local: Stamp(size: 0, modified: 0), container: Stamp(size: 0, modified: 0))
        let decoded = try ArchiveCodec.decode(try ArchiveCodec.encode(archive))
        #expect(decoded == archive)
        #expect(decoded.entries.count == 3)
    }

    @Test("the file names its format and version")
    func header() throws {
        let data = try ArchiveCodec.encode(Archive(localRoot: "/a", containerRoot: "/b"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "seams-sync.archive")
        #expect(object["version"] as? Int == 1)
    }

    @Test("damaged or foreign files read as corrupt", arguments: [
        "", "not json", "{\"version\":1}", "{\"format\":\"something-else\",\"version\":1}",
        "{\"format\":\"seams-sync.archive\",\"version\":1,\"local\":\"/a\",\"container\":\"/b\",\"entries\":[{\"p\":\"/abs\",\"k\":\"file\",\"ls\":0,\"lm\":0,\"cs\":0,\"cm\":0}]}",
        "{\"format\":\"seams-sync.archive\",\"version\":1,\"local\":\"/a\"}",
    ])
    func corrupt(_ text: String) {
        #expect(throws: ArchiveCodec.DecodeFailure.self) { try ArchiveCodec.decode(Data(text.utf8)) }
        do {
            _ = try ArchiveCodec.decode(Data(text.utf8))
        } catch {
            guard case .corrupt = error else {
                Issue.record("expected corrupt, got \(error)")
                return
            }
        }
    }

    @Test("a newer version is refused, not read")
    func newerVersion() {
        let text = "{\"format\":\"seams-sync.archive\",\"version\":2,\"future\":true}"
        #expect(throws: ArchiveCodec.DecodeFailure.unsupportedVersion(2)) { try ArchiveCodec.decode(Data(text.utf8)) }
    }

    @Test("an unchanged item matches its archived stamp; a different size or date does not")
    func unchanged() {
        let item = Fixtures.file(10, at: 100)
        let archive = Fixtures.archive(["a": item])
        #expect(archive.isUnchanged(item, at: SyncPath("a"), on: .local))
        #expect(!archive.isUnchanged(Fixtures.file(11, at: 100), at: SyncPath("a"), on: .local))
        #expect(!archive.isUnchanged(Fixtures.file(10, at: 100.000_001), at: SyncPath("a"), on: .container))
        #expect(!archive.isUnchanged(Fixtures.folder(), at: SyncPath("a"), on: .local))
    }
}
