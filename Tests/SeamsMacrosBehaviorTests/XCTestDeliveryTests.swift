import Seams
import SeamsMacros
import XCTest

/// A strict mock's issue reaches XCTest when an XCTest test makes the call: `MockIssue` finds the
/// running framework at run time, and the issue arrives as exactly one failure, at the line that
/// made the mock. While a test makes its mock calls, the failures that arrive are kept here instead
/// of failing the test; outside those calls (the assertions) every failure fails the test, so a
/// missing, doubled or wrong one fails it.
final class XCTestDeliveryTests: XCTestCase {
    /// One failure as XCTest received it.
    struct Failure: Equatable {
        var description: String
        var file: String
        var line: Int
    }

    /// The failures received while ``collecting(_:)`` ran.
    private let received = LockedValue<[Failure]>([])
    private let isCollecting = LockedValue(false)

    /// Runs `body`, keeping the failures that arrive meanwhile, and returns them.
    private func collecting(_ body: () -> Void) -> [Failure] {
        isCollecting.withLock { $0 = true }
        body()
        isCollecting.withLock { $0 = false }
        return received.withLock { failures in
            defer { failures = [] }
            return failures
        }
    }

    private func keep(_ description: String, file: String, line: Int) -> Bool {
        isCollecting.withLock { collecting in
            guard collecting else { return false }
            received.withLock { $0.append(Failure(description: description, file: file, line: line)) }
            return true
        }
    }

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            let location = issue.sourceCodeContext.location
            if keep(issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0) {
                return
            }
            super.record(issue)
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            if keep(description, file: filePath, line: lineNumber) { return }
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    #endif

    func testAnUnconfiguredCallOnAStrictMockIsOneFailureAtTheLineThatMadeTheMock() {
        let line = #line + 1
        let mock = MockWeatherService(strict: true)
        let failures = collecting { mock.ping() }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertEqual(failures.first.map { URL(filePath: $0.file).lastPathComponent }, "XCTestDeliveryTests.swift")
        XCTAssertTrue(failures.first?.description.contains("ping() on MockWeatherService") == true, "\(failures)")
        XCTAssertEqual(mock.stubs.ping.callCount, 1)
    }

    func testAnUnconfiguredCallOnAnotherThreadStillReachesTheTest() {
        let mock = MockWeatherService(strict: true)
        let failures = collecting {
            let done = LockedValue(false)
            // XCTest's failures go to the test that is running, whichever thread records them.
            Thread {
                _ = mock.forecast(days: 3)
                done.withLock { $0 = true }
            }.start()
            while !done.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(
            failures.first?.description.contains("forecast(days:) on MockWeatherService") == true, "\(failures)")
    }

    func testAConfiguredStrictMockFailsNothing() {
        let mock = MockWeatherService(strict: true)
        mock.stubs.ping.returns(())
        XCTAssertEqual(collecting { mock.ping() }, [])
    }
}
