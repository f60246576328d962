// swift-tools-version: 6.2
// An app's core with its boundary protocols and @Mockable, and its tests in another module that
// use the generated mocks with a plain `import` (no @testable). Built and tested by `.ci/run`:
//   swift test --package-path Examples
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, whatever the clone is called.
let seams = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let mainActorByDefault: [SwiftSetting] = [
    .defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "ForecastExample",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    ],
    targets: [
        // The app's core: imports SeamsMacros for @Mockable, never Testing. SeamsMockNames adds
        // the seed's names of the mocks (`MockWeather` for `MockWeatherProviding`), public as
        // the protocols are, so the tests below can write either.
        .target(
            name: "Forecast", dependencies: [.product(name: "SeamsMacros", package: seams)],
            plugins: [.plugin(name: "SeamsMockNames", package: seams)]),
        .testTarget(
            name: "ForecastTests",
            dependencies: [
                "Forecast",
                .product(name: "SeamsMacros", package: seams),
                // Lets the mocks' issues reach Swift Testing or XCTest.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // A module built as Xcode 26 builds a new app target: the main actor is the default
        // isolation, and nonisolated async functions run on their caller's actor.
        .target(
            name: "ForecastScreens", dependencies: [.product(name: "SeamsMacros", package: seams)],
            swiftSettings: mainActorByDefault),
        .testTarget(
            name: "ForecastScreensTests",
            dependencies: [
                "ForecastScreens",
                .product(name: "SeamsMacros", package: seams),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: mainActorByDefault
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}
