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

@Suite struct SyncPathOrderTests {
    @Test("everything inside a folder comes right after it, before any sibling")
    func contiguousSubtrees() {
        let paths = ["a-c", "a/b", "a", "a b", "a/b/c", "a.txt", "a/c", "b", "a/b-x"].map(SyncPath.init).sorted()
        #expect(paths.map(\.rawValue) == ["a", "a/b", "a/b/c", "a/b-x", "a/c", "a b", "a-c", "a.txt", "b"])
    }

    @Test(
        "the order is total and agrees with equality on odd names",
        arguments: [
            ("\u{E9}", "e\u{301}"), ("a", "a/"), ("", "a"), ("a/b", "a!b"), ("\u{1F600}", "z"),
        ])
    func total(_ pair: (String, String)) {
        let (a, b) = (SyncPath(pair.0), SyncPath(pair.1))
        #expect(a != b)
        #expect((a < b) != (b < a))
        #expect(!(a < a))
    }

    @Test("isDescendant needs a whole component")
    func descendant() {
        #expect(SyncPath("a/b/c").isDescendant(of: SyncPath("a")))
        #expect(SyncPath("a/b/c").isDescendant(of: SyncPath("a/b")))
        #expect(!SyncPath("a").isDescendant(of: SyncPath("a")))
        #expect(!SyncPath("ab/c").isDescendant(of: SyncPath("a")))
        #expect(!SyncPath("a").isDescendant(of: SyncPath("a/b")))
    }
}
