/// The stubs of one generic requirement of a mock written by `@Mockable(sendable: false)`: one
/// ``MockStub`` per specialization, so a test configures and reads each with its real types.
/// ``MockGenericStubs`` is the same for a `Sendable` mock.
///
/// ```swift
/// var stubs = MockNonSendableGenericStubs()
/// stubs.access(ObjectIdentifier(Int.self)) { (stub: inout MockStub<String, Int, any Error, (String) throws -> Int>) in
///     stub.configure(.value(1))
/// }
/// ```
public struct MockNonSendableGenericStubs {
    private var stubs: [ObjectIdentifier: Any] = [:]

    /// Creates an empty set of stubs.
    public init() {}

    /// Runs `body` on the stub of the specialization `key`, creating it when missing.
    ///
    /// - Parameters:
    ///   - key: The generic arguments' identity, e.g. `ObjectIdentifier((T, U).self)`.
    ///   - body: Reads or changes the stub.
    /// - Returns: What `body` returns.
    public mutating func access<Arguments, Output, Failure: Error, Handler, Result>(
        _ key: ObjectIdentifier,
        _ body: (inout MockStub<Arguments, Output, Failure, Handler>) -> Result
    ) -> Result {
        var stub = stubs[key] as? MockStub<Arguments, Output, Failure, Handler> ?? MockStub()
        let result = body(&stub)
        stubs[key] = stub
        return result
    }

    /// Forgets every specialization's calls and configuration.
    public mutating func reset() {
        stubs.removeAll()
    }
}
