import Testing

/// Each supported shape of requirement expands to the pieces that make it work. (The behaviour
/// tests compile and run the same shapes.)
@Suite struct ShapeExpansionTests {
    static func expand(_ members: String, header: String = "protocol P: Sendable") -> Expansion {
        let expansion = Expansion("@Mockable\n\(header) {\n\(members)\n}")
        #expect(expansion.diagnostics.isEmpty)
        return expansion
    }

    @Test("the mock is a Sendable final class named Mock + the protocol, out of release builds")
    func naming() {
        let expansion = Self.expand("func ping()", header: "protocol FileAccessorProviding: Sendable")
        #expect(expansion.contains("#if DEBUG || SEAMS_MOCKS"))
        #expect(expansion.contains("final class MockFileAccessorProviding: FileAccessorProviding, Sendable {"))
        #expect(!expansion.contains("@unchecked"))
    }

    @Test(
        "the first member names every recorded or returned type, so a non-Sendable one is reported under a comment that says what to do"
    )
    func sendableCheck() {
        let expansion = Self.expand(
            """
            init(capacity: Int)
            func read(from url: URL, _ body: (Data) -> Void) throws -> Data
            func decode<T: Sendable>(_ type: T.Type) -> [T]
            func copy() -> Self
            var name: String { get }
            func adjust(_ value: inout Int)
            """)
        #expect(
            expansion.contains(
                "private typealias _MockArgumentAndResultTypesMustBeSendable = MockRequiresSendable<(String, URL, Data, MockP, Int)>"
            ))
        #expect(
            expansion.contains(
                "// For a protocol that is not Sendable, `@Mockable(sendable: false)` writes a mock that takes any types."
            ))
        #expect(
            expansion.contains(
                "final class MockP: P, Sendable { // Every argument and result type of a Sendable mock must be Sendable"
            ))
    }

    @Test("a protocol whose requirements record and return nothing has no Sendable check")
    func noSendableCheck() {
        let expansion = Self.expand("func ping()")
        #expect(!expansion.contains("MockRequiresSendable"))
    }

    @Test("async throws: an async throwing handler, untyped fallback error")
    func asyncThrows() {
        let expansion = Self.expand("func temperature(in city: String) async throws -> Double")
        #expect(
            expansion.contains(
                "var temperatureIn = MockStub<String, Double, any Error, @Sendable (String) async throws -> Double>()"))
        #expect(expansion.contains("func temperature(in city: String) async throws -> Double {"))
        #expect(expansion.contains("return try await _mockHandler(city)"))
        #expect(expansion.contains(#"throw UnconfiguredMockCall(requirement: "temperature(in:)")"#))
    }

    @Test("typed throws: the stub's failure type is the requirement's error type")
    func typedThrows() {
        let expansion = Self.expand("func load(id: Int) throws(LoadError) -> String")
        #expect(expansion.contains("MockStub<Int, String, LoadError, @Sendable (Int) throws(LoadError) -> String>"))
        #expect(expansion.contains("func load(id: Int) throws(LoadError) -> String {"))
        #expect(expansion.contains("_mockReport(\"load(id:)\", always: true)"))
    }

    @Test("a generic method: per-specialization stubs, a handle function of the types")
    func generic() {
        let expansion = Self.expand("func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) throws -> T")
        #expect(expansion.contains("var decodeFrom = MockGenericStubs()"))
        #expect(
            expansion.contains(
                "func decodeFrom<T: Decodable & Sendable>(_ type0: T.Type) -> MockStubHandle<Data, T, any Error, @Sendable (T.Type, Data) throws -> T>"
            ))
        #expect(expansion.contains("$0.decodeFrom.access(ObjectIdentifier(T.self))"))
        #expect(!expansion.contains("Any"))
    }

    @Test("overloads with the same labels get stubs named by their parameter types")
    func overloads() {
        let expansion = Self.expand("func load(id: Int) -> String\nfunc load(id: String) -> String")
        #expect(expansion.contains("var loadIdInt: MockStubHandle<Int,"))
        #expect(expansion.contains("var loadIdString: MockStubHandle<String,"))
    }

    @Test("properties: get, get set (setter recorded and answered), async throws getter")
    func properties() {
        let expansion = Self.expand(
            "var name: String { get }\nvar unit: String { get set }\nvar current: Double { get async throws }")
        #expect(expansion.contains("var name: String { get {"))
        #expect(
            expansion.contains(
                "set { _mockState.withLock { _ = $0.setUnit.record(newValue); $0.unit.configure(.value(newValue)) } }"))
        #expect(expansion.contains("var current: Double { get async throws {"))
        #expect(expansion.contains("var setUnit: MockStubHandle<String, Void, Never, @Sendable (String) -> Void>"))
    }

    @Test("static members keep their state in a static lock, reached through staticStubs")
    func statics() {
        let expansion = Self.expand("static func make() -> String\nstatic var shared: Int { get }")
        #expect(expansion.contains("private static let _mockStaticState = MockLock(StaticState())"))
        #expect(expansion.contains("static var staticStubs: StaticStubs"))
        #expect(expansion.contains("static func make() -> String {"))
        #expect(expansion.contains("Self._mockStaticState.withLock"))
    }

    @Test("initializer requirements record their arguments in the new instance")
    func initializers() {
        let expansion = Self.expand("init(capacity: Int)\ninit?(name: String) async throws")
        #expect(expansion.contains("init(capacity: Int) {"))
        #expect(expansion.contains("init?(name: String) async throws {"))
        #expect(expansion.contains("$0.initCapacity.record(capacity)"))
    }

    @Test("inout is passed to the handler with &; closures reach the handler but are not recorded")
    func inoutAndClosures() {
        let expansion = Self.expand(
            "func adjust(_ value: inout Int)\nfunc on(_ handler: @escaping @Sendable (Double) -> Void, times: Int)")
        #expect(expansion.contains("MockStub<Int, Void, Never, @Sendable (inout Int) -> Void>"))
        #expect(expansion.contains("_mockHandler(&value)"))
        #expect(
            expansion.contains(
                "MockStub<Int, Void, Never, @Sendable (@escaping @Sendable (Double) -> Void, Int) -> Void>"))
        #expect(expansion.contains("$0.onTimes.record(times)"))
    }

    @Test(
        "a variadic parameter is an array inside the mock: recorded and handed to the handler as one, through an entry point taking arrays"
    )
    func variadic() {
        let expansion = Self.expand("func log(_ items: String..., level: Int) throws -> Int")
        #expect(
            expansion.contains(
                "var logLevel = MockStub<(items: [String], level: Int), Int, any Error, @Sendable ([String], Int) throws -> Int>()"
            ))
        #expect(expansion.contains("func log(_ items: String..., level: Int) throws -> Int {"))
        #expect(expansion.contains("return try self._mockArrays_logLevel(items, level: level)"))
        #expect(expansion.contains("func _mockArrays_logLevel(_ items: [String], level: Int) throws -> Int {"))
        #expect(expansion.contains("$0.logLevel.record((items: items, level: level))"))
    }

    @Test("a child protocol's mock forwards a variadic requirement to the parent mock's entry point taking arrays")
    func variadicForwarding() {
        let expansion = Self.expand("func log(_ items: String...)")
        #expect(
            expansion.contains("func log(_ items: String...) {\n    mockInherited(MockP.self)!._mockArrays_log(items)"))
    }

    @Test(
        "a parameter pack is an array inside the mock: recorded and handed to the handler as one, through an entry point taking arrays that is not generic"
    )
    func parameterPack() {
        let expansion = Self.expand("func log<each T: Sendable>(_ values: repeat each T, level: Int) throws -> Int")
        #expect(
            expansion.contains(
                "var logLevel = MockStub<(values: [any Sendable], level: Int), Int, any Error, @Sendable ([any Sendable], Int) throws -> Int>()"
            ))
        #expect(expansion.contains("func log<each T: Sendable>(_ values: repeat each T, level: Int) throws -> Int {"))
        #expect(
            expansion.contains(
                "return try self._mockArrays_logLevel(MockPack.sendableElements(repeat each values), level: level)"))
        #expect(expansion.contains("func _mockArrays_logLevel(_ values: [any Sendable], level: Int) throws -> Int {"))
        #expect(expansion.contains("$0.logLevel.record((values: values, level: level))"))
        #expect(
            expansion.contains(
                "func log<each T: Sendable>(_ values: repeat each T, level: Int) throws -> Int { try mockInherited(MockP.self)!._mockArrays_logLevel(MockPack.sendableElements(repeat each values), level: level) }"
            ))
    }

    @Test("a pack in a mock that is not Sendable is recorded as [Any], and its elements need not be Sendable")
    func looseParameterPack() {
        let expansion = Expansion(
            "@Mockable(sendable: false)\nprotocol P {\n    func show<each T>(_ values: repeat each T)\n}")
        #expect(expansion.diagnostics.isEmpty)
        #expect(expansion.contains("var show = MockStub<[Any], Void, Never, ([Any]) -> Void>()"))
        #expect(expansion.contains("self._mockArrays_show(MockPack.elements(repeat each values))"))
    }

    @Test("a `some P` parameter is the generic parameter it stands for: stubbed and recorded per type")
    func opaqueParameter() {
        let expansion = Self.expand(
            "func save(_ item: some Codable & Sendable, to path: String) throws\nfunc merge<T: Sendable>(_ a: T, _ b: inout some Sendable)"
        )
        #expect(
            expansion.contains("func save<_Opaque0: Codable & Sendable>(_ item: _Opaque0, to path: String) throws {"))
        #expect(
            expansion.contains(
                "func saveTo<_Opaque0: Codable & Sendable>(_ type0: _Opaque0.Type) -> MockStubHandle<(item: _Opaque0, path: String), Void, any Error, @Sendable (_Opaque0, String) throws -> Void>"
            ))
        #expect(expansion.contains("$0.saveTo.access(ObjectIdentifier(_Opaque0.self))"))
        #expect(expansion.contains("func merge<T: Sendable, _Opaque0: Sendable>(_ a: T, _ b: inout _Opaque0) {"))
        #expect(expansion.contains("$0.merge.access(ObjectIdentifier((T, _Opaque0).self))"))
    }

    @Test(
        "a generic parameter not constrained to Sendable: values of it are not recorded, the handle asks for a Sendable type, the call is answered through the erased stub"
    )
    func nonSendableGeneric() {
        let expansion = Self.expand(
            "func get<T: Decodable>(_ path: String) async throws -> T\nfunc send(_ body: some Encodable, to path: String) async throws"
        )
        #expect(
            expansion.contains(
                "func get<T: Decodable & Sendable>(_ type0: T.Type) -> MockStubHandle<String, T, any Error, @Sendable (String) async throws -> T>"
            ))
        #expect(expansion.contains("func get<T: Decodable>(_ path: String) async throws -> T {"))
        #expect(expansion.contains("let _mockErased = _mockState.withLock {"))
        #expect(expansion.contains("$0.get.record(ObjectIdentifier(T.self), path)"))
        #expect(
            expansion.contains(
                "let _mockAction = (_mockErased as? MockAction<T, any Error, @Sendable (String) async throws -> T>) ?? .unconfigured"
            ))
        #expect(
            expansion.contains(
                "func sendTo<_Opaque0: Encodable & Sendable>(_ type0: _Opaque0.Type) -> MockStubHandle<String, Void"))
        #expect(expansion.contains("$0.sendTo.record(ObjectIdentifier(_Opaque0.self), path)"))
    }

    @Test(
        "subscripts: the getter is stubbed and recorded like a method, the setter records the arguments and the new value and answers it from then on"
    )
    func subscripts() {
        let expansion = Self.expand(
            "subscript(key: String) -> Int? { get set }\nsubscript(row: Int, column: Int) -> Double { get throws }")
        #expect(expansion.contains("var subscriptKey = MockStub<String, Int?, Never, @Sendable (String) -> Int?>()"))
        #expect(
            expansion.contains(
                "var setSubscriptKey = MockStub<(key: String, newValue: Int?), Void, Never, @Sendable (String, Int?) -> Void>()"
            ))
        #expect(expansion.contains("subscript(_ key: String) -> Int? {"))
        #expect(expansion.contains("$0.setSubscriptKey.record((key: key, newValue: newValue))"))
        #expect(expansion.contains("$0.subscriptKey.answer(.value(newValue), when: key)"))
        #expect(
            expansion.contains(
                "var subscriptRowColumn: MockStubHandle<(row: Int, column: Int), Double, any Error, @Sendable (Int, Int) throws -> Double>"
            ))
        #expect(expansion.contains("subscript(_ row: Int, _ column: Int) -> Double {"))
        #expect(expansion.contains("get throws {"))
        #expect(expansion.contains(#"throw UnconfiguredMockCall(requirement: "subscript(_:_:)")"#))
        #expect(expansion.contains("get throws { try mockInherited(MockP.self)![row, column] }"))
        #expect(expansion.contains("nonmutating set { mockInherited(MockP.self)![key] = newValue }"))
    }

    @Test(
        "rethrows: no configurable error, a throwing handler run by a typed-throws helper that throws only the closure's error"
    )
    func rethrowsRequirement() {
        let expansion = Self.expand("func each(_ items: [Int], _ body: (Int) throws -> Void) rethrows")
        #expect(
            expansion.contains(
                "var each = MockStub<[Int], Void, Never, @Sendable ([Int], (Int) throws -> Void) throws -> Void>()"))
        #expect(expansion.contains("func each(_ items: [Int], _ body: (Int) throws -> Void) rethrows {"))
        #expect(
            expansion.contains(
                "func _mockRethrow<_MockFailure: Error>(_ _mockHandler: @escaping @Sendable ([Int], (Int) throws -> Void) throws -> Void, _ items: [Int], _ body: (Int) throws(_MockFailure) -> Void) throws(_MockFailure) -> Void {"
            ))
        #expect(expansion.contains("try _mockRethrow(_mockHandler, items, body)"))
    }

    @Test(
        "standard parents: identity for Equatable and Hashable (in the mock, and for a child's mock), stubbed description and id, Codable"
    )
    func standardParents() {
        let expansion = Self.expand(
            "func balance() -> Int",
            header:
                "protocol Account: Sendable, Hashable, CustomStringConvertible, Identifiable where ID == String, Self: Codable"
        )
        #expect(expansion.contains("static func == (lhs: MockAccount, rhs: MockAccount) -> Bool { lhs === rhs }"))
        #expect(expansion.contains("func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }"))
        #expect(expansion.contains("var description: MockStubHandle<Void, String, Never, @Sendable () -> String>"))
        #expect(expansion.contains("var id: String {"))
        #expect(expansion.contains("func encode(to encoder: any Encoder) throws {"))
        #expect(expansion.contains("convenience init(from decoder: any Decoder) throws { self.init() }"))
        #expect(!expansion.contains("extension Account where Self: MockInheriting {"), "Decodable: not forwardable")
    }

    @Test("static requirements of a generic mock keep their state per specialization in MockStaticStates")
    func genericStatics() {
        let expansion = Self.expand(
            "associatedtype Product: Sendable\nstatic func make() -> Product", header: "protocol Factory")
        #expect(expansion.contains("private static var _mockStaticState: MockLock<StaticState> {"))
        #expect(expansion.contains("MockStaticStates.lock(for: Self.self) {"))
        #expect(!expansion.contains("static let _mockStaticState"))
    }

    @Test("operators are static methods stubbed by their symbols' names; the protocol's own == replaces identity")
    func operators() {
        let expansion = Self.expand(
            "static func == (lhs: Self, rhs: Self) -> Bool\nstatic prefix func - (value: Self) -> Self",
            header: "protocol Money: Sendable, Equatable")
        #expect(expansion.contains("var operatorEqualEqual = MockStub<(lhs: MockMoney, rhs: MockMoney), Bool, Never"))
        #expect(expansion.contains("static func ==(lhs: MockMoney, rhs: MockMoney) -> Bool {"))
        #expect(expansion.contains("static prefix func -(value: MockMoney) -> MockMoney {"))
        #expect(expansion.contains("var prefixOperatorMinus: MockStubHandle<MockMoney, MockMoney, Never"))
        #expect(!expansion.contains("lhs === rhs"))
    }

    @Test("Comparable: identity for ==, a stubbed static < ; Error needs nothing")
    func comparableAndError() {
        let expansion = Self.expand("func f()", header: "protocol Reading: Sendable, Comparable, Error")
        #expect(expansion.contains("static func == (lhs: MockReading, rhs: MockReading) -> Bool { lhs === rhs }"))
        #expect(
            expansion.contains("var operatorLess: MockStubHandle<(lhs: MockReading, rhs: MockReading), Bool, Never"))
        #expect(expansion.contains("final class MockReading: Reading, Sendable {"))
    }

    @Test(
        "review cases: a subscript label equal to its name, a method's own generic E beside rethrows, overloads that are not the standard ones, Self in a rethrowing closure"
    )
    func reviewCases() {
        let expansion = Self.expand(
            """
            subscript(key key: String) -> Int { get }
            subscript() -> Int { get }
            func map<E: Sendable>(_ xs: [E], _ f: (E) throws -> E) rethrows -> [E]
            static func == (lhs: Self, rhs: Int) -> Bool
            func hash(_ text: String) -> Int
            func visit(_ body: (Self) throws -> Void) rethrows
            """,
            header: "protocol P: Sendable, Hashable")
        #expect(expansion.contains("subscript(key key: String) -> Int {"))
        #expect(expansion.contains("var subscriptValue: MockStubHandle<Void, Int"))
        #expect(expansion.contains("_ f: (E) throws(_MockFailure) -> E) throws(_MockFailure) -> [E] {"))
        #expect(
            expansion.contains("static func == (lhs: MockP, rhs: MockP) -> Bool { lhs === rhs }"),
            "identity kept beside an == on Int")
        #expect(expansion.contains("func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }"))
        #expect(expansion.contains("_ body: (MockP) throws(_MockFailure) -> Void"))
    }

    @Test("a where clause naming Identifiable after ID == T, and Self in an associated type's requirement")
    func whereOrder() {
        let expansion = Self.expand(
            "associatedtype Child: Sendable where Child: Sendable\nfunc f()",
            header: "protocol Node where ID == String, Self: Identifiable")
        #expect(expansion.diagnostics.isEmpty)
        #expect(expansion.contains("var id: String {"))
    }

    @Test("associated types make the mock generic")
    func associatedTypes() {
        let expansion = Self.expand(
            "associatedtype Item: Sendable & Hashable\nfunc put(_ item: Item)", header: "protocol Store")
        #expect(expansion.contains("final class MockStore<Item: Sendable & Hashable>: Store, Sendable {"))
    }

    @Test("an Actor protocol gets an actor whose test API is nonisolated")
    func actorProtocol() {
        let expansion = Self.expand("func increment() -> Int", header: "protocol Counter: Actor")
        #expect(expansion.contains("actor MockCounter: Counter, Sendable {"))
        #expect(expansion.contains("nonisolated var stubs: Stubs"))
        #expect(expansion.contains("init(strict: Bool = false"))
        #expect(!expansion.contains("nonisolated init"))
    }

    @Test("a @MainActor protocol gets a main-actor class with a nonisolated init and test API")
    func mainActorProtocol() {
        let expansion = Self.expand(
            "func show()\nnonisolated func id() -> String", header: "@MainActor protocol Screen")
        #expect(expansion.contains("@MainActor final class MockScreen: Screen, Sendable {"))
        #expect(expansion.contains("nonisolated init(strict: Bool = false"))
        #expect(expansion.contains("nonisolated func resetMock()"))
        #expect(expansion.contains("nonisolated func id() -> String {"))
    }

    @Test("a private protocol gets a fileprivate mock (public ones: WhereProtocolsLiveExpansionTests)")
    func access() {
        #expect(
            Self.expand("func f()", header: "private protocol Q").contains("fileprivate final class MockQ: Q, Sendable")
        )
    }
}
