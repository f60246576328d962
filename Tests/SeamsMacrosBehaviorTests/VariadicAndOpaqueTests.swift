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

    @Test("a parameter pack: the handler gets its values as an array, calls record it, errors are thrown")
    func parameterPack() async throws {
        let mock = MockFormatting()
        mock.stubs.formatSeparator.handle { values, separator in
            values.map { "\($0)" }.joined(separator: separator)
        }
        #expect(try await mock.format(1, "a", 2.5, separator: "-") == "1-a-2.5")
        #expect(try await mock.format(separator: ",") == "")
        mock.stubs.formatSeparator.throwing(Refused())
        await #expect(throws: Refused()) { try await mock.format(true, separator: "") }
        let calls = mock.stubs.formatSeparator.calls
        #expect(calls.map(\.values.count) == [3, 0, 1])
        #expect(calls[0].values[0] as? Int == 1)
        #expect(calls[0].values[1] as? String == "a")
        #expect(calls[2].values[0] as? Bool == true)
        #expect(calls.map(\.separator) == ["-", ",", ""])
    }

    @Test("a static pack method, through the protocol; a child's mock forwards a parent's pack method")
    func staticAndInheritedPack() async throws {
        MockFormatting.staticStubs.count.handle { values in values.count }
        func count<F: Formatting>(_ type: F.Type) -> Int { F.count(1, "b", 3.0) }
        #expect(count(MockFormatting.self) == 3)
        #expect(MockFormatting.staticStubs.count.calls.last?.count == 3)

        let child = MockLineFormatting()
        child.stubs.formatSeparator.returns("joined")
        func format(_ formatter: some Formatting) async throws -> String {
            try await formatter.format(1, 2, separator: "+")
        }
        #expect(try await format(child) == "joined")
        #expect(child.stubs.formatSeparator.calls.map(\.values.count) == [2])
    }

    @Test("a pack in a mock that is not Sendable is recorded as [Any]")
    func looseParameterPack() {
        final class Reference {}
        let mock = MockLooseShapes()
        let reference = Reference()
        mock.show(reference, 1)
        let values = mock.stubs.show.calls.first ?? []
        #expect(values.count == 2)
        #expect((values.first as? Reference) === reference)
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
