import SeamsMacros

/// A saved place as the app's storage hands it out: standard parents, and `Identifiable` with a
/// fixed `ID`.
@Mockable
public protocol SavedPlace: Sendable, Hashable, CustomStringConvertible, Identifiable where ID == String {
    /// Latitude and longitude, in degrees.
    var coordinates: [Double] { get }
}
