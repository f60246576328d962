import ForecastScreens
import SeamsMacros
import Testing

struct CacheDown: Error {}

/// Mocks of protocols declared in a module whose default isolation is the main actor.
@MainActor
@Suite struct ForecastPresenterTests {
    @Test func presentsThePickedCity() async throws {
        let screen = MockForecastScreen(strict: true)
        screen.stubs.pickCityFrom.returns("Oslo")
        screen.stubs.show.returns(())
        let cache = MockForecastCache(strict: true)
        cache.stubs.linesFor.returns(["Oslo: 21 °C", "Bergen: 12 °C"], when: 3)

        var presenter = ForecastPresenter(screen: screen, cache: cache)
        try await presenter.present(day: 3)

        #expect(screen.stubs.show.calls == [["Oslo: 21 °C"]])
        #expect(screen.isVisible)
        #expect(screen.stubs.setIsVisible.calls == [true])
        #expect(screen.stubs.pickCityFrom.calls == [["Oslo", "Bergen"]])
    }

    @Test func aCacheErrorReachesTheCaller() async {
        let cache = MockForecastCache()
        cache.stubs.linesFor.throwing(CacheDown())
        await #expect(throws: CacheDown.self) {
            var presenter = ForecastPresenter(screen: MockForecastScreen(), cache: cache)
            try await presenter.present(day: 1)
        }
    }
}

/// The nonisolated protocol's mock, used from a nonisolated test, off the main actor.
@Suite struct ForecastCacheTests {
    @Test nonisolated func storesFromAnyThread() async throws {
        let cache = MockForecastCache(strict: true)
        cache.stubs.storeFor.returns(())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for day in 0..<8 { group.addTask { try await cache.store(["day \(day)"], for: day) } }
            try await group.waitForAll()
        }
        #expect(cache.stubs.storeFor.callCount == 8)
        #expect(Set(cache.stubs.storeFor.calls.map(\.day)) == Set(0..<8))
    }

    @Test nonisolated func theMainActorScreenFromANonisolatedTest() async {
        let screen = await MockForecastScreen()
        await screen.stubs.show.returns(())
        await screen.show(["Oslo: 21 °C"])
        #expect(await screen.stubs.show.calls == [["Oslo: 21 °C"]])
    }
}
