/// A mock of a protocol that inherits other `@Mockable` protocols. It holds one mock of each
/// inherited protocol, and the inherited requirements are forwarded to it by the extension that
/// the inherited protocol's own `@Mockable` writes (`extension Parent where Self: MockInheriting`).
///
/// ```swift
/// @Mockable protocol ReadingProviding: Sendable { func read(from path: String) throws -> Data }
/// @Mockable protocol StorageProviding: ReadingProviding { func write(_ data: Data, to path: String) throws }
///
/// let storage = MockStorageProviding()
/// storage.stubs.readFrom.returns(Data("a".utf8))     // an inherited requirement's handle
/// _ = try storage.read(from: "a.txt")
/// ```
public protocol MockInheriting {
    /// The mock of an inherited protocol, to which its requirements are forwarded.
    ///
    /// - Parameter type: The inherited protocol's mock type, e.g. `MockReadingProviding.self`.
    /// - Returns: This mock's instance of it (found through the inherited mocks for a protocol
    ///   inherited further up), or `nil` when it inherits no such protocol.
    func mockInherited<Mock>(_ type: Mock.Type) -> Mock?
}

extension MockInheriting where Self: AnyObject {
    /// A mock is equal only to itself: what makes the mock of a protocol that inherits an
    /// `Equatable` `@Mockable` protocol `Equatable` too.
    ///
    /// - Parameters:
    ///   - lhs: A mock.
    ///   - rhs: Another mock of the same type.
    /// - Returns: Whether they are the same instance.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    /// Hashes the mock's identity, for the mock of a protocol that inherits a `Hashable` one.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
