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

    /// One answer for one argument value, set by `returns(_:when:)` or `throwing(_:when:)`.
    public struct ArgumentAnswer {
        /// The argument value the answer is for.
        public var arguments: Arguments
        /// The answer: `.value` or `.error`.
        public var behavior: Behavior
    }

    // Stored as `@usableFromInline` so that `record(_:)` inlines and specializes into the mock.
    @usableFromInline var recordedCalls: [Arguments] = []
    @usableFromInline var configured: Behavior?
    @usableFromInline var sequenceIndex = 0
    // Answers for given argument values, tried before `configured`. Arguments are compared
    // through `any Equatable`, element by element for the labelled tuple of several arguments,
    // so the stub itself needs no constraint (see `canCompare(_:)`).
    @usableFromInline var argumentAnswers: [ArgumentAnswer] = []

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

    /// Answers calls whose arguments equal `arguments` with `behavior`, before the stub's own
    /// configuration; a later answer for equal arguments replaces an earlier one. Check
    /// ``canCompare(_:)`` first: arguments that cannot be compared never match.
    ///
    /// - Parameters:
    ///   - behavior: The answer, `.value` or `.error`.
    ///   - arguments: The argument value, or the tuple of several, it is for.
    public mutating func answer(_ behavior: Behavior, when arguments: Arguments) {
        argumentAnswers.removeAll { Self.equal($0.arguments, arguments) }
        argumentAnswers.append(ArgumentAnswer(arguments: arguments, behavior: behavior))
    }

    /// Records one call and returns what to do for it.
    ///
    /// - Parameter arguments: The call's recorded arguments.
    /// - Returns: The action for this call.
    @inlinable
    public mutating func record(_ arguments: Arguments) -> MockAction<Output, Failure, Handler> {
        recordedCalls.append(arguments)
        if !argumentAnswers.isEmpty, let action = answer(for: arguments) {
            return action
        }
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

    /// The answer set for arguments equal to `arguments`, if any.
    @usableFromInline
    func answer(for arguments: Arguments) -> MockAction<Output, Failure, Handler>? {
        guard let match = argumentAnswers.first(where: { Self.equal($0.arguments, arguments) }) else { return nil }
        switch match.behavior {
        case .value(let value): return .value(value)
        case .error(let error): return .error(error)
        case .sequence, .handler: return nil
        }
    }

    /// Whether `arguments` can be compared for ``answer(_:when:)``: an `Equatable` value, or a
    /// tuple of them.
    ///
    /// - Parameter arguments: A call's recorded arguments.
    /// - Returns: `true` when equal arguments can be recognized.
    public static func canCompare(_ arguments: Arguments) -> Bool {
        if arguments is any Equatable { return true }
        let mirror = Mirror(reflecting: arguments)
        return mirror.displayStyle == .tuple && mirror.children.allSatisfy { $0.value is any Equatable }
    }

    private static func equal(_ lhs: Arguments, _ rhs: Arguments) -> Bool {
        if let lhs = lhs as? any Equatable { return lhs.isEqual(toAny: rhs) }
        let left = Mirror(reflecting: lhs)
        let right = Mirror(reflecting: rhs)
        guard left.displayStyle == .tuple, left.children.count == right.children.count else { return false }
        return zip(left.children, right.children).allSatisfy { pair in
            (pair.0.value as? any Equatable)?.isEqual(toAny: pair.1.value) ?? false
        }
    }

    /// Forgets the calls and the configuration.
    public mutating func reset() {
        recordedCalls.removeAll()
        argumentAnswers.removeAll()
        configure(nil)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(toAny other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

extension MockStub: Sendable where Arguments: Sendable, Output: Sendable, Handler: Sendable {}
extension MockStub.Behavior: Sendable where Output: Sendable, Handler: Sendable {}
extension MockStub.ArgumentAnswer: Sendable where Arguments: Sendable, Output: Sendable, Handler: Sendable {}
