import Foundation
import SeamsMacros
import Testing

/// Generated mocks used from many threads at once; run under `--sanitize=thread`.
@Suite struct ConcurrencyTests {
    @Test("calls and configuration from many threads at once: every call is recorded")
    func manyThreads() {
        let mock = MockFileAccessor()
        mock.stubs.fileExistsAt.returns(true)
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            _ = mock.fileExists(at: URL(fileURLWithPath: "/tmp/\(index)"))
            if index.isMultiple(of: 10) { mock.stubs.fileExistsAt.returns(index.isMultiple(of: 20)) }
            _ = mock.stubs.fileExistsAt.callCount
        }
        let calls = mock.stubs.fileExistsAt.calls
        #expect(calls.count == 1_000)
        #expect(Set(calls.map(\.path)).count == 1_000)
    }

    @Test("tasks in parallel on async, generic, property and sequence stubs of one mock")
    func manyTasks() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.handle { city in Double(city.count) }
        mock.stubs.decodeFrom(Int.self).returns(1)
        mock.stubs.forecastDays.returnsInOrder(Array(repeating: [1], count: 400))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<400 {
                group.addTask {
                    _ = try await mock.temperature(in: "city\(index)")
                    _ = try mock.decode(Int.self, from: Data())
                    _ = mock.forecast(days: index)
                    mock.unit = "u\(index)"
                    _ = mock.unit
                }
            }
            try await group.waitForAll()
        }
        #expect(mock.stubs.temperatureIn.callCount == 400)
        #expect(mock.stubs.decodeFrom(Int.self).callCount == 400)
        #expect(Set(mock.stubs.forecastDays.calls) == Set(0..<400))
        #expect(mock.stubs.setUnit.callCount == 400)
        #expect(mock.forecast(days: 0) == nil)
    }

    @Test("an actor mock called from many tasks records every call")
    func actorMock() async {
        let mock = MockCounter()
        mock.stubs.incrementBy.handle { $0 }
        await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 { group.addTask { await mock.increment(by: index) } }
            for await _ in group {}
        }
        #expect(mock.stubs.incrementBy.calls.sorted() == Array(0..<200))
    }
}
