import Dispatch
import Foundation
import SeamsCore

/// A flush running on a thread of ``WorkerThreads``, waited for once.
final class BackgroundFlush: PendingWork {
    private let outcome = LockedValue<Result<Void, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `flush` on another thread.
    init(_ flush: @escaping @Sendable () throws -> Void) {
        WorkerThreads.shared.run { [self] in
            let result = Result { try flush() }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    /// Waits for the flush and returns how it ended.
    func wait() -> Result<Void, any Error> {
        done.wait()
        return outcome.withLock { $0! }
    }
}
