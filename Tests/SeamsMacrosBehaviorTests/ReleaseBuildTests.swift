import Foundation
import Testing

/// A module that applies `@Mockable` to a public protocol (`Tests/ReleaseFixture`), compiled as a
/// release build compiles it (`-O`, no `DEBUG`) and as a debug build does (`-Onone -DDEBUG`),
/// against this build's `SeamsMacros` and macro plugin, then inspected with `nm` and `ldd`.
///
/// swiftc is called directly, with the flags that matter here, so the test needs seconds and
/// no release build of swift-syntax.
@Suite struct ReleaseBuildTests {
    static let fixture = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "ReleaseFixture/ClockProviding.swift")

    /// Compiles the fixture into a shared library (and its module) in `folder`.
    static func compile(release: Bool, in folder: URL) throws -> URL {
        let products = BuildProducts.folder
        let library = folder.appending(path: "libReleaseFixture.so")
        var arguments = [
            "-parse-as-library", "-swift-version", "6", "-module-name", "ReleaseFixture",
            "-emit-library", "-o", library.path,
            "-emit-module", "-emit-module-path", folder.appending(path: "ReleaseFixture.swiftmodule").path,
            "-I", products.appending(path: "Modules").path,
            "-load-plugin-executable", products.appending(path: "SeamsMacrosPlugin-tool").path + "#SeamsMacrosPlugin",
            fixture.path,
        ]
        arguments += release ? ["-O"] : ["-Onone", "-DDEBUG"]
        // The runtime it needs, linked in as SwiftPM links a static target: SeamsMacros and IssueReporting.
        for target in ["SeamsMacros", "IssueReporting"] {
            let objects = products.appending(path: "\(target).build")
            arguments += try FileManager.default.contentsOfDirectory(atPath: objects.path)
                .filter { $0.hasSuffix(".o") }.sorted().map { objects.appending(path: $0).path }
        }
        let outcome = try BuildProducts.run(
            try #require(BuildProducts.tool("swiftc")), arguments, environment: ProcessInfo.processInfo.environment)
        #expect(outcome.status == 0, "\(outcome.errors)")
        return library
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "seams-release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The fixture module's own symbols that belong to the mock types or to the forwarding
    /// extension (whose members are generic over `MockInheriting`); the linked-in runtime defines
    /// `MockInheriting` itself, which is left out.
    static func mockSymbols(_ library: URL) throws -> [String] {
        let outcome = try BuildProducts.run(BuildProducts.tool("nm") ?? "/usr/bin/nm", [library.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("ReleaseFixture"), "nm read no symbols of the module")
        return outcome.output.split(separator: "\n").map(String.init).filter {
            $0.contains("14ReleaseFixture")
                && ($0.contains("MockClockProviding") || $0.contains("MockTickProviding")
                    || $0.contains("MockInheriting"))
        }
    }

    @Test("a release build of a module that applies @Mockable has no mock type and links no test framework")
    func releaseHasNoMock() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try Self.compile(release: true, in: folder)
        #expect(try Self.mockSymbols(library) == [])
        let libraries = try BuildProducts.linkedLibraries(library)
        #expect(libraries.contains { $0.contains("libswiftCore") })
        #expect(BuildProducts.testFrameworks(in: libraries) == [])
    }

    @Test(
        "the same module built for debug has the public mock, links no test framework either, and another module uses the mock with a plain import"
    )
    func debugHasPublicMock() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try Self.compile(release: false, in: folder)
        let symbols = try Self.mockSymbols(library)
        #expect(symbols.filter { $0.contains("MockClockProviding") }.count > 10)
        #expect(symbols.filter { $0.contains("MockInheriting") }.count > 0)
        #expect(BuildProducts.testFrameworks(in: try BuildProducts.linkedLibraries(library)) == [])

        let client = folder.appending(path: "Client.swift")
        try """
        import ReleaseFixture
        import SeamsMacros

        func check() -> Double {
            let clock = MockClockProviding(strict: true)
            clock.stubs.now.returnsInOrder([1, 3.5])
            MockClockProviding.staticStubs.startedAt.returns(clock, when: 0)
            let started: MockClockProviding = MockClockProviding.started(at: 0)
            _ = started.stubs.now.calls
            return Stopwatch(clock: clock).measure {}
        }
        """.write(to: client, atomically: true, encoding: .utf8)
        let products = BuildProducts.folder
        let outcome = try BuildProducts.run(
            try #require(BuildProducts.tool("swiftc")),
            [
                "-typecheck", "-parse-as-library", "-swift-version", "6", "-I", folder.path,
                "-I", products.appending(path: "Modules").path, client.path,
            ], environment: ProcessInfo.processInfo.environment)
        #expect(outcome.status == 0, "\(outcome.errors)")
    }
}
