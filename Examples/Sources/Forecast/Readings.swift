import SeamsMacros

/// A temperature reading the app orders and adds up: a standard parent (`Comparable`, whose `<`
/// a test stubs) and an operator requirement.
@Mockable
public protocol Reading: Sendable, Comparable {
    /// The reading in degrees Celsius.
    var celsius: Double { get }
    /// The later of two readings of the same place, merged.
    static func + (lhs: Self, rhs: Self) -> Self
}

/// Readings by a key the app sorts: `where` clauses on the protocol and on an associated type,
/// and a static requirement of a mock generic over both.
@Mockable
public protocol ReadingStore where Key: Comparable {
    /// What a reading is filed under.
    associatedtype Key: Sendable & Hashable
    /// What is filed.
    associatedtype Value: Sendable where Value: Equatable
    /// The value filed under `key`.
    func value(for key: Key) -> Value?
    /// How many values a store of this kind holds.
    static var capacity: Int { get }
}
