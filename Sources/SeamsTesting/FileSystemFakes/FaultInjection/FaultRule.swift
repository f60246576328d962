public import Foundation

/// Which calls a ``FaultInjectingFileSystem`` fails, and with what.
///
/// ```swift
/// fileSystem.addRule(.call(3, fails: .ioError))                        // the third call
/// fileSystem.addRule(.operation(.write, fails: .diskFull))             // every write
/// fileSystem.addRule(.operation(.moveItem, occurrence: 2, fails: .ioError))  // the second move
/// fileSystem.addRule(.calls(where: { _, url in url?.lastPathComponent == "data.json" },
///                           fail: .permissionDenied, times: 1))
/// ```
public struct FaultRule: Sendable {
    /// Whether a call is one this rule is about; a move, copy or link is tested with its source
    /// and with its destination.
    public let matches: @Sendable (FileSystemOperation, URL?) -> Bool
    /// When set, only the `occurrence`-th matching call fails (counted from 1).
    public let occurrence: Int?
    /// When set, the rule fails at most this many calls.
    public let times: Int?
    /// The failure.
    public let fault: InjectedFault

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - matches: Which calls the rule is about.
    ///   - occurrence: Only the n-th matching call fails; `nil` for every matching call.
    ///   - times: The most calls the rule fails; `nil` for no limit.
    ///   - fault: The failure.
    public init(
        matches: @escaping @Sendable (FileSystemOperation, URL?) -> Bool,
        occurrence: Int? = nil,
        times: Int? = nil,
        fault: InjectedFault
    ) {
        self.matches = matches
        self.occurrence = occurrence
        self.times = times
        self.fault = fault
    }

    /// Fails the `number`-th call of any kind (counted from 1 since creation or `resetCalls()`).
    ///
    /// - Parameters:
    ///   - number: The call's number.
    ///   - fault: The failure.
    /// - Returns: The rule.
    public static func call(_ number: Int, fails fault: InjectedFault) -> FaultRule {
        FaultRule(matches: { _, _ in true }, occurrence: number, fault: fault)
    }

    /// Fails calls of one operation, optionally only on one path or only the n-th of them.
    ///
    /// - Parameters:
    ///   - operation: The call to fail.
    ///   - url: Only calls about this path; `nil` for any path.
    ///   - occurrence: Only the n-th such call; `nil` for every one.
    ///   - fault: The failure.
    /// - Returns: The rule.
    public static func operation(
        _ operation: FileSystemOperation, at url: URL? = nil, occurrence: Int? = nil, fails fault: InjectedFault
    ) -> FaultRule {
        let path = url?.standardizedFileURL.path
        return FaultRule(
            matches: { candidate, candidateURL in
                candidate == operation && (path == nil || candidateURL?.standardizedFileURL.path == path)
            },
            occurrence: occurrence,
            fault: fault
        )
    }

    /// Fails the calls a predicate picks.
    ///
    /// - Parameters:
    ///   - predicate: Picks calls by operation and path.
    ///   - fault: The failure.
    ///   - times: The most calls to fail; `nil` for no limit.
    /// - Returns: The rule.
    public static func calls(
        where predicate: @escaping @Sendable (FileSystemOperation, URL?) -> Bool,
        fail fault: InjectedFault,
        times: Int? = nil
    ) -> FaultRule {
        FaultRule(matches: predicate, times: times, fault: fault)
    }
}
