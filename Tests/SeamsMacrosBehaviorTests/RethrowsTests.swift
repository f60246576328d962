import SeamsMacros
import Testing

/// A `rethrows` requirement's mock throws exactly what its closure argument throws: called with a
/// closure that does not throw, the call needs no `try`.
@Suite struct RethrowsTests {
    struct Bad: Error, Equatable {
        var value: Int
    }

    @Test("the handler runs the closure; a non-throwing closure makes a call without try")
    func nonThrowing() {
        let mock = MockBatching()
        mock.stubs.map(Int.self).handle { items, transform in try items.map(transform) }
        let doubled = mock.map([1, 2, 3]) { $0 * 2 }  // no `try`: the closure does not throw
        #expect(doubled == [2, 4, 6])
        #expect(mock.stubs.map(Int.self).calls == [[1, 2, 3]])
    }

    @Test("the closure's error is the call's error, through the protocol")
    func closureError() {
        let mock = MockBatching()
        mock.stubs.map(String.self).handle { items, transform in try items.map(transform) }
        let batching: any Batching = mock
        #expect(throws: Bad(value: 2)) {
            try batching.map([1, 2, 3]) { value -> String in
                if value == 2 { throw Bad(value: value) }
                return "\(value)"
            }
        }
    }

    @Test("a configured value is returned without running the closure")
    func value() {
        let mock = MockBatching()
        mock.stubs.map(Int.self).returns([7])
        #expect(
            mock.map([1]) { _ in
                Issue.record("not run")
                return 0
            } == [7])
    }

    @Test("an async rethrows requirement with a two-argument closure")
    func asyncClosure() async throws {
        let mock = MockBatching()
        mock.stubs.each.handle { body in
            try await body("a", 1)
            try await body("b", 2)
        }
        let seen = MockLock<[String]>([])
        await mock.each { name, count in seen.withLock { $0.append("\(name)\(count)") } }
        #expect(seen.withLock { $0 } == ["a1", "b2"])
        await #expect(throws: Bad(value: 1)) { try await mock.each { _, count in throw Bad(value: count) } }
        #expect(mock.stubs.each.callCount == 2)
    }

    @Test("a handler that throws an error of its own stops the process, saying why (a rethrows call cannot throw it)")
    func handlersOwnErrorStops() async {
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mock = MockBatching()
            mock.stubs.map(Int.self).handle { _, _ in throw Bad(value: 0) }
            _ = try? mock.map([1]) { value throws -> Int in value }
        }
        let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("the handler of map(_:_:) threw"), "\(message)")
        #expect(message.contains("a rethrows requirement throws only what its closure throws"))
    }
}
