/// Where a generated mock reports its issues: by default the line that created it.
///
/// A mock's initializer takes the four parts with `#fileID`, `#filePath`, `#line` and `#column`
/// as defaults, so a test helper that creates a mock passes its caller's location on:
///
/// ```swift
/// func makeWeather(fileID: StaticString = #fileID, filePath: StaticString = #filePath,
///                  line: UInt = #line, column: UInt = #column) -> MockWeatherService {
///     MockWeatherService(strict: true, fileID: fileID, filePath: filePath, line: line, column: column)
/// }
/// ```
///
/// Its parts are `StaticString`s, as the test frameworks' own issue functions take them, so that
/// neither the mock nor the file that creates it names a type of `Testing` or `XCTest`.
public struct MockSourceLocation: Sendable {
    /// The file's `#fileID`, e.g. `MyAppTests/WeatherTests.swift`.
    public let fileID: StaticString
    /// The file's full path.
    public let filePath: StaticString
    /// The line, counted from 1.
    public let line: UInt
    /// The column, counted from 1.
    public let column: UInt

    /// Creates a location; the defaults are the caller's.
    ///
    /// - Parameters:
    ///   - fileID: The file's `#fileID`.
    ///   - filePath: The file's full path.
    ///   - line: The line.
    ///   - column: The column.
    public init(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}
