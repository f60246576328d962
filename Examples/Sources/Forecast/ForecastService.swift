/// One line per saved city: the app's logic, written against its boundary protocols.
public struct ForecastService: Sendable {
    private let weather: any WeatherProviding
    private let places: any PlacesProviding

    /// A service over `weather` and `places`.
    public init(weather: any WeatherProviding, places: any PlacesProviding) {
        self.weather = weather
        self.places = places
    }

    /// `"Oslo: 21.5 °C"` for every saved city; a city whose temperature cannot be read says so.
    public func summary() async throws -> [String] {
        var lines: [String] = []
        for city in try places.savedCities() {
            do {
                lines.append("\(city): \(try await weather.temperature(in: city)) °C")
            } catch {
                lines.append("\(city): unavailable")
            }
        }
        return lines
    }

    /// Saves `city` unless it is saved already.
    public func add(_ city: String) throws {
        guard try !places.savedCities().contains(city) else { return }
        try places.save(city)
    }
}
