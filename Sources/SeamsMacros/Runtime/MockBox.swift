/// The state of a mock written by `@Mockable(sendable: false)`: a plain box, no lock. Such a mock
/// is not `Sendable`, so the compiler keeps it in one isolation domain and nothing can reach the
/// box from two threads at once; that is what lets its arguments and results be non-`Sendable`.
///
/// Generated mocks use it; tests never need to:
///
/// ```swift
/// let box = MockBox(0)
/// box.withValue { $0 += 1 }
/// #expect(box.withValue { $0 } == 1)
/// ```
public final class MockBox<Value> {
    @usableFromInline
    var value: Value

    /// Creates a box holding `value`.
    ///
    /// - Parameter value: The initial state.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the state.
    ///
    /// - Parameter body: Reads or changes the state.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withValue<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(&value)
    }
}
