import Foundation

/// One behaviour of a conformance suite: a named check that an implementation acts as Linux and
/// Foundation do, with the same errors.
///
/// ```swift
/// @Test(arguments: DirectoryAccessorConformance.behaviours)
/// func conforms(_ behaviour: ConformanceBehaviour) throws {
///     try behaviour.run(on: .inMemory())
/// }
/// ```
public struct ConformanceBehaviour: Sendable, CustomStringConvertible {
    /// What an implementation must offer for the behaviour to apply.
    public enum Requirement: Hashable, Sendable {
        /// Permission bits are enforced (not so for root, which the live run is here).
        case permissionEnforcement
    }

    /// The suite's name, such as `DirectoryAccessor`.
    public let suite: String
    /// What the behaviour is, in words.
    public let name: String
    /// What it needs from the subject; see ``isApplicable(to:)``.
    public let requirements: Set<Requirement>
    /// Why live and fake may differ here, when the platform forces a difference.
    public let platformNote: String?
    let body: @Sendable (ConformanceSubject) throws -> Void

    /// Creates a behaviour.
    ///
    /// - Parameters:
    ///   - suite: The suite's name.
    ///   - name: What the behaviour is.
    ///   - requirements: What the subject must offer.
    ///   - platformNote: Any difference the platform forces.
    ///   - body: The check; it throws ``ConformanceFailure`` (or the implementation's error).
    public init(
        suite: String,
        _ name: String,
        requires requirements: Set<Requirement> = [],
        platformNote: String? = nil,
        _ body: @escaping @Sendable (ConformanceSubject) throws -> Void
    ) {
        self.suite = suite
        self.name = name
        self.requirements = requirements
        self.platformNote = platformNote
        self.body = body
    }

    /// Whether the subject offers what the behaviour needs.
    public func isApplicable(to subject: ConformanceSubject) -> Bool {
        !requirements.contains(.permissionEnforcement) || subject.enforcesPermissions
    }

    /// Runs the behaviour.
    ///
    /// - Parameter subject: The implementation, rooted at an empty folder.
    /// - Throws: ``ConformanceFailure`` when the implementation acts otherwise, or an error it
    ///   threw where none was expected.
    public func run(on subject: ConformanceSubject) throws {
        try body(subject)
    }

    /// `Suite: name`.
    public var description: String { "\(suite): \(name)" }
}

/// How an implementation failed a conformance behaviour.
public struct ConformanceFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was expected and what happened.
    public let message: String

    /// Creates a failure.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
