/// What every call throws once a simulated crash or power cut has happened, until the test
/// restarts the file system: the process is "dead", so nothing it tries reaches the disk.
///
/// ```swift
/// fileSystem.schedulePowerCut(atCall: 7)
/// await #expect(throws: SimulatedCrash.self) { try await engine.sync() }
/// fileSystem.restart()
/// try await SyncEngine(fileSystem).sync()   // recovers
/// ```
public struct SimulatedCrash: Error, Hashable, Sendable, CustomStringConvertible {
    /// What stopped the process.
    public enum Cause: String, Hashable, Sendable {
        /// A ``FaultInjectingFileSystem`` crash: nothing is lost beyond the calls not made.
        case crash
        /// An ``InMemoryFileSystem`` power cut: unflushed changes were lost too.
        case powerCut
    }

    /// What stopped the process.
    public let cause: Cause
    /// The number of the call at which it happened, counted from 1 like `callCount` (since the
    /// file system was made or its calls were reset); that call was not made.
    public let callNumber: Int

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - cause: A crash or a power cut.
    ///   - callNumber: The call at which it happened.
    public init(cause: Cause, callNumber: Int) {
        self.cause = cause
        self.callNumber = callNumber
    }

    /// "Simulated crash at call N".
    public var description: String {
        "Simulated \(cause == .crash ? "crash" : "power cut") at call \(callNumber)"
    }
}
