// A single-module use of the macro: stubs, throws, typed throws and call records. (The README's
// own example is the two-module package in Examples/, which CI builds and tests.)
import Foundation
import SeamsMacros
import Testing

@Mockable
protocol WeatherFeed: Sendable {
    func temperature(in city: String) async throws -> Double
    func forecast(days: Int) throws(ForecastError) -> [Double]
}

struct ForecastError: Error, Equatable { var code: Int }

@Test func reportsTheTemperatureAndSurvivesOutages() async throws {
    let weather = MockWeatherFeed(strict: true)  // an unconfigured call fails this test here

    weather.stubs.temperatureIn.returns(21.5)  // stub
    #expect(try await weather.temperature(in: "Oslo") == 21.5)

    weather.stubs.temperatureIn.throwing(URLError(.notConnectedToInternet))  // throw
    await #expect(throws: URLError(.notConnectedToInternet)) {
        try await weather.temperature(in: "Oslo")
    }

    weather.stubs.forecastDays.throwing(ForecastError(code: 503))  // typed throws stay typed
    #expect(throws: ForecastError(code: 503)) { try weather.forecast(days: 3) }

    #expect(weather.stubs.temperatureIn.calls == ["Oslo", "Oslo"])  // verify, with real types
    #expect(weather.stubs.forecastDays.callCount == 1)
}
