/// How a mock keeps one set of state: behind a lock in a `Sendable` mock (the default), or in a
/// plain box in a mock written by `@Mockable(sendable: false)`, which is not `Sendable` and so
/// may record and return non-`Sendable` values. Static state is always locked (a `static let`
/// must be `Sendable`).
struct StateStorage {
    var isSendable: Bool

    static let locked = StateStorage(isSendable: true)
    static let unlocked = StateStorage(isSendable: false)

    /// The runtime type that holds the state.
    var container: String { isSendable ? "MockLock" : "MockBox" }
    /// Its method that runs a closure on the state.
    var accessor: String { isSendable ? "withLock" : "withValue" }
    /// The handle type a test gets.
    var handle: String { isSendable ? "MockStubHandle" : "MockNonSendableStubHandle" }
    /// The per-specialization stubs of a generic requirement.
    var genericStubs: String { isSendable ? "MockGenericStubs" : "MockNonSendableGenericStubs" }
    /// The attribute of a handler closure's type.
    var handlerAttribute: String { isSendable ? "@Sendable " : "" }
    /// The conformance clause of the state structs.
    var conformance: String { isSendable ? ": Sendable" : "" }
}
