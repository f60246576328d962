import Testing

/// Issue 14's expansions: a mock that names no test framework, follows its protocol's access
/// level, and writes `Self` as its own name.
@Suite struct WhereProtocolsLiveExpansionTests {
    static func expand(_ members: String, header: String = "protocol P: Sendable") -> Expansion {
        let expansion = Expansion("@Mockable\n\(header) {\n\(members)\n}")
        #expect(expansion.diagnostics.isEmpty)
        return expansion
    }

    @Test("the generated code names nothing of Testing: issues go through MockIssue at a MockSourceLocation")
    func noTestingNames() {
        let expansion = Self.expand("func ping()\nstatic func make() -> Int\ninit(size: Int)")
        for name in [
            " Issue.", " SourceLocation(", " SourceLocation ", "#_sourceLocation", "Testing", "XCTest", "XCTFail",
        ] {
            #expect(!expansion.compact.contains(name), "\(name)")
        }
        #expect(
            expansion.contains(
                "init(strict: Bool = false, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {"
            ))
        #expect(
            expansion.contains(
                "_mockSourceLocation = MockSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)"
            ))
        #expect(
            expansion.contains(
                "MockIssue.unconfigured(requirement, on: Self.self, strict: _mockStrict, always: always, at: _mockSourceLocation)"
            ))
        #expect(
            expansion.contains(
                #"MockIssue.unconfigured("static " + requirement, on: Self.self, strict: false, always: always, at: MockSourceLocation())"#
            ))
    }

    @Test("a public protocol gets a public mock: its type, init, stubs, handles, requirements and reset")
    func publicProtocol() {
        let expansion = Self.expand(
            """
            func read(from path: String) -> Int
            var name: String { get set }
            static func make() -> Int
            init(size: Int)
            """, header: "public protocol P: Sendable")
        for fragment in [
            "public final class MockP: P, Sendable {",
            "public struct Stubs: Sendable {",
            "public struct StaticStubs: Sendable {",
            "public var readFrom: MockStubHandle<String, Int, Never, @Sendable (String) -> Int> {",
            "public var setName: MockStubHandle<String, Void, Never, @Sendable (String) -> Void> {",
            "public init(strict: Bool = false,",
            "public var stubs: Stubs {",
            "public static var staticStubs: StaticStubs {",
            "public func resetMock() {",
            "public func read(from path: String) -> Int {",
            "public var name: String {",
            "public static func make() -> Int {",
            "public init(size: Int) {",
        ] {
            #expect(expansion.contains(fragment), "\(fragment)")
        }
        #expect(expansion.contains("fileprivate struct State: Sendable {"))
        #expect(expansion.contains("private let _mockState: MockLock<State>"))
    }

    @Test("the mock's access follows the protocol: package, internal, fileprivate for private")
    func otherAccessLevels() {
        #expect(
            Self.expand("func ping()", header: "package protocol P: Sendable").contains(
                "package final class MockP: P, Sendable {"))
        #expect(
            Self.expand("func ping()", header: "package protocol P: Sendable").contains(
                "package var ping: MockStubHandle"))
        let internalMock = Self.expand("func ping()")
        #expect(internalMock.contains("`@Mockable`. final class MockP: P, Sendable {"))
        #expect(!internalMock.contains("public"))
        #expect(
            Self.expand("func ping()", header: "private protocol P: Sendable").contains(
                "fileprivate final class MockP: P, Sendable {"))
    }

    @Test("a public mock stays behind the compile-time condition")
    func publicMockIsConditional() {
        let expansion = Self.expand("func ping()", header: "public protocol P: Sendable")
        #expect(expansion.compact.hasPrefix("public protocol P: Sendable { func ping() } #if DEBUG || SEAMS_MOCKS"))
        #expect(
            expansion.compact.hasSuffix(
                "} #endif extension P where Self: MockInheriting { #if DEBUG || SEAMS_MOCKS public func ping() { mockInherited(MockP.self)!.ping() } #endif }"
            ))
    }

    @Test("Self in results, parameters, closures, static factories, properties and initializers is the mock's name")
    func selfRequirements() throws {
        let expansion = Self.expand(
            """
            static func make() -> Self?
            static var zero: Self { get }
            init(copying other: Self)
            func scaled(by factor: Double) -> Self
            func merged(with other: Self, using body: (Self) -> Self) -> [Self]
            func isSelfish(_ selfCheck: Int) -> Bool
            """)
        for fragment in [
            "static func make() -> MockP? {",
            "var make = MockStub<Void, MockP?, Never, @Sendable () -> MockP?>()",
            "static var zero: MockP {",
            "init(copying other: MockP) {",
            "func scaled(by factor: Double) -> MockP {",
            "func merged(with other: MockP, using body: (MockP) -> MockP) -> [MockP] {",
            "var mergedWithUsing = MockStub<MockP, [MockP], Never, @Sendable (MockP, (MockP) -> MockP) -> [MockP]>()",
            "func isSelfish(_ selfCheck: Int) -> Bool {",
        ] {
            #expect(expansion.contains(fragment), "\(fragment)")
        }
        let compact = expansion.compact
        let mock = String(compact[try #require(compact.firstRange(of: "#if DEBUG || SEAMS_MOCKS")).lowerBound...])
        #expect(!mock.contains("-> Self"))
        for use in [": Self ", ": Self,", ": Self)", ": Self?", "(Self)", "[Self]", "Self?"] {
            #expect(!mock.contains(use), "\(use)")  // `Self.self` (the mock's own type, in its messages) stays
        }
    }

    @Test("Self in a class-bound protocol's requirements is the mock's name too")
    func selfInClassBoundProtocol() {
        let expansion = Self.expand(
            """
            func parent() -> Self?
            func adopt(_ child: Self)
            static func root() -> Self
            """, header: "protocol Node: AnyObject, Sendable")
        #expect(expansion.contains("final class MockNode: Node, Sendable {"))
        #expect(expansion.contains("func parent() -> MockNode? {"))
        #expect(expansion.contains("func adopt(_ child: MockNode) {"))
        #expect(expansion.contains("static func root() -> MockNode {"))
    }

    @Test("a protocol's @Mockable also writes the forwarding a child's mock uses, behind the same condition")
    func parentForwarding() {
        let expansion = Self.expand(
            """
            func read(from path: String) async throws -> Data
            func adjust(_ value: inout Int)
            var root: String { get set }
            static func defaultRoot() -> String
            """, header: "public protocol Parent: Sendable")
        for fragment in [
            "extension Parent where Self: MockInheriting { #if DEBUG || SEAMS_MOCKS",
            "public func read(from path: String) async throws -> Data { try await mockInherited(MockParent.self)!.read(from: path) }",
            "public func adjust(_ value: inout Int) { mockInherited(MockParent.self)!.adjust(&value) }",
            "public var root: String { get { mockInherited(MockParent.self)!.root } nonmutating set { mockInherited(MockParent.self)!.root = newValue } }",
            "public static func defaultRoot() -> String { MockParent.defaultRoot() }",
        ] {
            #expect(expansion.contains(fragment), "\(fragment)")
        }
        #expect(expansion.compact.hasSuffix("#endif }"))
    }

    @Test("no forwarding where a child's mock could not satisfy the requirements: Self, initializers, actors")
    func noForwarding() {
        #expect(!Self.expand("func copy() -> Self").contains("MockInheriting"))
        #expect(!Self.expand("init(size: Int)").contains("MockInheriting"))
        #expect(!Self.expand("func ping()", header: "protocol P: Actor").contains("MockInheriting"))
    }

    @Test("a class-bound parent's forwarded setter is a plain set")
    func classBoundForwarding() {
        let expansion = Self.expand("var root: String { get set }", header: "protocol P: AnyObject, Sendable")
        #expect(
            expansion.contains(
                "var root: String { get { mockInherited(MockP.self)!.root } set { mockInherited(MockP.self)!.root = newValue } }"
            ))
    }

    @Test("a child's mock holds its parent's mock, made with the same strictness and location, and reaches its handles")
    func childMock() {
        let expansion = Self.expand("func write(_ text: String) throws", header: "protocol Child: Parent, Sendable")
        for fragment in [
            "final class MockChild: Child, Sendable, MockInheriting {",
            "private let _mockInheritedParent: MockParent",
            "_mockInheritedParent = MockParent(strict: strict, fileID: fileID, filePath: filePath, line: line, column: column)",
            "var stubs: Stubs { Stubs(state: _mockState, inheritedParent: _mockInheritedParent.stubs) }",
            "_mockInheritedParent.resetMock()",
            "@dynamicMemberLookup struct Stubs: Sendable {",
            "subscript<Handle>(dynamicMember keyPath: KeyPath<MockParent.Stubs, Handle>) -> Handle { inheritedParent[keyPath: keyPath] }",
            "func mockInherited<Mock>(_ type: Mock.Type) -> Mock? { if let mock = _mockInheritedParent as? Mock { return mock }",
            "func inherited(_ mock: MockParent.Type) -> MockParent.Stubs { inheritedParent }",
            "extension Child where Self: MockInheriting {",
        ] {
            #expect(expansion.contains(fragment), "\(fragment)")
        }
    }

    @Test("a standard protocol the mock cannot write is refused as a parent")
    func standardParentRefused() {
        let expansion = Expansion("@Mockable\nprotocol P: Collection {\n    func f()\n}")
        #expect(
            expansion.diagnostics == [
                "2:13: @Mockable cannot mock the requirements of this inherited protocol; a protocol may inherit 'Sendable', 'Actor', 'AnyObject', 'Equatable', 'Hashable', 'Comparable', 'Identifiable', 'CustomStringConvertible', 'CustomDebugStringConvertible', 'Encodable', 'Decodable', 'Codable', 'Error' and other @Mockable protocols"
            ])
    }
}
