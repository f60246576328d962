import Dispatch
import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// One sync of a manager at a time: the calls that come while one runs wait their turn, in
/// order; a waiting call whose task is cancelled ends at once and passes nothing by.
@Suite struct SyncTurnTests {
    let container = URL(filePath: "/container", directoryHint: .isDirectory)
    let local = URL(filePath: "/local", directoryHint: .isDirectory)

    /// A manager whose first file system call blocks until `gate` is signalled (`arrived` is set
    /// when it got there): the first sync holds the turn as long as the test wants.
    func blockedManager(gate: DispatchSemaphore, arrived: Flag) throws -> SyncManager {
        let fileSystem = InMemoryFileSystem(containerURL: container)
        for folder in [container, local] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        try fileSystem.write(Data("a".utf8), to: local.appending(path: "a.txt"))
        let boundary = FaultInjectingFileSystem(wrapping: fileSystem)
        boundary.beforeCall(1) {
            arrived.set()
            gate.wait()
        }
        return SyncManager(
            fileSystem: fileSystem, fileAccessor: boundary, directoryAccessor: boundary, bookmarkStorage: fileSystem,
            stateDirectory: URL(filePath: "/state"))
    }

    /// Polls `condition` every millisecond for up to forty minutes: a deadline, not a timing.
    /// Other suites' synchronous sweeps may hold every thread of the cooperative pool for as long
    /// as they run (on a slow machine here, past ten minutes: both tests below once waited 600 s
    /// for their first call to start), and the calls under test need one to start or to end; a
    /// condition that holds returns as soon as it is seen.
    func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(2400)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return await condition()
    }

    /// A flag set once, read from any thread.
    final class Flag: Sendable {
        private let value = LockedValue(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// A sync on its own task, and whether it has ended.
    struct Call: Sendable {
        let task: Task<SyncReport, any Error>
        let ended = Flag()

        init(_ manager: SyncManager, local: URL, container: URL) {
            let ended = self.ended
            task = Task {
                defer { ended.set() }
                return try await manager.sync(local: local, container: container)
            }
        }

        var hasEnded: Bool { ended.isSet }
    }

    @Test("A runs, B and C wait, B is cancelled: B ends at once, and C runs when A ends, with no other call")
    func cancelledWaiterPassesNothingBy() async throws {
        let gate = DispatchSemaphore(value: 0)
        let arrived = Flag()
        let manager = try blockedManager(gate: gate, arrived: arrived)
        let a = Call(manager, local: local, container: container)
        #expect(await eventually { arrived.isSet }, "A started its run")
        let b = Call(manager, local: local, container: container)
        #expect(await eventually { manager.turns.waitingCount == 1 }, "B waits")
        let c = Call(manager, local: local, container: container)
        #expect(await eventually { manager.turns.waitingCount == 2 }, "C waits behind B")

        b.task.cancel()
        let bEnded = await eventually { b.hasEnded }
        #expect(bEnded, "B ended while A still ran")
        #expect(!a.hasEnded && manager.turns.waitingCount == 1)
        gate.signal()
        _ = try await a.task.value

        let cRan = await eventually { c.hasEnded }
        #expect(cRan, "C had its turn when A ended")
        if !cRan || !bEnded {
            // Unstick what a lost wake-up left waiting, so the test ends.
            _ = try? await Call(manager, local: local, container: container).task.value
        }
        await #expect(throws: CancellationError.self) { try await b.task.value }
        let report = try await c.task.value
        #expect(report.failures.isEmpty)
    }

    @Test("a call cancelled before its turn never runs, and one given the turn after its cancellation ends it")
    func cancelledBeforeItsTurn() async throws {
        let gate = DispatchSemaphore(value: 0)
        let arrived = Flag()
        let manager = try blockedManager(gate: gate, arrived: arrived)
        let a = Call(manager, local: local, container: container)
        #expect(await eventually { arrived.isSet })
        let waiting = Call(manager, local: local, container: container)
        #expect(await eventually { manager.turns.waitingCount == 1 })
        waiting.task.cancel()
        let ended = await eventually { waiting.hasEnded }
        #expect(ended, "the cancelled call ended while the other still ran")
        gate.signal()
        _ = try await a.task.value
        await #expect(throws: CancellationError.self) { try await waiting.task.value }
        // The turn is free again: a new call runs at once, and one made on a cancelled task does not.
        #expect(manager.turns.waitingCount == 0)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manager.sync(local: local, container: container)
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        _ = try await manager.sync(local: local, container: container)
    }

    final class Order: Sendable {
        private let list = LockedValue<[Int]>([])
        func append(_ n: Int) { list.withLock { $0.append(n) } }
        var values: [Int] { list.withLock { $0 } }
    }

    @Test("the queue hands the turn on in the order the calls came")
    func inOrder() async throws {
        let turns = TurnQueue()
        try await turns.begin()
        let order = Order()
        var tasks: [Task<Void, any Error>] = []
        for n in 1...5 {
            tasks.append(
                Task {
                    try await turns.begin()
                    order.append(n)
                    turns.end()
                })
            #expect(await eventually { turns.waitingCount == n })
        }
        turns.end()
        for task in tasks { try await task.value }
        #expect(order.values == [1, 2, 3, 4, 5])
        #expect(turns.waitingCount == 0)
    }
}
