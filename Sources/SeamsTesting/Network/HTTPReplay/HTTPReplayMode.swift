public import Foundation

/// Whether a replay session may reach the network: never (the default, and what CI runs), for
/// requests the fixture lacks, or for every request.
///
/// A test's own mode wins; without one, `SEAMS_HTTP_REPLAY` decides; without that, ``replay``:
///
/// ```sh
/// swift test                                          # replay only: no request leaves the process
/// SEAMS_HTTP_REPLAY=record-missing swift test         # record what a fixture lacks
/// SEAMS_HTTP_REPLAY=rerecord swift test --filter NotesAPITests   # record those fixtures afresh
/// ```
public enum HTTPReplayMode: String, Hashable, Sendable, CaseIterable {
    /// Answer from the fixture only; a missing fixture or an unmatched request fails the test.
    case replay
    /// Answer from the fixture; send what it has no entry for to the live transport and add the
    /// exchange to the fixture (a missing fixture is recorded whole).
    case recordMissing = "record-missing"
    /// Send every request to the live transport and write the fixture afresh.
    case rerecord

    /// `SEAMS_HTTP_REPLAY`: the variable that chooses the mode of tests that do not choose one.
    public static let environmentVariable = "SEAMS_HTTP_REPLAY"

    /// The mode a session runs in: `explicit` when given, else what `environment` chooses.
    ///
    /// - Parameters:
    ///   - explicit: The test's own mode, or `nil`.
    ///   - environment: The variables; the process's unless given.
    /// - Returns: The mode.
    /// - Throws: ``HTTPReplayError/Kind/invalidMode`` when `explicit` is `nil` and the variable
    ///   names no mode.
    public static func resolved(
        _ explicit: HTTPReplayMode?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(HTTPReplayError) -> HTTPReplayMode {
        if let explicit { return explicit }
        return try fromEnvironment(environment)
    }

    /// The mode `environment` chooses: ``replay`` when ``environmentVariable`` is unset or empty.
    ///
    /// - Parameter environment: The variables; the process's unless given.
    /// - Returns: The mode.
    /// - Throws: ``HTTPReplayError/Kind/invalidMode`` for a value that names no mode.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(HTTPReplayError) -> HTTPReplayMode {
        guard let value = environment[environmentVariable], !value.isEmpty else { return .replay }
        guard let mode = HTTPReplayMode(rawValue: value.lowercased()) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPReplayError(.invalidMode, detail: "\(environmentVariable)=\(value); expected one of \(names)")
        }
        return mode
    }
}
