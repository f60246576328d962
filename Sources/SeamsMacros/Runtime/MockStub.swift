/// The configuration and the record of one requirement of a generated mock: what to answer, and
/// every call's arguments. A value type that lives inside the mock's locked state.
///
/// Tests reach it through ``MockStubHandle``; generated code calls ``record(_:)``:
///
/// ```swift
/// var stub = MockStub<String, Int, Never, @Sendable (String) -> Int>()
/// stub.configure(.value(42))
/// _ = stub.record("a")          // .value(42)
/// #expect(stub.calls == ["a"])
/// ```
public struct MockStub<Arguments, Output, Failure: Error, Handler> {
    /// How the stub answers.
    public enum Behavior {
        /// The same value every time.
        case value(Output)
        /// These values in order, one per call; when they run out the call is unconfigured.
        case sequence([Output])
        /// The same error every time.
        case error(Failure)
        /// A closure called with the arguments.
        case handler(Handler)
    }

    /// Every call's arguments, in order (closure arguments are not recorded).
    public var calls: [Arguments] { recordedCalls }
    /// How the stub answers; `nil` when unconfigured.
    public var behavior: Behavior? { configured }

    // Stored as `@usableFromInline` so that `record(_:)` inlines and specializes into the mock.
    @usableFromInline var recordedCalls: [Arguments] = []
    @usableFromInline var configured: Behavior?
    @usableFromInline var sequenceIndex = 0

    /// Creates an unconfigured stub with no calls.
    public init() {}

    /// Sets how the stub answers from now on.
    ///
    /// - Parameter behavior: The answer; `nil` makes the stub unconfigured.
    @inlinable
    public mutating func configure(_ behavior: Behavior?) {
        configured = behavior
        sequenceIndex = 0
    }

    /// Records one call and returns what to do for it.
    ///
    /// - Parameter arguments: The call's recorded arguments.
    /// - Returns: The action for this call.
    @inlinable
    public mutating func record(_ arguments: Arguments) -> MockAction<Output, Failure, Handler> {
        recordedCalls.append(arguments)
        switch configured {
        case .none:
            return .unconfigured
        case .value(let value):
            return .value(value)
        case .sequence(let values):
            guard sequenceIndex < values.count else { return .unconfigured }
            sequenceIndex += 1
            return .value(values[sequenceIndex - 1])
        case .error(let error):
            return .error(error)
        case .handler(let handler):
            return .handler(handler)
        }
    }

    /// Forgets the calls and the configuration.
    public mutating func reset() {
        recordedCalls.removeAll()
        configure(nil)
    }
}

extension MockStub: Sendable where Arguments: Sendable, Output: Sendable, Handler: Sendable {}
extension MockStub.Behavior: Sendable where Output: Sendable, Handler: Sendable {}
