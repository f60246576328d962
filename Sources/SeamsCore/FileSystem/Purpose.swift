/// What a container is used for, passed to ``FileSystemProviding/containerURL(for:)``.
///
/// `Purpose` is an open set: the package names ``sync``; an app adds its own.
///
/// ```swift
/// extension Purpose {
///     static let exports = Purpose(rawValue: "exports")
/// }
/// ```
public struct Purpose: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The purpose's name.
    public let rawValue: String

    /// Creates a purpose with the given name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The container that two-way sync keeps in step with a local folder.
    public static let sync = Purpose(rawValue: "sync")

    /// The purpose's name.
    public var description: String { rawValue }
}
