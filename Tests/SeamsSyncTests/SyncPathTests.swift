import Testing
@testable import SeamsSync

@Suite struct SyncPathTests {
    @Test("name and parent")
    func components() {
        #expect(SyncPath("a/b/c.txt").name == "c.txt")
        #expect(SyncPath("a/b/c.txt").parent == SyncPath("a/b"))
        #expect(SyncPath("top").parent == nil)
        #expect(SyncPath("a").appending("b") == SyncPath("a/b"))
    }

    @Test("NFC and NFD spellings are different paths")
    func bytes() {
        let nfc = SyncPath("\u{E9}")
        let nfd = SyncPath("e\u{301}")
        #expect(nfc != nfd)
        #expect(Set([nfc, nfd]).count == 2)
    }

    @Test("a folder sorts before what it holds; descendants are recognised")
    func order() {
        let paths = [SyncPath("a/b"), SyncPath("a-c"), SyncPath("a"), SyncPath("a b")].sorted()
        #expect(paths.firstIndex(of: SyncPath("a"))! < paths.firstIndex(of: SyncPath("a/b"))!)
        #expect(SyncPath("a/b").isDescendant(of: SyncPath("a")))
        #expect(!SyncPath("ab").isDescendant(of: SyncPath("a")))
    }
}
