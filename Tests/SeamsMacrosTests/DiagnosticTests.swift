import Testing

/// Every unsupported shape is an error at its declaration, and nothing is generated.
@Suite struct DiagnosticTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var source: String
        var diagnostic: String
        var testDescription: String { diagnostic }
    }

    static let cases: [Case] = [
        Case(source: "@Mockable\nstruct S {}", diagnostic: "1:1: @Mockable applies only to a protocol"),
        Case(
            source: "@Mockable\nprotocol P {\n    subscript<T: Sendable>(i: T) -> Int { get }\n}",
            diagnostic:
                "3:14: @Mockable does not support generic subscripts, nor 'some' or variadic subscript parameters; use a method such as 'value(at:)'"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    init(_ x: some Sendable)\n}",
            diagnostic:
                "3:10: @Mockable takes 'some P' only as a whole parameter of a method (not in an initializer, nor nested as in '[some P]'); name a generic parameter or take 'any P'"
        ),

        Case(
            source: "@Mockable\nprotocol P {\n    func f(_ g: () throws -> Void, _ h: () throws -> Void) rethrows\n}",
            diagnostic:
                "3:5: @Mockable supports 'rethrows' with exactly one throwing closure parameter (not 'inout', not optional); declare 'throws' or 'throws(E)' otherwise"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    func f(_ x: Int, _ g: (inout Int) throws -> Void) rethrows\n}",
            diagnostic:
                "3:5: @Mockable supports 'rethrows' with exactly one throwing closure parameter (not 'inout', not optional); declare 'throws' or 'throws(E)' otherwise"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    init(_ g: () throws -> Void) rethrows\n}",
            diagnostic:
                "3:5: @Mockable supports 'rethrows' with exactly one throwing closure parameter (not 'inout', not optional); declare 'throws' or 'throws(E)' otherwise"
        ),
        Case(
            source:
                "@Mockable\nprotocol P: Sendable {\n    func f<each T: Sendable>(_ x: repeat each T) -> (repeat each T)\n}",
            diagnostic:
                "3:12: @Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        ),
        Case(
            source: "@Mockable\nprotocol P: Sendable {\n    func f<each T: Sendable>(_ x: (repeat each T))\n}",
            diagnostic:
                "3:12: @Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        ),
        Case(
            source: "@Mockable\nprotocol P: Sendable {\n    func f<each T>(_ x: repeat each T)\n}",
            diagnostic:
                "3:12: @Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        ),
        Case(
            source:
                "@Mockable\nprotocol P: Sendable {\n    func f<U: Sendable, each T: Sendable>(_ u: U, _ x: repeat each T)\n}",
            diagnostic:
                "3:25: @Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        ),
        Case(
            source:
                "@Mockable\nprotocol P: Sendable {\n    func f<each T: Sendable>(_ x: repeat each T) where repeat each T: Hashable\n}",
            diagnostic:
                "3:12: @Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        ),
        Case(
            source: "@Mockable\nprotocol P: Sendable {\n    func f<each T: Sendable>(_ x: repeat [each T])\n}",
            diagnostic:
                "3:12: @Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    init<T: Sendable>(_ x: T)\n}",
            diagnostic:
                "3:9: @Mockable does not support generic initializer requirements (a mock's initializer records one type); take concrete or 'any' types"
        ),
        Case(
            source: "@Mockable\nprotocol P where Element == Int {\n    func f()\n}",
            diagnostic:
                "2:18: @Mockable carries into the mock a 'where' requirement on 'Self', on the protocol's associated types, or 'ID == T' for 'Identifiable'; not this one"
        ),
        Case(
            source: "@Mockable\nprotocol P: Sequence {\n    func f()\n}",
            diagnostic:
                "2:13: @Mockable cannot mock the requirements of this inherited protocol; a protocol may inherit 'Sendable', 'Actor', 'AnyObject', 'Equatable', 'Hashable', 'Comparable', 'Identifiable', 'CustomStringConvertible', 'CustomDebugStringConvertible', 'Encodable', 'Decodable', 'Codable', 'Error' and other @Mockable protocols"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    var stubs: Int { get }\n}",
            diagnostic:
                "3:9: @Mockable reserves the names 'stubs', 'staticStubs', 'resetMock' and 'mockInherited' for the mock's own API"
        ),
        Case(
            source: "@Mockable(sendable: false)\nprotocol P: Sendable {\n    func f()\n}",
            diagnostic:
                "1:1: @Mockable(sendable: false) writes a mock that is not Sendable, which a 'Sendable', 'Actor' or '@MainActor' protocol cannot have; make the argument and result types Sendable and drop 'sendable: false'"
        ),
        Case(
            source: "@Mockable(sendable: false)\nprotocol P: Actor {\n    func f()\n}",
            diagnostic:
                "1:1: @Mockable(sendable: false) writes a mock that is not Sendable, which a 'Sendable', 'Actor' or '@MainActor' protocol cannot have; make the argument and result types Sendable and drop 'sendable: false'"
        ),
        Case(
            source: "@Mockable(sendable: false)\n@MainActor\nprotocol P {\n    func f()\n}",
            diagnostic:
                "1:1: @Mockable(sendable: false) writes a mock that is not Sendable, which a 'Sendable', 'Actor' or '@MainActor' protocol cannot have; make the argument and result types Sendable and drop 'sendable: false'"
        ),
        Case(
            source: "@Mockable(sendable: isSendable)\nprotocol P {\n    func f()\n}",
            diagnostic: "1:21: @Mockable's 'sendable:' takes the literal 'true' or 'false'"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    func f(_ xs: [some Sendable])\n}",
            diagnostic:
                "3:12: @Mockable takes 'some P' only as a whole parameter of a method (not in an initializer, nor nested as in '[some P]'); name a generic parameter or take 'any P'"
        ),
        Case(
            source: "@Mockable\nprotocol P {\n    subscript(keys: String...) -> Int { get }\n}",
            diagnostic:
                "3:15: @Mockable does not support generic subscripts, nor 'some' or variadic subscript parameters; use a method such as 'value(at:)'"
        ),
        Case(
            source: "@Mockable(sendable: false)\nprotocol P: Comparable {\n    func f()\n}",
            diagnostic:
                "1:1: @Mockable(sendable: false) cannot keep a static requirement that names 'Self' (an operator, 'Comparable'): static state is shared behind a lock, which needs a Sendable mock; drop 'sendable: false'"
        ),
    ]

    @Test("an unsupported shape is reported at its declaration", arguments: cases)
    func reported(_ testCase: Case) {
        let expansion = Expansion(testCase.source)
        #expect(expansion.diagnostics == [testCase.diagnostic])
        #expect(!expansion.source.contains("class Mock"))
        #expect(!expansion.source.contains("actor Mock"))
    }

    @Test("a supported protocol produces no diagnostic")
    func supportedIsSilent() {
        let expansion = Expansion("@Mockable\nprotocol P: Sendable {\n    func f<T: Sendable>(_ x: T) -> T\n}")
        #expect(expansion.diagnostics.isEmpty)
        #expect(expansion.source.contains("final class MockP"))
    }
}
