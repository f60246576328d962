import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells ThreadSanitizer about `Synchronization.Mutex`.
///
/// On Linux `Mutex` locks with raw `futex` calls that ThreadSanitizer does not intercept, so a
/// `--sanitize=thread` run reports "Swift access race" on state the mutex does guard (a
/// four-thread counter behind a `Mutex` shows it). Inside each locked section the doubles call
/// `__tsan_acquire` first and `__tsan_release` last on one address per instance, which gives
/// ThreadSanitizer the happens-before edges the lock really makes. The functions are looked up
/// once; outside a sanitized process they are absent and nothing is called.
enum SanitizerSupport {
    typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    static let acquire: Annotation? = lookup("__tsan_acquire")
    static let release: Annotation? = lookup("__tsan_release")

    private static func lookup(_ name: String) -> Annotation? {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
        #else
        return nil  // Darwin's Mutex uses os_unfair_lock, which ThreadSanitizer understands.
        #endif
    }

    /// Runs `body` on the mutex's value with the lock held, annotated for ThreadSanitizer.
    static func withLock<Value, Result: Sendable>(
        _ mutex: borrowing Mutex<Value>, token: AnyObject, _ body: (inout Value) -> Result
    ) -> Result {
        let address = UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque())
        return mutex.withLock { value in
            acquire?(address)
            defer { release?(address) }
            return body(&value)
        }
    }
}
