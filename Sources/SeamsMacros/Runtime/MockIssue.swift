import IssueReporting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a generated mock reports a call that finds nothing configured, without naming a test
/// framework: the running one (Swift Testing or XCTest) is found at run time by IssueReporting's
/// lookup, so neither `SeamsMacros`, nor the file that applies `@Mockable`, nor the file that
/// creates a mock imports `Testing`.
///
/// - In a test process, the issue is recorded at the mock's ``MockSourceLocation``; the test
///   target must link IssueReporting's `IssueReportingTestSupport` product, which reaches the
///   frameworks (without it an issue would only be printed, and a strict mock would pass
///   silently, so the mock stops the process with a message that says what to add).
/// - With no test framework running, a strict mock stops the process with a message that names
///   the requirement and the mock; so does any mock whose requirement has no fallback answer.
///
/// Generated code calls it; tests never need to:
///
/// ```swift
/// MockIssue.unconfigured("read(from:)", on: MockFileAccessor.self, strict: true, always: false, at: location)
/// ```
public enum MockIssue {
    /// Reports an unconfigured call of `requirement` on a mock of type `mockType`.
    ///
    /// - Parameters:
    ///   - requirement: The requirement with its argument labels, e.g. `read(from:)`.
    ///   - mockType: The mock's type, named in the message.
    ///   - strict: Whether the mock was created strict.
    ///   - always: Whether the call has no fallback answer, so it is reported even when not strict.
    ///   - location: Where the issue is reported.
    public static func unconfigured(
        _ requirement: String, on mockType: Any.Type, strict: Bool, always: Bool, at location: MockSourceLocation
    ) {
        guard strict || always else { return }
        let message =
            "Unconfigured mock call: \(requirement) on \(mockType) has no return value, sequence, handler or error"
        guard isTesting else {
            fatalError("\(message). No test framework is running, so \(strict ? "a strict" : "this") mock stops here")
        }
        guard testSupportIsLinked else {
            fatalError(
                "\(message). The test target does not link IssueReportingTestSupport, so this issue cannot be recorded: add .product(name: \"IssueReportingTestSupport\", package: \"xctest-dynamic-overlay\") to its dependencies"
            )
        }
        reportIssue(
            message, fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
        )
        // IssueReporting sends an issue to XCTest whenever the calling task carries no Swift
        // Testing test: on another thread, or in an exit test's child process, a Swift Testing
        // run would never see it. Record it with Swift Testing too, as IssueReporting itself does
        // before Swift 6.3; with no Swift Testing run in progress nothing receives it.
        if case .swiftTesting = TestContext.current {
        } else {
            recordWithSwiftTesting(message, at: location)
        }
    }

    /// Reports a misuse of a mock's API (always, strict or not), as ``unconfigured(_:on:strict:always:at:)``
    /// reports: an issue in a test process, a stop with the message outside one.
    ///
    /// - Parameters:
    ///   - message: What is wrong and what to do instead.
    ///   - location: Where the issue is reported.
    public static func report(_ message: String, at location: MockSourceLocation) {
        guard isTesting else { fatalError(message) }
        guard testSupportIsLinked else {
            fatalError(
                "\(message). The test target does not link IssueReportingTestSupport, so this issue cannot be recorded")
        }
        reportIssue(
            message, fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
        )
        if case .swiftTesting = TestContext.current {
        } else {
            recordWithSwiftTesting(message, at: location)
        }
    }

    /// Records `message` through `IssueReportingTestSupport`'s Swift Testing bridge, looked up as
    /// IssueReporting looks it up.
    private static func recordWithSwiftTesting(_ message: String, at location: MockSourceLocation) {
        guard let lookUp = testSupportSymbol else { return }
        let function = unsafeBitCast(lookUp, to: (@convention(thin) () -> Any).self)()
        guard let record = function as? @Sendable (String?, Int, String, String, Int, Int) -> Void else { return }
        record(message, 1, "\(location.fileID)", "\(location.filePath)", Int(location.line), Int(location.column))
    }

    /// Whether IssueReporting's bridge to the test frameworks is loaded.
    static var testSupportIsLinked: Bool {
        #if os(Linux) || os(Android) || canImport(Darwin)
            testSupportSymbol != nil
        #else
            true
        #endif
    }

    /// The function IssueReporting looks up first to record an issue with Swift Testing (in
    /// `libIssueReportingTestSupport`, or anywhere in the process).
    private static var testSupportSymbol: UnsafeMutableRawPointer? {
        #if os(Linux) || os(Android) || canImport(Darwin)
            let symbol = "$s25IssueReportingTestSupport07_recordA0ypyF"
            #if os(Linux) || os(Android)
                if let library = dlopen("libIssueReportingTestSupport.so", RTLD_LAZY),
                    let pointer = dlsym(library, symbol)
                {
                    return pointer
                }
            #endif
            return dlsym(dlopen(nil, RTLD_LAZY), symbol)
        #else
            return nil
        #endif
    }
}
