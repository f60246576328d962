import Foundation
import Testing

@testable import SeamsSync

@Suite struct ConflictNamerTests {
    let date = Date(timeIntervalSince1970: 1_763_782_345)  // 2025-11-22 03:32:25 UTC

    @Test(
        "names keep the extension and say when and where the version came from",
        arguments: [
            ("report.txt", "report.sync-conflict-20251122-033225-local.txt"),
            ("docs/archive.tar.gz", "docs/archive.tar.sync-conflict-20251122-033225-local.gz"),
            ("Makefile", "Makefile.sync-conflict-20251122-033225-local"),
            (".profile", ".profile.sync-conflict-20251122-033225-local"),
            ("a b/my file.md", "a b/my file.sync-conflict-20251122-033225-local.md"),
        ])
    func names(_ input: String, _ expected: String) {
        let name = ConflictNamer().conflictPath(for: SyncPath(input), origin: .local, modified: date) { _ in false }
        #expect(name == SyncPath(expected))
    }

    @Test("a taken name gets a number")
    func taken() {
        let first = SyncPath("a.sync-conflict-20251122-033225-container.txt")
        let name = ConflictNamer().conflictPath(for: SyncPath("a.txt"), origin: .container, modified: date) {
            $0 == first
        }
        #expect(name == SyncPath("a.sync-conflict-20251122-033225-container-2.txt"))
    }

    @Test("a long name is cut to fit 255 bytes, between characters")
    func long() {
        let long = String(repeating: "é", count: 120) + ".txt"
        let name = ConflictNamer().conflictPath(for: SyncPath(long), origin: .local, modified: date) { _ in false }
        #expect(name.rawValue.utf8.count <= 255)
        #expect(name.rawValue.hasSuffix("-local.txt"))
        #expect(name.rawValue.hasPrefix("éé"))
    }

    @Test("trash folder names carry their date")
    func trashDates() {
        let name = TrashPurger.folderName(startingAt: date, runID: "abc")
        #expect(name == "20251122-033225-abc")
        #expect(TrashPurger.date(ofFolder: name) == date)
        #expect(TrashPurger.date(ofFolder: "junk") == nil)
    }
}
