import Seams

/// A `Mutex` in a class, so test closures can share one.
final class Mutexed<Value: Sendable>: Sendable {
    private let mutex: LockedValue<Value>
    init(_ value: Value) { mutex = LockedValue(value) }
    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
