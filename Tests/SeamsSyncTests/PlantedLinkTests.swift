import Foundation
import Seams
import Synchronization
import Testing

@testable import SeamsSync

/// A symbolic link planted while a run is under way, on the real file system: the engine checks
/// every folder above a path it changes just before the change, so nothing is written, moved or
/// deleted through a link that appeared after the scan (the kernel would follow it, outside the
/// synced folder).
@Suite struct PlantedLinkTests {
    struct Setup {
        let base: URL
        var local: URL { base.appending(path: "local", directoryHint: .isDirectory) }
        var container: URL { base.appending(path: "container", directoryHint: .isDirectory) }
        var state: URL { base.appending(path: "state", directoryHint: .isDirectory) }
        var outside: URL { base.appending(path: "outside", directoryHint: .isDirectory) }

        init() throws {
            base = FileManager.default.temporaryDirectory.appending(
                path: "seams-planted-\(UUID().uuidString)", directoryHint: .isDirectory)
            for folder in [local, container] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }

        func write(_ text: String, _ path: String, in root: URL) throws {
            let url = root.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// Every file under `root` with its content, links not followed.
        func tree(_ root: URL) -> [String: String] {
            var result: [String: String] = [:]
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walker?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                result[relative] = (try? String(contentsOf: url, encoding: .utf8)) ?? "?"
            }
            return result
        }
    }

    /// Moves `folder` to `outside` (same volume: every file keeps its identity, as the user's `mv`
    /// does) and puts a link to it in its place.
    static func moveAndLink(_ folder: URL, to outside: URL) {
        try? FileManager.default.moveItem(at: folder, to: outside)
        try? FileManager.default.createSymbolicLink(at: folder, withDestinationURL: outside)
    }

    @Test(
        "a folder moved away and replaced by a link between scan and apply: nothing of the outside folder is deleted or added",
        arguments: ["docs", "deep/er/docs"])
    func plantedBetweenScanAndApply(_ folder: String) throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.base) }
        try s.write("old", "\(folder)/old.txt", in: s.local)
        try s.write("keep", "\(folder)/keep.txt", in: s.local)
        let boundary = LiveBoundary()
        let engine = SyncEngine(directories: boundary, files: boundary, owner: "test")
        _ = try engine.run(local: s.local, container: s.container, stateDirectory: s.state)
        // The container deletes one file and adds one: the run would trash the local old.txt and
        // write new.txt into the local folder.
        try FileManager.default.removeItem(at: s.container.appending(path: "\(folder)/old.txt"))
        try s.write("new", "\(folder)/new.txt", in: s.container)
        let planted = s.local.appending(path: folder)
        boundary.beforeCall.withLock {
            $0 = { call, url in
                // The folder is first looked at by itself after both scans, just before the first
                // change inside it: the user moves the folder away at that moment.
                if call == "metadata", url.standardizedFileURL.path == planted.standardizedFileURL.path {
                    Self.moveAndLink(planted, to: s.outside)
                }
            }
        }
        let report = try engine.run(local: s.local, container: s.container, stateDirectory: s.state)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: planted.path) == s.outside.path,
            "the link was planted")
        #expect(s.tree(s.outside) == ["old.txt": "old", "keep.txt": "keep"], "the outside folder is exactly as moved")
        #expect(Set(report.failures.map(\.path)) == ["\(folder)/new.txt", "\(folder)/old.txt"], "\(report.failures)")
        #expect(report.failures.allSatisfy { $0.reason.contains("is no longer a folder") }, "\(report.failures)")
        #expect(s.tree(s.container)["\(folder)/new.txt"] == "new", "the container keeps its new file")
    }

    @Test("a link planted as a parent of a new folder's place: the folder is not made through it")
    func plantedAboveNewFolder() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.base) }
        try s.write("a", "docs/a.txt", in: s.local)
        let boundary = LiveBoundary()
        let engine = SyncEngine(directories: boundary, files: boundary, owner: "test")
        _ = try engine.run(local: s.local, container: s.container, stateDirectory: s.state)
        try s.write("n", "docs/sub/n.txt", in: s.container)
        let planted = s.local.appending(path: "docs")
        boundary.beforeCall.withLock {
            $0 = { call, url in
                if call == "metadata", url.standardizedFileURL.path == planted.standardizedFileURL.path {
                    Self.moveAndLink(planted, to: s.outside)
                }
            }
        }
        let report = try engine.run(local: s.local, container: s.container, stateDirectory: s.state)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.outside.path) == ["a.txt"],
            "no sub folder made outside")
        #expect(
            report.failures.contains { $0.path == "docs/sub" && $0.reason.contains("is no longer a folder") },
            "\(report.failures)")
    }
}
