import SeamsCore

/// Turns taken one at a time, first come first served, by async callers.
///
/// The turn passes straight from the caller that ends it to the first one waiting, so no wake-up
/// can be lost between them; a waiting caller whose task is cancelled leaves the queue at once,
/// with `CancellationError`, and never holds a turn.
///
/// ```swift
/// try await turns.begin()
/// defer { turns.end() }
/// try Task.checkCancellation()   // a turn given to a cancelled task is still ended by the defer
/// ```
final class TurnQueue: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// Whether a caller holds the turn.
        var busy = false
        var waiting: [Waiter] = []
        var lastID = 0
        /// Callers cancelled before they joined the queue: they leave as soon as they try.
        var cancelledEarly: Set<Int> = []
    }

    private let state = LockedValue(State())

    /// How many callers wait for a turn.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits for the turn and takes it; the caller must call ``end()`` once it returns.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the turn comes (then the
    ///   caller holds no turn).
    func begin() async throws {
        try Task.checkCancellation()
        let id: Int? = state.withLock { state in
            guard state.busy else {
                state.busy = true
                return nil
            }
            state.lastID += 1
            return state.lastID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return true }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                    return state.waiting.remove(at: index)
                }
                state.cancelledEarly.insert(id)
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        // Given the turn: a cancellation that came after it needs no mark.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
    }

    /// Ends the caller's turn and gives it to the first caller waiting.
    func end() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume()
    }
}
