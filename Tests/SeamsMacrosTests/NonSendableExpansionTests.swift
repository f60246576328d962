import Testing

/// `@Mockable(sendable: false)`: a mock that is not `Sendable`, keeps its instance state in a
/// plain box and takes handlers that are not `@Sendable`, so non-`Sendable` types can pass.
@Suite struct NonSendableExpansionTests {
    static func expand(_ members: String, header: String = "protocol P") -> Expansion {
        let expansion = Expansion("@Mockable(sendable: false)\n\(header) {\n\(members)\n}")
        #expect(expansion.diagnostics.isEmpty)
        return expansion
    }

    @Test("the mock is a final class without Sendable, its state in a MockBox, no lock")
    func shape() {
        let expansion = Self.expand("func open(_ document: Document) -> Page")
        #expect(expansion.contains("final class MockP: P {"))
        #expect(expansion.contains("fileprivate struct State {"))
        #expect(expansion.contains("var open = MockStub<Document, Page, Never, (Document) -> Page>()"))
        #expect(expansion.contains("struct Stubs {"))
        #expect(expansion.contains("private let _mockState: MockBox<State>"))
        #expect(expansion.contains("var open: MockNonSendableStubHandle<Document, Page, Never, (Document) -> Page> {"))
        #expect(expansion.contains("return MockNonSendableStubHandle { body in state.withValue { body(&$0.open) } }"))
        #expect(expansion.contains("let _mockAction = _mockState.withValue { $0.open.record(document) }"))
        #expect(expansion.contains("func resetMock() { _mockState.withValue { $0 = State() } }"))
        #expect(!expansion.contains(", Sendable"))
        #expect(!expansion.contains(": Sendable"))
        #expect(!expansion.contains("@Sendable"))
        #expect(!expansion.contains("MockRequiresSendable"))
        #expect(!expansion.contains("MockLock"))
        #expect(!expansion.contains("@unchecked"))
        #expect(!expansion.contains("nonisolated(unsafe)"))
    }

    @Test("properties and initializers use the box too")
    func propertiesAndInitializers() {
        let expansion = Self.expand("init(document: Document)\nvar current: Document { get set }")
        #expect(expansion.contains("var current = MockStub<Void, Document, Never, () -> Document>()"))
        #expect(expansion.contains("var setCurrent = MockStub<Document, Void, Never, (Document) -> Void>()"))
        #expect(
            expansion.contains(
                "set { _mockState.withValue { _ = $0.setCurrent.record(newValue); $0.current.configure(.value(newValue)) } }"
            ))
        #expect(expansion.contains("self._mockState = MockBox(State())"))
        #expect(expansion.contains("_ = _mockState.withValue { $0.initDocument.record(document) }"))
    }

    @Test("a generic parameter need not be Sendable; its stubs are kept per specialization")
    func generic() {
        let expansion = Self.expand("func make<T>(_ type: T.Type) -> T")
        #expect(expansion.contains("var make = MockNonSendableGenericStubs()"))
        #expect(
            expansion.contains(
                "func make<T>(_ type0: T.Type) -> MockNonSendableStubHandle<Void, T, Never, (T.Type) -> T>"))
    }

    @Test("static requirements stay behind a lock with Sendable handles (a static let must be Sendable)")
    func statics() {
        let expansion = Self.expand("static func make(named name: String) -> String\nfunc open(_ document: Document)")
        #expect(expansion.contains("private static let _mockStaticState = MockLock(StaticState())"))
        #expect(expansion.contains("fileprivate struct StaticState: Sendable {"))
        #expect(
            expansion.contains("var makeNamed: MockStubHandle<String, String, Never, @Sendable (String) -> String>"))
        #expect(expansion.contains("private let _mockState: MockBox<State>"))
        #expect(
            expansion.contains(
                "private typealias _MockArgumentAndResultTypesMustBeSendable = MockRequiresSendable<String>"))
    }

    @Test("sendable: true is the default mock")
    func explicitTrue() {
        let expansion = Expansion("@Mockable(sendable: true)\nprotocol P: Sendable {\n    func ping()\n}")
        #expect(expansion.diagnostics.isEmpty)
        #expect(expansion.contains("final class MockP: P, Sendable {"))
        #expect(expansion.contains("private let _mockState: MockLock<State>"))
    }
}
