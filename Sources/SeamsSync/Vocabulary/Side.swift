/// One of the two replicas a sync keeps in step.
public enum Side: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The folder the user chose.
    case local
    /// The sync container.
    case container

    /// The other replica.
    public var other: Side { self == .local ? .container : .local }

    /// `local` or `container`.
    public var description: String { rawValue }
}
