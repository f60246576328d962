import Foundation
import Synchronization

/// A value that many threads share, changed only under a lock: the state of every test double in
/// this package.
///
/// It is `Synchronization.Mutex` plus one thing: the lock is also one the thread sanitizer can
/// see. On Linux, `Mutex` waits on a futex inside the uninstrumented Synchronization library,
/// so `swift test --sanitize=thread` cannot see that it orders accesses and reports every
/// contended access as a race. `LockedValue` takes a pthread-backed `NSLock` (which the sanitizer
/// intercepts) around the `Mutex`, so a sanitizer report from code that uses it is a real race.
/// The `Mutex` keeps the value `Sendable` without any unchecked claim; it is never contended.
///
/// ```swift
/// final class Counter: Sendable {
///     private let count = LockedValue(0)
///     func increment() { count.withLock { $0 += 1 } }
///     var value: Int { count.withLock { $0 } }
/// }
/// ```
public struct LockedValue<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let lock = NSLock()

    /// Creates the lock holding `initialValue`.
    ///
    /// - Parameter initialValue: The value to protect.
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: Reads or changes the value; it must not call `withLock` on the same
    ///   instance (the lock is not recursive).
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try mutex.withLock(body)
    }
}
