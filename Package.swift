// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Seams",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Seams", targets: ["Seams"]),
        .library(name: "SeamsCore", targets: ["SeamsCore"]),
        .library(name: "SeamsTesting", targets: ["SeamsTesting"]),
        .library(name: "SeamsWebDAV", targets: ["SeamsWebDAV"]),
        .library(name: "SeamsS3", targets: ["SeamsS3"]),
        .library(name: "SeamsSync", targets: ["SeamsSync"]),
        .library(name: "SeamsMacros", targets: ["SeamsMacros"]),
        .plugin(name: "SeamsMockNames", targets: ["SeamsMockNames"]),
        .library(name: "SeamsAsyncHTTPClient", targets: ["SeamsAsyncHTTPClient"]),
        .library(name: "SeamsOpenAPI", targets: ["SeamsOpenAPI"]),
        .executable(name: "seams-sync", targets: ["seams-sync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        // `swift package generate-documentation` (CI builds every library module's DocC catalog).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Library
        // Every protocol and the live file system, folders and bookmarks: no FoundationNetworking.
        .target(
            name: "SeamsCore",
            dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        // SeamsCore re-exported, plus the live transport on URLSession (FoundationNetworking on Linux).
        .target(
            name: "Seams",
            dependencies: [
                "SeamsCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        // A folder on a WebDAV server behind the file system's boundaries, over any transport.
        .target(
            name: "SeamsWebDAV",
            dependencies: ["SeamsCore", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .target(
            name: "SeamsTesting",
            dependencies: [
                "Seams", "SeamsWebDAV", "SeamsS3", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // An S3 client: requests signed with AWS Signature Version 4 (SHA-256 and HMAC from swift-crypto).
        .target(
            name: "SeamsS3",
            dependencies: [
                "SeamsCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(name: "SeamsSync", dependencies: ["SeamsCore", "SeamsWebDAV", "SeamsS3"]),
        .target(
            name: "SeamsAsyncHTTPClient",
            dependencies: [
                "SeamsCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A swift-openapi-runtime ClientTransport over any HTTPTransportProviding: its own
        // product, so apps that don't use OpenAPI never build the runtime.
        .target(
            name: "SeamsOpenAPI",
            dependencies: [
                "Seams",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .macro(
            name: "SeamsMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // Issues of a mock reach whichever test framework is running through IssueReporting's
        // lookup at run time, so neither this module nor the file that applies @Mockable imports
        // Testing. A test target adds IssueReportingTestSupport, which links the frameworks.
        .target(
            name: "SeamsMacros",
            dependencies: [
                "SeamsMacrosPlugin",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ]
        ),
        // The seed's mock names (`MockFileAccessor` for `FileAccessorProviding`), which the macro
        // cannot declare at global scope: a build plugin writes them as typealiases.
        // No swift-syntax: the tool of a plugin the package applies is built before anything else.
        .executableTarget(name: "seams-mock-names"),
        .plugin(name: "SeamsMockNames", capability: .buildTool(), dependencies: ["seams-mock-names"]),

        // MARK: Command-line tool
        // glibc's malloc tuning (Swift's Glibc module has no <malloc.h>).
        .target(name: "CMallocTuning"),
        .executableTarget(
            name: "seams-sync",
            dependencies: [
                "CMallocTuning",
                "SeamsSync",
                "SeamsWebDAV",
                "SeamsS3",
                // AsyncHTTPClient, not URLSession: FoundationNetworking would load libcurl (and
                // its libraries) into every run, local ones included.
                "SeamsAsyncHTTPClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Benchmarks
        .executableTarget(
            name: "seams-fs-bench",
            dependencies: ["Seams", "SeamsTesting"],
            path: "Benchmarks/seams-fs-bench"
        ),
        .executableTarget(
            name: "seams-mock-bench",
            dependencies: ["SeamsMacros"],
            path: "Benchmarks/seams-mock-bench",
            swiftSettings: [.define("SEAMS_MOCKS")]
        ),

        // MARK: Tests
        .executableTarget(name: "seams-live-probe", dependencies: ["Seams", "SeamsTesting"], path: "Tests/LiveProbe"),
        // Mocks created and called with no test framework in the process (SeamsMacrosBehaviorTests).
        .executableTarget(name: "seams-mock-probe", dependencies: ["SeamsMacros"], path: "Tests/MockProbe"),
        .testTarget(name: "SeamsTests", dependencies: ["Seams", "SeamsTesting", "seams-live-probe"]),
        .testTarget(name: "SeamsTestingTests", dependencies: ["Seams", "SeamsTesting"]),
        .testTarget(name: "SeamsS3Tests", dependencies: ["SeamsS3", "Seams", "SeamsTesting", "SeamsSync"]),
        // The test process's environment, set when the binary loads (before any thread): the seed
        // fixture's XDG folders, and no runtime backtracer in the processes the tests start.
        .target(name: "TestProcessEnvironment", path: "Tests/TestProcessEnvironment"),
        .testTarget(name: "SeedContractTests", dependencies: ["Seams", "SeamsTesting", "SeamsSync", "TestProcessEnvironment"]),
        .testTarget(
            name: "SeamsSyncTests",
            dependencies: [
                "Seams", "SeamsTesting", "SeamsSync", "SeamsWebDAV", "CMallocTuning",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "SeamsNetworkTests",
            dependencies: [
                "Seams",
                "SeamsTesting",
                "SeamsAsyncHTTPClient",
                "SeamsOpenAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // The OpenAPI document the committed client in OpenAPI/Generated was generated from.
            exclude: ["OpenAPI/openapi.yaml", "OpenAPI/openapi-generator-config.yaml"],
            // HAR fixtures: read from the source tree (record modes write them there), and copied
            // into the test bundle, where `.httpReplay(_:bundle:)` finds them without the sources.
            resources: [.copy("HTTPReplay/HTTPFixtures")]
        ),
        .testTarget(
            name: "SeamsMacrosTests",
            dependencies: [
                "SeamsMacrosPlugin",
                "seams-mock-names",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "SeamsMacrosBehaviorTests",
            dependencies: [
                "SeamsMacros",
                "Seams",
                "seams-mock-probe",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            plugins: ["SeamsMockNames"]
        ),
        .testTarget(
            name: "SeamsSyncCLITests",
            dependencies: ["seams-sync", "Seams", "SeamsSync", "SeamsWebDAV", "SeamsS3", "SeamsTesting"]),
    ]
)

// Strict settings for every target of ours (swift-log, swift-clocks do the same).
for target in package.targets where target.type != .plugin {
    var settings: [SwiftSetting] = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.treatAllWarnings(as: .error))
    target.swiftSettings = settings
}
