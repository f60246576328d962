import SeamsMacros
import Testing

/// Variadic parameters are arrays to the test; `some P` parameters are stubbed per type, as the
/// generic parameters they stand for.
@Suite struct VariadicAndOpaqueTests {
    struct Refused: Error, Equatable {}

    @Test("a variadic async throwing method: the handler gets the array, calls record it, errors are thrown")
    func variadic() async throws {
        let mock = MockTagging()
        mock.stubs.tagOn.handle { tags, path in tags.count + path.count }
        #expect(try await mock.tag("a", "b", on: "xyz") == 5)
        #expect(try await mock.tag(on: "") == 0)
        mock.stubs.tagOn.throwing(Refused())
        await #expect(throws: Refused()) { try await mock.tag("c", on: "p") }
        #expect(mock.stubs.tagOn.calls.map(\.tags) == [["a", "b"], [], ["c"]])
        #expect(mock.stubs.tagOn.calls.map(\.path) == ["xyz", "", "p"])
    }

    @Test("a static variadic method keeps its state in the static stubs, reached through the protocol")
    func staticVariadic() {
        MockTagging.staticStubs.join.handle { parts in parts.map(String.init).joined(separator: "+") }
        func join<T: Tagging>(_ type: T.Type) -> String { T.join(1, 2, 3) }
        #expect(join(MockTagging.self) == "1+2+3")
        #expect(MockTagging.staticStubs.join.calls == [[1, 2, 3]])
    }

    @Test("an inout `some` parameter: the handler of its type changes it, other types are unconfigured")
    func inoutOpaque() {
        let mock = MockTagging()
        mock.stubs.bump(Int.self).handle { value in value += 10 }
        var number = 1
        mock.bump(&number)
        #expect(number == 11)
        var real = 1.5
        mock.bump(&real)  // no answer for Double: left alone
        #expect(real == 1.5)
        #expect(mock.stubs.bump(Int.self).calls == [1])
        #expect(mock.stubs.bump(Double.self).calls == [1.5])
    }

    @Test("a named generic parameter and a `some` one: one stub per pair of types")
    func genericAndOpaque() {
        let mock = MockTagging()
        mock.stubs.describe(String.self, Int.self).handle { key, value in "\(key)=\(value)" }
        mock.stubs.describe(String.self, Bool.self).returns("flag")
        #expect(mock.describe("size", 3) == "size=3")
        #expect(mock.describe("on", true) == "flag")
        #expect(mock.stubs.describe(String.self, Int.self).calls.map(\.key) == ["size"])
        #expect(mock.stubs.describe(Int.self, Int.self).callCount == 0)
    }
}
