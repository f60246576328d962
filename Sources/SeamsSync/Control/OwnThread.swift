import Foundation

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
