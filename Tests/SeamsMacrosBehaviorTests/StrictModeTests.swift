import Foundation
import SeamsMacros
import Testing

@Suite struct StrictModeTests {
    @Test("in strict mode an unconfigured call records an issue at the line that made the mock")
    func strictReportsAtCreationLine() {
        let line = #line + 1
        let mock = MockWeatherService(strict: true)
        withKnownIssue {
            mock.ping()
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.contains("ping()") }
        }
        #expect(mock.stubs.ping.callCount == 1)
    }

    @Test("a strict mock reports at the source location its caller passes on")
    func strictReportsAtPassedLocation() {
        let mock = MockWeatherService(
            strict: true, fileID: "Seams/Helper.swift", filePath: "/Helper.swift", line: 7, column: 3)
        withKnownIssue {
            _ = mock.forecast(days: 1)
        } matching: { issue in
            issue.sourceLocation
                == SourceLocation(fileID: "Seams/Helper.swift", filePath: "/Helper.swift", line: 7, column: 3)
        }
    }

    @Test("a configured call on a strict mock records no issue")
    func strictConfiguredIsSilent() {
        let mock = MockWeatherService(strict: true)
        mock.stubs.ping.returns(())
        mock.ping()
        #expect(mock.stubs.ping.callCount == 1)
    }

    @Test("a lenient mock throws UnconfiguredMockCall from an untyped throwing requirement")
    func lenientThrows() async {
        let mock = MockWeatherService()
        await #expect(throws: UnconfiguredMockCall(requirement: "temperature(in:)")) {
            try await mock.temperature(in: "Oslo")
        }
    }

    @Test("an unconfigured call that cannot fall back stops the process after recording an issue")
    func unconfiguredWithoutFallbackStops() async {
        await withKnownIssue {
            await #expect(processExitsWith: .failure) {
                _ = MockWeatherService().load(id: "no answer")
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("load(id:)") }
        }
    }

    @Test("a strict mock called on a thread that carries no test context still records its issue")
    func strictOnAnotherThread() async {
        // In an exit test's child process, so that an issue recorded off the test's task is
        // forwarded to this test (and a lost one is seen as lost).
        await withKnownIssue {
            await #expect(processExitsWith: .success) {
                let mock = MockWeatherService(strict: true)
                let done = DispatchSemaphore(value: 0)
                Thread {
                    mock.ping()
                    done.signal()
                }.start()
                done.wait()
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ping()") }
        }
    }
}
