/// What an unimplemented double throws after it recorded its issue, so the code under test
/// stops instead of going on with made-up data.
public struct UnimplementedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The requirement that was called, such as `FileAccessorProviding.read(from:)`.
    public let requirement: String

    /// Creates the error for `requirement`.
    public init(requirement: String) {
        self.requirement = requirement
    }

    /// "Unimplemented: …".
    public var description: String { "Unimplemented: \(requirement)" }
}
