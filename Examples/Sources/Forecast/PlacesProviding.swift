import SeamsMacros

/// Reads the user's saved places.
@Mockable
public protocol PlacesReading: Sendable {
    /// The saved cities, in the user's order.
    func savedCities() throws -> [String]
}

/// Reads and changes the user's saved places: inherits `PlacesReading`, and its mock answers
/// both protocols' requirements.
@Mockable
public protocol PlacesProviding: PlacesReading {
    /// Adds `city` to the saved places.
    func save(_ city: String) throws
}
