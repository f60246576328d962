/// The error a generated mock throws from an untyped-throwing requirement that a test did not
/// configure.
///
/// ```swift
/// let mock = MockFileAccessor()
/// #expect(throws: UnconfiguredMockCall(requirement: "read(from:)")) { try mock.read(from: url) }
/// ```
public struct UnconfiguredMockCall: Error, Hashable, CustomStringConvertible {
    /// The requirement that was called, e.g. `read(from:)`.
    public let requirement: String

    /// Creates the error for `requirement`.
    ///
    /// - Parameter requirement: The requirement's name with its argument labels.
    public init(requirement: String) {
        self.requirement = requirement
    }

    /// A sentence that says what to configure.
    public var description: String {
        "Unconfigured mock call: \(requirement) has no return value, sequence, handler or error."
    }
}
