/// The stubs of one generic requirement of a generated mock: one ``MockStub`` per specialization,
/// so a test configures and reads each with its real types, never `Any`.
///
/// Generated code keys it by the generic arguments' metatype:
///
/// ```swift
/// var stubs = MockGenericStubs()
/// stubs.access(ObjectIdentifier(Int.self)) { (stub: inout MockStub<String, Int, any Error, @Sendable (String) throws -> Int>) in
///     stub.configure(.value(1))
/// }
/// ```
///
/// A requirement whose generic parameter is not constrained to `Sendable`
/// (`func get<T: Decodable>(_ path: String) async throws -> T`) is configured the same way, with a
/// `Sendable` type: the test's handle asks for one. The mock, which cannot know that of its `T`,
/// records a call through ``record(_:_:)``: the stub of a specialization a test configured answers
/// it; a call of a type no test has configured is kept (its `Sendable` arguments only) and handed
/// to that type's stub when a test first reaches it, and is answered as unconfigured.
public struct MockGenericStubs: Sendable {
    /// One specialization's stub, and how to record a call in it without naming its types.
    private struct Entry: Sendable {
        var stub: any Sendable
        let recordCall: @Sendable (inout any Sendable, any Sendable) -> any Sendable
    }

    private var stubs: [ObjectIdentifier: Entry] = [:]
    private var callsBeforeConfiguration: [ObjectIdentifier: [any Sendable]] = [:]

    /// Creates an empty set of stubs.
    public init() {}

    /// Runs `body` on the stub of the specialization `key`, creating it when missing.
    ///
    /// - Parameters:
    ///   - key: The generic arguments' identity, e.g. `ObjectIdentifier((T, U).self)`.
    ///   - body: Reads or changes the stub.
    /// - Returns: What `body` returns.
    public mutating func access<Arguments: Sendable, Output: Sendable, Failure: Error, Handler: Sendable, Result>(
        _ key: ObjectIdentifier,
        _ body: (inout MockStub<Arguments, Output, Failure, Handler>) -> Result
    ) -> Result {
        typealias Stub = MockStub<Arguments, Output, Failure, Handler>
        var stub: Stub
        if let existing = stubs[key]?.stub as? Stub {
            stub = existing
        } else {
            stub = MockStub()
            for call in callsBeforeConfiguration.removeValue(forKey: key) ?? [] {
                if let arguments = call as? Arguments { _ = stub.record(arguments) }
            }
        }
        let result = body(&stub)
        if stubs[key] != nil {
            stubs[key]?.stub = stub
            return result
        }
        stubs[key] = Entry(stub: stub) { stored, arguments in
            guard var stub = stored as? Stub, let arguments = arguments as? Arguments else {
                return MockAction<Output, Failure, Handler>.unconfigured
            }
            let action = stub.record(arguments)
            stored = stub
            return action
        }
        return result
    }

    /// Records a call of the specialization `key` whose result or handler types are not known to
    /// be `Sendable` where the mock is compiled, and returns the action of its stub, if a test
    /// made one (through ``access(_:_:)``, with `Sendable` types).
    ///
    /// - Parameters:
    ///   - key: The generic arguments' identity.
    ///   - arguments: The call's recorded (`Sendable`) arguments.
    /// - Returns: The stub's ``MockAction``, for the caller to cast to its types; `nil` when no
    ///   test has reached this specialization yet (the call is kept for it, and is unconfigured).
    public mutating func record<Arguments: Sendable>(_ key: ObjectIdentifier, _ arguments: Arguments) -> (
        any Sendable
    )? {
        guard var entry = stubs[key] else {
            callsBeforeConfiguration[key, default: []].append(arguments)
            return nil
        }
        let recordCall = entry.recordCall
        let action = recordCall(&entry.stub, arguments)
        stubs[key] = entry
        return action
    }

    /// Forgets every specialization's calls and configuration.
    public mutating func reset() {
        stubs.removeAll()
        callsBeforeConfiguration.removeAll()
    }
}
