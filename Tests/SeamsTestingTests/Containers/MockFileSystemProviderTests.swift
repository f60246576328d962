import Foundation
import Seams
import SeamsTesting
import Testing

@Suite struct MockFileSystemProviderTests {
    @Test("answers the configured container for every purpose and records each request")
    func configuredContainer() {
        let container = URL(filePath: "/virtual/container")
        let mock = MockFileSystemProvider(containerURL: container)
        #expect(mock.containerURL(for: .sync) == container)
        #expect(mock.containerURL(for: Purpose(rawValue: "backup")) == container)
        #expect(mock.requestedPurposes == [.sync, Purpose(rawValue: "backup")])
    }

    @Test("nil means not available; a purpose may be given its own container")
    func perPurpose() {
        let mock = MockFileSystemProvider(containerURL: nil)
        #expect(mock.containerURL(for: .sync) == nil)
        let backup = URL(filePath: "/virtual/backup")
        mock.setContainerURL(backup, for: Purpose(rawValue: "backup"))
        #expect(mock.containerURL(for: Purpose(rawValue: "backup")) == backup)
        #expect(mock.containerURL(for: .sync) == nil)
        mock.containerURL = URL(filePath: "/virtual/now-mounted")
        #expect(mock.containerURL(for: .sync) == URL(filePath: "/virtual/now-mounted"))
    }
}
