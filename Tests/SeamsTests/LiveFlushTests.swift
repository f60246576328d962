import Foundation
import Testing

/// The live flushes reach the kernel: `seams-live-probe flush …` runs under
/// `strace -f -y -e trace=fsync,fdatasync,syncfs`, and the calls it shows are counted, with the
/// path of each descriptor (`-y`). The conformance suite can only see that a flush throws no
/// error; here a flush that does nothing, or flushes the wrong item, or costs one call per file
/// where one per file system suffices, fails.
@Suite struct LiveFlushTests {
    static let straceURL = URL(filePath: "/usr/bin/strace")

    /// Whether `strace` is installed and may trace a child here (ptrace can be refused in containers).
    static let canTrace: Bool = {
        guard FileManager.default.isExecutableFile(atPath: straceURL.path) else { return false }
        let process = Process()
        process.executableURL = straceURL
        process.arguments = ["-qq", "-e", "trace=none", "/bin/true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// One traced call: its name and the path of the descriptor it was given.
    struct Call: Equatable, CustomStringConvertible {
        var name: String
        var path: String
        var description: String { "\(name)(\(path))" }
    }

    /// Runs the probe's `flush` under strace and returns the flush calls it made.
    static func traced(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Call] {
        let log = FileManager.default.temporaryDirectory.appending(path: "seams-strace-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = straceURL
        process.arguments =
            [
                "-f", "-qq", "-y", "-e", "trace=fsync,fdatasync,syncfs", "-o", log.path,
                UnprivilegedProbe.probeURL.path, "flush",
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"  // see BuildProducts.run
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, sourceLocation: sourceLocation)
        #expect(output.hasPrefix("ok"), "probe: \(output)", sourceLocation: sourceLocation)
        // Lines such as `1234  fsync(3</tmp/x/f>) = 0`.
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let open = line.firstIndex(of: "("), let start = line.firstIndex(of: "<"),
                let end = line.lastIndex(of: ">"),
                start < end, line.hasSuffix("= 0")
            else { return nil }
            let name = line[..<open].split(separator: " ").last.map(String.init) ?? ""
            return Call(name: name, path: String(line[line.index(after: start)..<end]))
        }
    }

    static func folder(_ label: String, in parent: URL = FileManager.default.temporaryDirectory) throws -> URL {
        let url = parent.appending(path: "seams-flush-\(label)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    static func makeFiles(_ count: Int, in folder: URL) throws {
        for index in 0..<count { try Data("\(index)".utf8).write(to: folder.appending(path: "f\(index)")) }
    }

    @Test(
        "synchronizeFile is one fsync of that file", .enabled(if: canTrace, "strace is missing or may not trace here"))
    func file() throws {
        let root = try Self.folder("file")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appending(path: "f")
        try Data("x".utf8).write(to: file)
        #expect(try Self.traced(["file", file.path]) == [Call(name: "fsync", path: file.path)])
    }

    @Test(
        "synchronizeDirectory is one fsync of that folder",
        .enabled(if: canTrace, "strace is missing or may not trace here"))
    func folder() throws {
        let root = try Self.folder("folder")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.traced(["folder", root.path]) == [Call(name: "fsync", path: root.path)])
    }

    @Test(
        "a batch of 200 files and their folder is one syncfs",
        .enabled(if: canTrace, "strace is missing or may not trace here"))
    func batchOnOneFileSystem() throws {
        let root = try Self.folder("batch")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.makeFiles(200, in: root)
        let calls = try Self.traced(["batch", root.path])
        #expect(calls.map(\.name) == ["syncfs"], "\(calls)")
        #expect(calls.allSatisfy { $0.path.hasPrefix(root.path) }, "\(calls)")
    }

    @Test(
        "a batch on two file systems is one syncfs on each",
        .enabled(if: canTrace, "strace is missing or may not trace here"),
        .enabled(
            if: LiveFlushTests.onTwoFileSystems, "/dev/shm is not a file system of its own beside the temporary folder")
    )
    func batchOnTwoFileSystems() throws {
        let first = try Self.folder("first")
        let second = try Self.folder("second", in: URL(filePath: "/dev/shm"))
        defer { for url in [first, second] { try? FileManager.default.removeItem(at: url) } }
        try Self.makeFiles(20, in: first)
        try Self.makeFiles(20, in: second)
        let calls = try Self.traced(["batch", first.path, second.path])
        #expect(calls.map(\.name) == ["syncfs", "syncfs"], "\(calls)")
        #expect(
            calls.contains { $0.path.hasPrefix(first.path) } && calls.contains { $0.path.hasPrefix(second.path) },
            "\(calls)")
    }

    static var onTwoFileSystems: Bool {
        let temporary = try? FileManager.default.attributesOfItem(atPath: FileManager.default.temporaryDirectory.path)
        let shm = try? FileManager.default.attributesOfItem(atPath: "/dev/shm")
        guard let temporary, let shm, let a = temporary[.systemNumber] as? Int, let b = shm[.systemNumber] as? Int
        else { return false }
        return a != b
    }
}
