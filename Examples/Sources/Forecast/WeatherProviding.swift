import SeamsMacros

/// Reads current temperatures; the live implementation would call a weather service.
@Mockable
public protocol WeatherProviding: Sendable {
    /// The temperature in `city`, in degrees Celsius.
    func temperature(in city: String) async throws -> Double

    /// The service's answer at `path`, decoded: the usual shape of an API client, whose generic
    /// parameter is `Decodable` but not `Sendable`.
    func fetch<T: Decodable>(_ path: String) async throws -> T
}
