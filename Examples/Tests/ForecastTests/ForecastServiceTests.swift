import Forecast
import SeamsMacros
import Testing

struct Offline: Error {}

@Suite struct ForecastServiceTests {
    @Test func summaryHasOneLinePerSavedCity() async throws {
        let weather = MockWeatherProviding(strict: true)
        weather.stubs.temperatureIn.returns(21.5, when: "Oslo")
        weather.stubs.temperatureIn.throwing(Offline(), when: "Tromsø")
        let places = MockPlacesProviding(strict: true)
        places.stubs.savedCities.returns(["Oslo", "Tromsø"])      // an inherited requirement

        let service = ForecastService(weather: weather, places: places)

        #expect(try await service.summary() == ["Oslo: 21.5 °C", "Tromsø: unavailable"])
        #expect(weather.stubs.temperatureIn.calls == ["Oslo", "Tromsø"])
    }

    @Test func addSavesOnlyNewCities() throws {
        let places = MockPlacesProviding(strict: true)
        places.stubs.savedCities.returns(["Oslo"])
        places.stubs.save.returns(())
        // The seed's spelling of the same mock (the SeamsMockNames plugin's public alias).
        let service = ForecastService(weather: MockWeather(), places: places)

        try service.add("Oslo")
        try service.add("Bergen")

        #expect(places.stubs.save.calls == ["Bergen"])
    }

    @Test func anUnconfiguredCallOnAStrictMockIsATestFailure() async throws {
        let weather = MockWeatherProviding(strict: true)
        let places = MockPlacesProviding()
        places.stubs.savedCities.returns(["Bergen"])
        let service = ForecastService(weather: weather, places: places)
        var lines: [String] = []
        await withKnownIssue {
            lines = (try? await service.summary()) ?? []
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("temperature(in:) on MockWeatherProviding") }
        }
        #expect(lines == ["Bergen: unavailable"])      // the lenient fallback still applies after the issue
    }

    @Test func variadicAndSomeParametersWorkThroughTheProtocol() throws {
        let mock = MockPlacesProviding(strict: true)
        mock.stubs.areSaved.handle { cities in !cities.contains("Nowhere") }      // an array of the arguments
        mock.stubs.attachTo(String.self).returns(())                              // `some P`: stubbed per type
        mock.stubs.attachTo(Int.self).throwing(Offline())
        let places: any PlacesProviding = mock

        #expect(try places.areSaved("Oslo", "Bergen"))
        #expect(try !places.areSaved("Oslo", "Nowhere"))
        #expect(try places.areSaved())
        try places.attach("rainy", to: "Bergen")
        #expect(throws: Offline.self) { try places.attach(3, to: "Oslo") }

        #expect(mock.stubs.areSaved.calls == [["Oslo", "Bergen"], ["Oslo", "Nowhere"], []])
        #expect(mock.stubs.attachTo(String.self).calls.map(\.note) == ["rainy"])
        #expect(mock.stubs.attachTo(Int.self).calls.map(\.city) == ["Oslo"])
        #expect(mock.stubs.attachTo(Double.self).callCount == 0)

        mock.stubs.subscriptPosition.handle { $0 == 0 ? "Oslo" : nil }           // a subscript, by parameter name
        #expect(places[0] == "Oslo")
        #expect(places[1] == nil)
        #expect(mock.stubs.subscriptPosition.calls == [0, 1])

        mock.stubs.forEachSaved.handle { body in try ["Oslo", "Bergen"].forEach(body) }   // rethrows
        var seen: [String] = []
        places.forEachSaved { seen.append($0) }                                      // no `try` needed
        #expect(seen == ["Oslo", "Bergen"])
        #expect(throws: Offline.self) { try places.forEachSaved { _ in throw Offline() } }
    }

    @Test func packsAndAnInheritedGenericWorkThroughTheProtocol() throws {
        let mock = MockPlacesProviding(strict: true)
        mock.stubs.logAbout.returns(())                                            // a pack: an array to the test
        let reading = mock.stubs.inherited(MockPlacesReading.self)                 // a parent's generic handle
        reading.detailOf(Int.self).returns(7, when: "Oslo")
        let places: any PlacesProviding = mock

        places.log("rain", 12, 0.5, about: "Oslo")
        places.log(about: "Bergen")
        #expect(try places.detail(Int.self, of: "Oslo") == 7)

        let logged = mock.stubs.logAbout.calls
        #expect(logged.map(\.city) == ["Oslo", "Bergen"])
        #expect(logged.map(\.values.count) == [3, 0])
        #expect(logged[0].values[1] as? Int == 12)
        #expect(reading.detailOf(Int.self).calls == ["Oslo"])
    }

    @Test func aDecodableGenericIsConfiguredPerType() async throws {
        struct Alerts: Decodable, Equatable, Sendable { var count: Int }
        let mock = MockWeatherProviding(strict: true)
        mock.stubs.fetch(Alerts.self).returns(Alerts(count: 2))
        let weather: any WeatherProviding = mock

        let alerts: Alerts = try await weather.fetch("/alerts")

        #expect(alerts == Alerts(count: 2))
        #expect(mock.stubs.fetch(Alerts.self).calls == ["/alerts"])
    }

    @Test func standardParentsAreStubbedOrByIdentity() {
        let oslo = MockSavedPlace(strict: true)
        oslo.stubs.id.returns("oslo")
        oslo.stubs.description.returns("Oslo")
        let other = MockSavedPlace()

        #expect(oslo.id == "oslo")
        #expect("\(oslo)" == "Oslo")
        #expect(oslo != other)                                   // Equatable and Hashable by identity
        #expect(Set([oslo, other, oslo]).count == 2)
    }

    @Test func operatorsWhereClausesAndGenericStatics() {
        let cold = MockReading()
        let warm = MockReading()
        cold.stubs.celsius.returns(-3)
        warm.stubs.celsius.returns(21)
        MockReading.staticStubs.operatorLess.handle { $0.celsius < $1.celsius }    // Comparable's `<`
        MockReading.staticStubs.operatorPlus.handle { _, rhs in rhs }
        #expect([warm, cold].sorted() == [cold, warm])                           // `==` by identity
        #expect(cold + warm === warm)

        let store = MockReadingStore<String, Double>()
        store.stubs.valueFor.returns(21, when: "Oslo")
        MockReadingStore<String, Double>.staticStubs.capacity.returns(8)
        #expect(store.value(for: "Oslo") == 21)
        #expect(store.value(for: "Bergen") == nil)
        #expect(MockReadingStore<String, Double>.capacity == 8)
        #expect(MockReadingStore<Int, Double>.staticStubs.capacity.callCount == 0)   // per specialization
    }
}
