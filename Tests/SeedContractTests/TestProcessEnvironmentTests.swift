import Foundation
import TestProcessEnvironment
import Testing

/// What `Tests/TestProcessEnvironment` sets when the test binary loads.
@Suite struct TestProcessEnvironmentTests {
    @Test("a process the tests start inherits SWIFT_BACKTRACE=enable=no")
    func childrenHaveNoBacktracer() throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        let output = FileManager.default.temporaryDirectory.appending(path: "seams-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("SWIFT_BACKTRACE=") } == ["SWIFT_BACKTRACE=enable=no"])
    }

    @Test("the seed's XDG folders were set before the first test, in one fresh temporary folder")
    func seedFolders() throws {
        let container = try #require(seams_seed_container().map { String(cString: $0) })
        #expect(seams_seed_environment_failure() == nil)
        let root = URL(filePath: container).deletingLastPathComponent().deletingLastPathComponent().path
        let environment = ProcessInfo.processInfo.environment
        #expect(environment["XDG_DATA_HOME"] == root)
        #expect(environment["XDG_CONFIG_HOME"] == root + "/config")
        #expect(environment["XDG_STATE_HOME"] == root + "/state")
        #expect(URL(filePath: root).lastPathComponent.hasPrefix("seams-seed-"))
    }
}
