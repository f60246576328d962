import Foundation
package import SeamsCore

/// Where the engine runs the work it does several at a time: plain file copies to their temp
/// names, a flushed batch's new files moved onto their free names, and a full batch's flush beside
/// the next batch's copies.
///
/// Live, each runs on the ``BlockingExecutor``'s threads. The crash suite runs the same code
/// paths with ``SeededInterleaving``: one call at a time, in an order a seed picks, so that a crash
/// or a power cut at the n-th call names the same call in every run of that seed.
package protocol ConcurrentWork: Sendable {
    /// Calls `transform` for each index of `0..<count`, at most `width` at once, and returns the
    /// results in index order once every call has returned.
    @available(*, noasync, message: "blocks its thread until every call returns")
    func map<T: Sendable>(_ count: Int, width: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T]

    /// Starts `work` beside the caller; the answer's ``PendingWork/wait()`` returns how it ended.
    func start(_ work: @escaping @Sendable () throws -> Void) -> any PendingWork
}

extension BlockingExecutor: ConcurrentWork {}

/// Work that ran on the caller's thread before it was handed on: waiting returns how it ended.
struct EndedWork: PendingWork {
    let result: Result<Void, any Error>

    init(_ result: Result<Void, any Error>) { self.result = result }

    func wait() -> Result<Void, any Error> { result }
}

/// One interleaving of the engine's concurrent work, chosen by a seed and the same in every run
/// of that seed: the calls of a ``map(_:width:_:)`` run one by one in a shuffled order, and work
/// started beside the caller runs either at once or only when waited for (after everything the
/// caller did meanwhile). Each is an order the live threads can take; the crash suite tries
/// several seeds.
package final class SeededInterleaving: ConcurrentWork {
    private let random: LockedValue<SeededGenerator>

    /// The interleaving of `seed`.
    package init(seed: UInt64) {
        random = LockedValue(SeededGenerator(seed: seed))
    }

    package func map<T: Sendable>(_ count: Int, width: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        var order = Array(0..<count)
        if width > 1 { random.withLock { order.shuffle(using: &$0) } }
        var results = [T?](repeating: nil, count: count)
        for index in order { results[index] = transform(index) }
        return results.map { $0! }
    }

    package func start(_ work: @escaping @Sendable () throws -> Void) -> any PendingWork {
        let now = random.withLock { $0.next() & 1 == 1 }
        return DeferredWork(now ? .ran(Result { try work() }) : .waiting(work))
    }

    /// Work that ran when started, or runs when waited for.
    private final class DeferredWork: PendingWork {
        enum Stage {
            case waiting(@Sendable () throws -> Void)
            case ran(Result<Void, any Error>)
        }
        private let stage: LockedValue<Stage>

        init(_ stage: Stage) { self.stage = LockedValue(stage) }

        func wait() -> Result<Void, any Error> {
            let waiting: (@Sendable () throws -> Void)? = stage.withLock {
                if case .waiting(let work) = $0 { return work }
                return nil
            }
            if let waiting {
                let result = Result { try waiting() }
                stage.withLock { $0 = .ran(result) }
                return result
            }
            return stage.withLock {
                guard case .ran(let result) = $0 else { preconditionFailure("ran above") }
                return result
            }
        }
    }
}
