/// The handle of one requirement of a mock written by `@Mockable(sendable: false)`: configure
/// its answer, read its calls (the API is ``MockStubHandling``'s). Like its mock it is not
/// `Sendable`, so its arguments, results and handler need not be.
///
/// ```swift
/// let mock = MockDocumentStore()                  // @Mockable(sendable: false)
/// mock.stubs.openAt.handle { url in Document(url: url) }
/// _ = mock.open(at: url)
/// #expect(mock.stubs.openAt.callCount == 1)
/// ```
public struct MockNonSendableStubHandle<Arguments, Output, Failure: Error, Handler>: MockStubHandling {
    /// The stub's storage.
    public typealias Stub = MockStub<Arguments, Output, Failure, Handler>

    private let access: (_ body: (inout Stub) -> Void) -> Void

    /// Creates a handle that reaches its stub through `access`.
    ///
    /// - Parameter access: Runs a closure on the stub.
    public init(_ access: @escaping (_ body: (inout Stub) -> Void) -> Void) {
        self.access = access
    }

    /// Runs `body` on the stub.
    ///
    /// - Parameter body: Reads or changes the stub.
    public func withStub(_ body: (inout Stub) -> Void) {
        access(body)
    }
}
