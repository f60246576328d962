// `public`: the public protocol's mock names SeamsMacros' handle types in its public API.
public import SeamsMacros

/// Associated types and an initializer requirement: the mock is generic over `Item`.
@Mockable
protocol Store {
    associatedtype Item: Sendable
    init(capacity: Int)
    func put(_ item: Item, key: String)
    func get(key: String) -> Item?
}

/// An actor-constrained protocol: the mock is an actor.
@Mockable
protocol Counter: Actor {
    func increment(by amount: Int) -> Int
    var total: Int { get }
}

/// A main-actor protocol: the mock is a main-actor class.
@Mockable
@MainActor
protocol Screen {
    func show(_ title: String)
    var isVisible: Bool { get set }
    nonisolated func identifier() -> String
}

/// A public protocol: the mock and its API are public too.
@Mockable
public protocol Clock: Sendable {
    func now() -> Double
}

/// Variadic and `some` parameters, on instance and static requirements, `async`, `throws` and
/// `inout`.
@Mockable
protocol Tagging: Sendable {
    func tag(_ tags: String..., on path: String) async throws -> Int
    static func join(_ parts: Int...) -> String
    func bump(_ value: inout some Numeric & Sendable)
    func describe<Key: Hashable & Sendable>(_ key: Key, _ value: some Sendable) -> String
}

/// The most common API-client shape: generic parameters constrained to `Decodable` or
/// `Encodable`, not to `Sendable`.
@Mockable
protocol APIClient: Sendable {
    func get<T: Decodable>(_ path: String) async throws -> T
    func send(_ body: some Encodable, to path: String) async throws
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T
}

/// Subscripts: get, get set, a throwing getter, several parameters, a labelled one, a static one.
@Mockable
protocol Grid: Sendable {
    subscript(key: String) -> Int? { get set }
    subscript(row: Int, column: Int) -> Double { get throws }
    subscript(at index: Int) -> String { get }
    static subscript(name: String) -> Int { get }
}

/// A child protocol: its mock answers the parent's subscripts too.
@Mockable
protocol LabelledGrid: Grid {
    func title() -> String
}

/// `rethrows`: the mock throws only what the closure throws.
@Mockable
protocol Batching: Sendable {
    func map<T: Sendable>(_ items: [Int], _ transform: (Int) throws -> T) rethrows -> [T]
    func each(_ body: @Sendable (String, Int) async throws -> Void) async rethrows
}

/// Standard parents: identity, a stubbed description, `Identifiable` with a fixed `ID`.
@Mockable
protocol Account: Sendable, Hashable, CustomStringConvertible, Identifiable where ID == String {
    func balance() -> Int
}

/// `Codable` through a `where Self:` clause, and `Identifiable` with a class's own `id`.
@Mockable
protocol Note: AnyObject, Sendable, Identifiable where Self: Codable {
    var title: String { get }
}

/// A child of an `Equatable` protocol: its mock is equal only to itself too.
@Mockable
protocol SavingsAccount: Account {
    func rate() -> Double
}

/// `where` clauses on an associated type and on the protocol, carried into the generic mock.
@Mockable
protocol Catalog where Item: Hashable {
    associatedtype Item: Sendable
    associatedtype Key: Sendable where Key: Comparable
    func item(for key: Key) -> Item?
}

/// Static requirements in a protocol with associated types: static state per specialization.
@Mockable
protocol Factory {
    associatedtype Product: Sendable
    static func make(named name: String) -> Product
    static var count: Int { get }
}

/// Operators: binary, prefix, and `==` declared by the protocol itself (stubbed, not identity).
@Mockable
protocol Money: Sendable, Equatable {
    static func + (lhs: Self, rhs: Self) -> Self
    static prefix func - (value: Self) -> Self
    static func == (lhs: Self, rhs: Self) -> Bool
    static func < (lhs: Self, rhs: Int) -> Bool
}

/// Review cases that must compile: a subscript whose label is its name, a method's own generic
/// `E` beside `rethrows`, `Hashable` beside a `hash(_:)` of another kind, `Self` in a rethrowing
/// closure, and a `sendable: false` mock with the new shapes.
@Mockable
protocol Edges: Sendable, Hashable {
    subscript(key key: String) -> Int { get }
    func map<E: Sendable>(_ xs: [E], _ f: (E) throws -> E) rethrows -> [E]
    func hash(_ text: String) -> Int
}

/// Parameter packs: recorded as arrays, static and inherited too.
@Mockable
protocol Formatting: Sendable {
    func format<each Value: Sendable>(_ values: repeat each Value, separator: String) async throws -> String
    static func count<each Value: Sendable & Equatable>(_ values: repeat each Value) -> Int
}

/// A child of a protocol with a pack requirement.
@Mockable
protocol LineFormatting: Formatting {
    func newline() -> String
}

/// A mock that is not `Sendable`, with variadic, subscript, rethrows, `some` and pack requirements.
@Mockable(sendable: false)
protocol LooseShapes {
    func log(_ items: String...)
    func show<each Value>(_ values: repeat each Value)
    subscript(index: Int) -> String { get set }
    func each(_ body: (Int) throws -> Void) rethrows
    func keep(_ value: some AnyObject)
}
