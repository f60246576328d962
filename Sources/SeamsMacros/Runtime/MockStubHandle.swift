/// A test's view of one requirement of a generated mock: configure its answer, read its calls.
/// Every method takes the mock's lock, so tests may use it from any number of threads.
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
    Sendable
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

    /// Answers every call with `value`.
    ///
    /// - Parameter value: The value to return.
    public func returns(_ value: Output) {
        access { $0.configure(.value(value)) }
    }

    /// Answers the next calls with `values`, one per call, in order; after the last one a call
    /// is unconfigured.
    ///
    /// - Parameter values: The values to return.
    public func returnsInOrder(_ values: [Output]) {
        access { $0.configure(.sequence(values)) }
    }

    /// Makes every call throw `error`.
    ///
    /// - Parameter error: The error to throw.
    public func throwing(_ error: Failure) {
        access { $0.configure(.error(error)) }
    }

    /// Answers every call by calling `handler` with the call's arguments.
    ///
    /// - Parameter handler: Computes the answer; may throw where the requirement throws.
    public func handle(_ handler: Handler) {
        access { $0.configure(.handler(handler)) }
    }

    /// Every call's arguments, in order. Closure arguments are not recorded; several arguments
    /// come as a tuple labelled with the parameter names.
    public var calls: [Arguments] {
        var result: [Arguments] = []
        access { result = $0.calls }
        return result
    }

    /// How many calls the requirement received.
    public var callCount: Int {
        var result = 0
        access { result = $0.calls.count }
        return result
    }

    /// Forgets the calls and the configuration.
    public func reset() {
        access { $0.reset() }
    }
}
