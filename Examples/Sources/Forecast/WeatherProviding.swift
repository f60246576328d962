import SeamsMacros

/// Reads current temperatures; the live implementation would call a weather service.
@Mockable
public protocol WeatherProviding: Sendable {
    /// The temperature in `city`, in degrees Celsius.
    func temperature(in city: String) async throws -> Double
}
