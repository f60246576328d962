import SeamsMacros
import Testing

@Suite struct IsolationAndAssociatedTypeTests {
    @Test("a protocol with an associated type gets a generic mock; its init requirement is recorded")
    func associatedTypeAndInit() {
        let mock = MockStore<Int>(capacity: 3)
        mock.stubs.getKey.returns(42)
        mock.put(7, key: "a")
        #expect(mock.get(key: "a") == 42)
        #expect(mock.stubs.initCapacity.calls == [3])
        #expect(mock.stubs.putKey.calls.map(\.item) == [7])
        #expect(mock.stubs.putKey.calls.map(\.key) == ["a"])
    }

    @Test("an Actor protocol gets an actor mock whose stubs are reachable without await")
    func actorMock() async {
        let mock = MockCounter()
        mock.stubs.incrementBy.handle { $0 * 2 }
        mock.stubs.total.returns(9)
        #expect(await mock.increment(by: 2) == 4)
        #expect(await mock.total == 9)
        #expect(mock.stubs.incrementBy.calls == [2])
    }

    @Test("a main-actor protocol gets a main-actor mock")
    @MainActor
    func mainActorMock() {
        let mock = MockScreen()
        mock.show("Home")
        mock.isVisible = true
        #expect(mock.isVisible)
        #expect(mock.stubs.show.calls == ["Home"])
    }

    @Test("a nonisolated requirement of a main-actor protocol stays nonisolated")
    func nonisolatedRequirement() {
        let mock = MockScreen()
        mock.stubs.identifier.returns("screen-1")
        #expect(mock.identifier() == "screen-1")
    }

    @Test("a public protocol gets a public mock that conforms to it")
    func publicProtocol() {
        let mock = MockClock()
        mock.stubs.now.returns(12)
        let clock: any Clock = mock
        #expect(clock.now() == 12)
    }
}
