import SeamsMacros
import Testing

/// A protocol inheriting another @Mockable protocol gets a mock of the whole protocol.
@Suite struct InheritedProtocolTests {
    @Test("a child's mock answers the parent's requirements through the same stubs")
    func parentRequirementsThroughChild() throws {
        let storage = MockStorageProviding()
        storage.stubs.readFrom.returns("a", when: "a.txt")
        storage.stubs.readFrom.returns("b", when: "b.txt")
        #expect(try ReadingUser.readAll(["a.txt", "b.txt"], with: storage) == ["a", "b"])
        #expect(storage.stubs.readFrom.calls == ["a.txt", "b.txt"])
        storage.stubs.writeTo.throwing(UnconfiguredMockCall(requirement: "disk full"))
        #expect(throws: UnconfiguredMockCall(requirement: "disk full")) { try storage.write("x", to: "x.txt") }
    }

    @Test("a parent's generic requirement is stubbed through inherited(_:) and answers through the child's mock")
    func inheritedGeneric() throws {
        let cache = MockCachingProviding()
        let loading = cache.stubs.inherited(MockLoadingProviding.self)
        loading.loadKey(Int.self).returns(7, when: "a")
        loading.loadKey(String.self).throwing(UnconfiguredMockCall(requirement: "no text"))
        #expect(try cache.load(Int.self, key: "a") == 7)
        #expect(throws: UnconfiguredMockCall(requirement: "no text")) { try cache.load(String.self, key: "b") }
        #expect(loading.loadKey(Int.self).calls == ["a"])
        #expect(loading.loadKey(String.self).calls == ["b"])
        cache.evict(key: "a")
        #expect(cache.stubs.evictKey.calls == ["a"])
        cache.resetMock()
        #expect(cache.stubs.inherited(MockLoadingProviding.self).loadKey(Int.self).callCount == 0)
    }

    @Test("a grandchild reaches its grandparent's stubs through its parent's")
    func grandchildInherited() throws {
        let archive = MockArchiveProviding()
        archive.stubs.inherited(MockStorageProviding.self).inherited(MockReadingProviding.self).readFrom.returns("old")
        #expect(try archive.read(from: "x") == "old")
        #expect(archive.stubs.readFrom.calls == ["x"])
    }

    @Test("an inherited settable property keeps what was set")
    func inheritedProperty() {
        let storage = MockStorageProviding()
        storage.root = "/data"
        #expect(storage.root == "/data")
        #expect(storage.stubs.setRoot.calls == ["/data"])
    }

    @Test("a strict child mock reports an unconfigured inherited call at the line that made it")
    func strictInherited() {
        let line = #line + 1
        let storage = MockStorageProviding(strict: true)
        withKnownIssue {
            _ = try? storage.read(from: "missing.txt")
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.contains { $0.rawValue.contains("read(from:)") }
        }
    }

    @Test("resetMock forgets the inherited requirements' calls and answers too")
    func resetInherited() throws {
        let storage = MockStorageProviding()
        storage.stubs.readFrom.returns("a")
        _ = try storage.read(from: "a.txt")
        storage.resetMock()
        #expect(storage.stubs.readFrom.callCount == 0)
        #expect(throws: UnconfiguredMockCall(requirement: "read(from:)")) { try storage.read(from: "a.txt") }
    }

    @Test("a grandchild's mock answers its grandparent's, parent's and own requirements")
    func grandchild() async throws {
        let archive = MockArchiveProviding()
        archive.stubs.readFrom.returns("old")
        archive.stubs.seal.returns(true)
        #expect(try archive.read(from: "x") == "old")
        try archive.write("new", to: "x")
        #expect(archive.stubs.writeTo.calls.map(\.text) == ["new"])
        #expect(await archive.seal())
        #expect(try ReadingUser.readAll(["y"], with: archive) == ["old"])
    }

    @Test("an inherited static requirement answers from the parent mock's static stubs")
    func inheritedStatic() {
        MockReadingProviding.staticStubs.defaultRoot.returns("/srv")
        #expect(MockStorageProviding.defaultRoot() == "/srv")
        MockReadingProviding.staticStubs.defaultRoot.reset()
    }
}
