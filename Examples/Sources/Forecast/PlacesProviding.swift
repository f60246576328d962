import SeamsMacros

/// Reads the user's saved places.
@Mockable
public protocol PlacesReading: Sendable {
    /// The saved cities, in the user's order.
    func savedCities() throws -> [String]

    /// The saved city at `position`, if there is one.
    subscript(position: Int) -> String? { get }

    /// Calls `body` with each saved city, in order; throws only what `body` throws.
    func forEachSaved(_ body: (String) throws -> Void) rethrows

    /// Whether every one of `cities` is saved.
    func areSaved(_ cities: String...) throws -> Bool

    /// The stored detail of `city` decoded as `T`.
    func detail<T: Decodable & Sendable>(_ type: T.Type, of city: String) throws -> T

    /// Writes `values`, any number of any `Sendable` types, to the log of `city`.
    func log<each Value: Sendable>(_ values: repeat each Value, about city: String)
}

/// Reads and changes the user's saved places: inherits `PlacesReading`, and its mock answers
/// both protocols' requirements.
@Mockable
public protocol PlacesProviding: PlacesReading {
    /// Adds `city` to the saved places.
    func save(_ city: String) throws

    /// Attaches a note, any text-like value, to the saved `city`.
    func attach(_ note: some CustomStringConvertible & Sendable, to city: String) throws
}
