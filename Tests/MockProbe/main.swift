// A program that creates and calls `@Mockable` mocks outside any test framework: the file imports
// SeamsMacros alone. `MockIssueTests` runs it and reads how it ends.
//
//   seams-mock-probe strict     an unconfigured call on a strict mock: stops, with a message
//   seams-mock-probe lenient    the same call on a lenient mock: answers nil, exits 0
//   seams-mock-probe answered   a configured call on a strict mock: exits 0
import SeamsMacros

/// A protocol with an optional result, so a lenient mock has a fallback answer.
@Mockable
protocol ForecastProviding: Sendable {
    func forecast(days: Int) -> [Double]?
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
switch mode {
case "strict":
    let mock = MockForecastProviding(strict: true)
    _ = mock.forecast(days: 3)
    print("strict: returned")
case "lenient":
    let mock = MockForecastProviding()
    print("lenient: \(String(describing: mock.forecast(days: 3)))")
case "answered":
    let mock = MockForecastProviding(strict: true)
    mock.stubs.forecastDays.returns([1.5], when: 3)
    print("answered: \(mock.forecast(days: 3) ?? [])")
default:
    print("usage: seams-mock-probe strict|lenient|answered")
}
