// seams-fs-bench: the same small-file workload on the live file system and on
// InMemoryFileSystem, in one run, with the ratio.
//
//     swift run -c release seams-fs-bench [files] [rounds]
//
// Each round, for `files` files of 4 KiB in one folder: atomic write, stat, read, list the folder
// (once per 100 files), rename, remove. Times are the best round's, per operation.

import Foundation
import Seams
import SeamsTesting

struct Workload {
    let files: any FileAccessorProviding
    let directories: any DirectoryAccessorProviding
    let folder: URL

    /// Nanoseconds spent in each phase.
    func run(count: Int) throws -> [(String, Int, UInt64)] {
        let payload = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0) })
        let names = (0..<count).map { folder.appending(path: "file-\($0).dat") }
        let renamed = (0..<count).map { folder.appending(path: "moved-\($0).dat") }
        let lists = max(1, count / 100)
        var phases: [(String, Int, UInt64)] = []
        func phase(_ name: String, _ operations: Int, _ body: () throws -> Void) rethrows {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            phases.append((name, operations, DispatchTime.now().uptimeNanoseconds - start))
        }
        try phase("atomic write 4 KiB", count) { for url in names { try files.write(payload, to: url) } }
        try phase("stat", count) {
            for url in names where try directories.metadata(at: url).size != 4096 { fatalError("size") }
        }
        try phase("read", count) { for url in names where try files.read(from: url).count != 4096 { fatalError("read") } }
        try phase("list (\(count) entries)", lists) {
            for _ in 0..<lists where try directories.contentsOfDirectory(at: folder).count != count { fatalError("list") }
        }
        try phase("rename", count) {
            for (from, to) in zip(names, renamed) { try directories.moveItem(at: from, to: to, replacingExisting: false) }
        }
        try phase("remove", count) { for url in renamed { try directories.removeItem(at: url, recursively: false) } }
        return phases
    }
}

func best(_ rounds: Int, _ make: () throws -> Workload, count: Int) throws -> [(String, Int, UInt64)] {
    var result: [(String, Int, UInt64)] = []
    for _ in 0..<rounds {
        let phases = try make().run(count: count)
        result = result.isEmpty ? phases : zip(result, phases).map { ($0.0, $0.1, min($0.2, $1.2)) }
    }
    return result
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let count = arguments.first ?? 2000
let rounds = arguments.dropFirst().first ?? 3

let liveRoot = FileManager.default.temporaryDirectory.appending(path: "seams-fs-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: liveRoot, withIntermediateDirectories: false)
defer { try? FileManager.default.removeItem(at: liveRoot) }

let live = try best(rounds, { Workload(files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor(), folder: liveRoot) }, count: count)
let fake = try best(rounds, {
    let fileSystem = InMemoryFileSystem(recordsCalls: false)
    let folder = URL(filePath: "/bench")
    try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
    return Workload(files: fileSystem, directories: fileSystem, folder: folder)
}, count: count)

func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
func lpad(_ text: String, _ width: Int) -> String { text.count >= width ? text : String(repeating: " ", count: width - text.count) + text }
func perOperation(_ ns: UInt64, _ operations: Int) -> Double { Double(ns) / Double(operations) }

print("seams-fs-bench: \(count) files of 4 KiB, best of \(rounds) rounds, live folder \(liveRoot.path)")
print(pad("operation", 26) + lpad("live ns/op", 14) + lpad("fake ns/op", 14) + lpad("live/fake", 12))
for ((name, operations, liveNs), (_, _, fakeNs)) in zip(live, fake) {
    let l = perOperation(liveNs, operations)
    let f = perOperation(fakeNs, operations)
    print(pad(name, 26) + lpad(String(format: "%.0f", l), 14) + lpad(String(format: "%.0f", f), 14)
        + lpad(String(format: "%.1fx", l / f), 12))
}
let liveTotal = live.reduce(0) { $0 + $1.2 }
let fakeTotal = fake.reduce(0) { $0 + $1.2 }
print(pad("whole workload (ms)", 26) + lpad(String(format: "%.2f", Double(liveTotal) / 1e6), 14)
    + lpad(String(format: "%.2f", Double(fakeTotal) / 1e6), 14)
    + lpad(String(format: "%.1fx", Double(liveTotal) / Double(fakeTotal)), 12))
print("ratio live/fake: \(String(format: "%.1f", Double(liveTotal) / Double(fakeTotal)))x (goal: at least 50x)")
