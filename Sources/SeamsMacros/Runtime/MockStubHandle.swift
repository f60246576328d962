/// The handle of one requirement of a `Sendable` generated mock: configure its answer, read its
/// calls (the API is ``MockStubHandling``'s). Every method takes the mock's lock, so tests may
/// use it from any number of threads.
///
/// A generated mock hands one out per requirement under `stubs`:
///
/// ```swift
/// let mock = MockFileAccessor()
/// mock.stubs.readFrom.returns(Data("{}".utf8))
/// mock.stubs.writeTo.throwing(CocoaError(.fileWriteOutOfSpace))
/// _ = try mock.read(from: url)
/// #expect(mock.stubs.readFrom.calls == [url])
/// ```
public struct MockStubHandle<Arguments: Sendable, Output: Sendable, Failure: Error, Handler: Sendable>:
    MockStubHandling, Sendable
{
    /// The stub's storage.
    public typealias Stub = MockStub<Arguments, Output, Failure, Handler>

    private let access: @Sendable (_ body: (inout Stub) -> Void) -> Void

    /// Creates a handle that reaches its stub through `access`, which runs its argument under the
    /// mock's lock.
    ///
    /// - Parameter access: Runs a closure on the stub, under the lock.
    public init(_ access: @escaping @Sendable (_ body: (inout Stub) -> Void) -> Void) {
        self.access = access
    }

    /// Runs `body` on the stub under the mock's lock.
    ///
    /// - Parameter body: Reads or changes the stub.
    public func withStub(_ body: (inout Stub) -> Void) {
        access(body)
    }
}
