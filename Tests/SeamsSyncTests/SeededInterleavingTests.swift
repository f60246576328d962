import Foundation
import SeamsCore
import Testing

@testable import SeamsSync

/// The crash suite's interleavings of the engine's concurrent work.
@Suite struct SeededInterleavingTests {
    /// The order one map of `count` calls runs its calls in, under `seed`.
    func order(seed: UInt64, count: Int = 8) -> [Int] {
        let ran = LockedValue<[Int]>([])
        let results = SeededInterleaving(seed: seed).map(count, width: 2) { index in
            ran.withLock { $0.append(index) }
            return index * 10
        }
        #expect(results == (0..<count).map { $0 * 10 }, "results by index, whatever the order")
        return ran.withLock { $0 }
    }

    @Test("a seed runs the calls one at a time in the same order every time; seeds differ")
    func sameSeedSameOrder() {
        #expect(order(seed: 7) == order(seed: 7))
        let orders = Set((1...10).map { order(seed: $0) })
        #expect(orders.count > 5, "\(orders)")
        #expect(orders.allSatisfy { $0.sorted() == Array(0..<8) })
    }

    @Test("a width of one keeps plan order")
    func widthOne() {
        let ran = LockedValue<[Int]>([])
        _ = SeededInterleaving(seed: 3).map(5, width: 1) { index in ran.withLock { $0.append(index) } }
        #expect(ran.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test("work started beside the caller runs at once or when waited for, by seed, once, with its outcome")
    func startedWork() {
        var seen: Set<Bool> = []
        for seed in UInt64(1)...16 {
            let runs = LockedValue(0)
            let pending = SeededInterleaving(seed: seed).start {
                runs.withLock { $0 += 1 }
                throw CocoaError(.fileWriteUnknown)
            }
            seen.insert(runs.withLock { $0 } == 1)
            guard case .failure = pending.wait() else {
                Issue.record("the outcome was lost")
                continue
            }
            _ = pending.wait()
            #expect(runs.withLock { $0 } == 1)
        }
        #expect(seen == [true, false], "both orders occur")
    }
}
