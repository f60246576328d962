/// The static state of generic mocks, one per specialization: a generic type cannot have a
/// `static let`, so a mock generic over its protocol's associated types keeps its static stubs
/// here, keyed by its own type (`MockStore<Int>` and `MockStore<String>` apart).
///
/// Generated code uses it; tests never need to:
///
/// ```swift
/// let state = MockStaticStates.lock(for: MockStore<Int>.self) { 0 }
/// state.withLock { $0 += 1 }
/// ```
public enum MockStaticStates {
    private static let states = MockLock<[ObjectIdentifier: any Sendable]>([:])

    /// The lock of `type`'s static state, made with `make` the first time.
    ///
    /// - Parameters:
    ///   - type: The mock's type, specialized.
    ///   - make: The initial state.
    /// - Returns: The same lock for the same type every time.
    public static func lock<State: Sendable>(for type: Any.Type, _ make: () -> State) -> MockLock<State> {
        states.withLock { states in
            if let lock = states[ObjectIdentifier(type)] as? MockLock<State> { return lock }
            let lock = MockLock(make())
            states[ObjectIdentifier(type)] = lock
            return lock
        }
    }
}
