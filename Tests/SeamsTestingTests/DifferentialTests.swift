import Foundation
import Seams
import SeamsTesting
import Testing

/// Runs the same pseudo-random sequence of calls on the live file system and on
/// ``InMemoryFileSystem`` (acting as root, as the live run does here) and requires the same
/// outcome at every step: the same result, or the same error code and C error number.
@Suite struct DifferentialTests {
    /// SplitMix64, so every seed gives the same sequence everywhere.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let paths = ["a", "b", "A", "a/x", "a/y", "b/x", "a/x/deep", "c"]

    /// One step's observable result.
    static func step(
        _ random: inout Generator, files: any FileAccessorProviding, directories: any DirectoryAccessorProviding, root: URL
    ) -> String {
        func pick() -> URL { root.appending(path: paths.randomElement(using: &random)!) }
        let a = pick()
        let b = pick()
        let flag = Bool.random(using: &random)
        let name = { (url: URL) in String(url.path.dropFirst(root.path.count)) }
        let operation = Int.random(in: 0..<11, using: &random)
        let label = "op \(operation) \(name(a)) \(name(b)) \(flag)"
        do {
            switch operation {
            case 0: try files.write(Data(name(a).utf8), to: a); return "write \(name(a))"
            case 1: return "read \(name(a)) \(String(decoding: try files.read(from: a), as: UTF8.self))"
            case 2: return "exists \(name(a)) \(files.fileExists(at: a))"
            case 3:
                try directories.createDirectory(at: a, withIntermediateDirectories: flag)
                return "mkdir \(name(a)) \(flag)"
            case 4: try directories.removeItem(at: a, recursively: flag); return "remove \(name(a)) \(flag)"
            case 5:
                try directories.moveItem(at: a, to: b, replacingExisting: flag)
                return "move \(name(a)) \(name(b)) \(flag)"
            case 6: try directories.copyItem(at: a, to: b); return "copy \(name(a)) \(name(b))"
            case 7: try directories.linkItem(at: a, to: b); return "link \(name(a)) \(name(b))"
            case 8:
                let entries = try directories.contentsOfDirectory(at: a)
                return "list \(name(a)) " + entries.map { "\($0.name):\($0.metadata.kind):\($0.metadata.size)" }.joined(separator: ",")
            case 9:
                let info = try directories.metadata(at: a)
                return "stat \(name(a)) \(info.kind) \(info.size) \(info.linkCount) \(String(info.permissions, radix: 8))"
            default:
                try directories.setPermissions(flag ? 0o600 : 0o755, at: a)
                return "chmod \(name(a))"
            }
        } catch let error as CocoaError {
            return "\(label): error \(error.code.rawValue) \(error.posixCode.map { "\($0.rawValue)" } ?? "-")"
        } catch {
            return "\(label): other error \(error)"
        }
    }

    static func run(seed: UInt64, files: any FileAccessorProviding, directories: any DirectoryAccessorProviding, root: URL) -> [String] {
        var random = Generator(state: seed)
        return (0..<600).map { _ in step(&random, files: files, directories: directories, root: root) }
    }

    @Test("live and fake agree at every step", arguments: Array(UInt64(1)...16))
    func agree(seed: UInt64) throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "seams-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let live = Self.run(seed: seed, files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor(), root: root)

        let fake = InMemoryFileSystem(enforcesPermissions: false)
        let fakeRoot = URL(filePath: "/diff")
        try fake.createDirectory(at: fakeRoot, withIntermediateDirectories: false)
        let faked = Self.run(seed: seed, files: fake, directories: fake, root: fakeRoot)

        let firstDifference = zip(live, faked).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstDifference == nil, "step \(firstDifference?.offset ?? -1): live \(firstDifference?.element.0 ?? "") / fake \(firstDifference?.element.1 ?? "")")
        #expect(Set(live).count > 50)  // the sequence exercised many distinct outcomes
    }
}
