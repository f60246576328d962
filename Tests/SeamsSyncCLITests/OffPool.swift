import Foundation
import SeamsCore
import SeamsSync

/// Runs `body` on the engine's executor and waits for it without blocking: a test that runs the
/// binary waits for it for seconds (minutes under the thread sanitizer), and a test's task must
/// not hold one of the few threads of Swift's cooperative pool that long, or every other test's
/// timers and network exchanges stall behind it.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingExecutor.shared.run(body)
}
