import Foundation
import Testing

/// Mocks outside any test framework: `seams-mock-probe` applies `@Mockable` and creates mocks in
/// a file that imports SeamsMacros alone, and runs with no test framework in the process.
@Suite struct MockIssueTests {
    static var probe: String { BuildProducts.folder.appending(path: "seams-mock-probe").path }

    @Test("with no test framework running, an unconfigured call on a strict mock stops with a message that names it")
    func strictWithoutTestFramework() throws {
        let outcome = try BuildProducts.run(Self.probe, ["strict"])
        #expect(outcome.reason == .uncaughtSignal || outcome.status != 0)
        #expect(!outcome.output.contains("strict: returned"))
        #expect(
            outcome.errors.contains(
                "Unconfigured mock call: forecast(days:) on MockForecastProviding has no return value, sequence, handler or error. No test framework is running, so a strict mock stops here"
            ), "\(outcome.errors)")
    }

    @Test("with no test framework running, a lenient mock answers its fallback and a configured strict one answers")
    func lenientWithoutTestFramework() throws {
        let lenient = try BuildProducts.run(Self.probe, ["lenient"])
        #expect(lenient.reason == .exit && lenient.status == 0)
        #expect(lenient.output == "lenient: nil\n")
        let answered = try BuildProducts.run(Self.probe, ["answered"])
        #expect(answered.reason == .exit && answered.status == 0)
        #expect(answered.output == "answered: [1.5]\n")
    }

    @Test("a program that applies @Mockable and creates mocks links no test framework")
    func probeLinksNoTestFramework() throws {
        let libraries = try BuildProducts.linkedLibraries(URL(filePath: Self.probe))
        #expect(libraries.contains { $0.contains("libswiftCore") })
        #expect(BuildProducts.testFrameworks(in: libraries) == [])
    }

    @Test("the files that apply @Mockable in these tests import no test framework")
    func fixturesImportNoTestFramework() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent()
        let files = [
            folder.appending(path: "Fixtures"), folder.deletingLastPathComponent().appending(path: "MockProbe"),
        ]
        .flatMap { (try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)) ?? [] }
        .filter { $0.pathExtension == "swift" }
        #expect(files.count >= 5)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("@Mockable"), "\(file.lastPathComponent)")
            #expect(!text.contains("import Testing") && !text.contains("import XCTest"), "\(file.lastPathComponent)")
        }
    }
}
