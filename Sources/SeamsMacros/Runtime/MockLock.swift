public import Foundation
public import Synchronization

/// The lock that holds a generated mock's state: a `Mutex` in a class, so that generated code
/// needs no `import Synchronization` in the test file and a mock type can keep its static state in
/// a `static let`.
///
/// A pthread-backed `NSLock` is taken around the `Mutex`: on Linux `Mutex` waits on a futex that
/// the thread sanitizer cannot see, so without it `swift test --sanitize=thread` would report
/// every contended call as a race (`Seams.LockedValue` does the same for the other doubles).
///
/// Generated mocks use it; tests never need to:
///
/// ```swift
/// let lock = MockLock(0)
/// lock.withLock { $0 += 1 }
/// #expect(lock.withLock { $0 } == 1)
/// ```
public final class MockLock<Value: Sendable>: Sendable {
    @usableFromInline
    let mutex: Mutex<Value>

    @usableFromInline
    let sanitizerVisibleLock: NSLock

    /// Creates a lock holding `value`.
    ///
    /// - Parameter value: The initial state.
    public init(_ value: Value) {
        mutex = Mutex(value)
        sanitizerVisibleLock = NSLock()
    }

    /// Runs `body` with the state under the lock.
    ///
    /// - Parameter body: Reads or changes the state.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        sanitizerVisibleLock.lock()
        defer { sanitizerVisibleLock.unlock() }
        return try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            try body(&value)
        }
    }
}
