import Foundation
import Dispatch
import SeamsCore

/// Runs `work` on a thread of its own and waits for it without holding a thread of Swift's
/// cooperative pool.
///
/// The engine's calls are synchronous; over WebDAV each one waits for an exchange that runs as a
/// task on that pool. Called from async code (``SyncManager``, the `seams-sync` commands), the
/// engine would hold one of the pool's few threads (one per core) for the whole run while its own
/// requests need another.
///
/// - Parameter work: What to run; it may block.
/// - Returns: What `work` returned.
/// - Throws: What `work` threw.
package func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.name = "seams-sync engine"
        thread.start()
    }
}

/// Calls `transform` for each index of `0..<count` on at most `width` threads (the calling thread
/// and up to `width - 1` of their own) and returns the results in index order, once every call
/// has returned.
///
/// For blocking work that mostly waits (requests to a server, file copies): the threads are not
/// the cooperative pool's, nor Dispatch's, which may be slow to lend one when busy, but
/// ``WorkerThreads``', which are kept a while between calls (a sync calls this once per few
/// files, and starting a thread took about half a millisecond here). With a `width` of 1 or a
/// single index, every call runs on the calling thread, in order.
///
/// - Parameters:
///   - count: How many calls.
///   - width: At most this many calls at once.
///   - threads: Where the calls beyond the calling thread's run.
///   - transform: One call; it may block.
/// - Returns: What each call returned, by index.
package func mapOnThreads<T: Sendable>(
    _ count: Int, width: Int, threads workers: WorkerThreads = .shared, _ transform: @escaping @Sendable (Int) -> T
) -> [T] {
    let threads = min(width, count)
    guard threads > 1 else { return (0..<count).map(transform) }
    let next = LockedValue(0)
    let results = LockedValue<[T?]>(Array(repeating: nil, count: count))
    let work = { @Sendable in
        while true {
            let index = next.withLock { next in
                defer { next += 1 }
                return next
            }
            guard index < count else { return }
            let result = transform(index)
            results.withLock { $0[index] = result }
        }
    }
    let done = DispatchSemaphore(value: 0)
    for _ in 1..<threads {
        workers.run {
            work()
            done.signal()
        }
    }
    work()
    for _ in 1..<threads { done.wait() }
    return results.withLock { $0.map { $0! } }
}
