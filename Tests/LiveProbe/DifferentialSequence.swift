import Foundation
import Seams
import SeamsTesting

#if canImport(Glibc)
    import Glibc
#endif

/// The pseudo-random sequence of calls the differential tests run on the live file system and on
/// `InMemoryFileSystem`: each step prints its observable result, or the error's code and C error
/// number, so two runs can be compared line by line.
enum DifferentialSequence {
    static let paths = ["a", "b", "A", "a/x", "a/y", "b/x", "a/x/deep", "c"]
    static let steps = 600

    /// One step's observable result.
    static func step(
        _ random: inout SplitMix64, files: any FileAccessorProviding, directories: any DirectoryAccessorProviding,
        root: URL
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
            case 0:
                try files.write(Data(name(a).utf8), to: a)
                return "write \(name(a))"
            case 1: return "read \(name(a)) \(String(decoding: try files.read(from: a), as: UTF8.self))"
            case 2: return "exists \(name(a)) \(files.fileExists(at: a))"
            case 3:
                try directories.createDirectory(at: a, withIntermediateDirectories: flag)
                return "mkdir \(name(a)) \(flag)"
            case 4:
                try directories.removeItem(at: a, recursively: flag)
                return "remove \(name(a)) \(flag)"
            case 5:
                try directories.moveItem(at: a, to: b, replacingExisting: flag)
                return "move \(name(a)) \(name(b)) \(flag)"
            case 6:
                try directories.copyItem(at: a, to: b)
                return "copy \(name(a)) \(name(b))"
            case 7:
                try directories.linkItem(at: a, to: b)
                return "link \(name(a)) \(name(b))"
            case 8:
                let entries = try directories.contentsOfDirectory(at: a)
                return "list \(name(a)) "
                    + entries.map {
                        "\($0.name):\($0.metadata.kind):\($0.metadata.size):\(String($0.metadata.permissions, radix: 8))"
                    }
                    .joined(separator: ",")
            case 9:
                let info = try directories.metadata(at: a)
                return
                    "stat \(name(a)) \(info.kind) \(info.size) \(info.linkCount) \(String(info.permissions, radix: 8))"
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

    /// The outcomes of every step of `seed`, on the live implementations rooted at `root`.
    static func live(seed: UInt64, root: URL) -> [String] {
        run(seed: seed, files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor(), root: root)
    }

    /// The outcomes of every step of `seed` on a fresh fake, acting as root or as a non-root owner.
    static func fake(seed: UInt64, enforcesPermissions: Bool) -> [String] {
        let fake = InMemoryFileSystem(enforcesPermissions: enforcesPermissions)
        let root = URL(filePath: "/diff")
        try? fake.createDirectory(at: root, withIntermediateDirectories: false)
        return run(seed: seed, files: fake, directories: fake, root: root)
    }

    static func run(
        seed: UInt64, files: any FileAccessorProviding, directories: any DirectoryAccessorProviding, root: URL
    ) -> [String] {
        var random = SplitMix64(seed: seed)  // every seed gives the same sequence everywhere
        return (0..<steps).map { _ in step(&random, files: files, directories: directories, root: root) }
    }

    /// `differential ROOT SEED`: the live run, then the fake's (acting as this process's user),
    /// as one JSON object `{"userID", "live": [...], "fake": [...]}`.
    static func report(root: URL, seed: UInt64) -> String {
        struct Report: Encodable {
            var userID: UInt32
            var live: [String]
            var fake: [String]
        }
        let report = Report(
            userID: geteuid(), live: live(seed: seed, root: root),
            fake: fake(seed: seed, enforcesPermissions: geteuid() != 0))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
