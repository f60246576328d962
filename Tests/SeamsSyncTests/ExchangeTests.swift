import Foundation
import Seams
import Testing

@testable import SeamsSync

/// A replaced file is swapped in with one atomic exchange on the real file system, and a version
/// saved in the moment between the last check and the swap gets its name back.
@Suite struct ExchangeTests {
    let base: URL
    var local: URL { base.appending(path: "local", directoryHint: .isDirectory) }
    var container: URL { base.appending(path: "container", directoryHint: .isDirectory) }
    var state: URL { base.appending(path: "state", directoryHint: .isDirectory) }

    init() throws {
        base = FileManager.default.temporaryDirectory.appending(
            path: "seams-exchange-\(UUID().uuidString)", directoryHint: .isDirectory)
        for folder in [base.appending(path: "local"), base.appending(path: "container")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    func write(_ text: String, _ url: URL, age: TimeInterval) throws {
        try Data(text.utf8).write(to: url)
        // In whole microseconds: Foundation on Linux refuses (EINVAL) a fraction `utimes` would
        // round up to a whole second.
        let date = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 - age) * 1e6).rounded() / 1e6)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    func text(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }

    func trash(_ root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.appending(path: ".seams-trash").path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix("notes.txt") { found.append(text(root.appending(path: ".seams-trash/" + path)) ?? "?") }
        }
        return found
    }

    /// A synced pair whose local `notes.txt` was then edited, so the next run replaces the container's.
    func editedPair(_ boundary: LiveBoundary) throws -> SyncEngine {
        try write("v1", local.appending(path: "notes.txt"), age: 100)
        let engine = SyncEngine(directories: boundary, files: boundary, owner: "test")
        _ = try engine.run(local: local, container: container, stateDirectory: state)
        try write("v2 local edit", local.appending(path: "notes.txt"), age: 10)
        return engine
    }

    @Test("the replace is one swap; the old version is in the trash; no temp file is left")
    func swapped() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let boundary = LiveBoundary()
        let engine = try editedPair(boundary)
        let report = try engine.run(local: local, container: container, stateDirectory: state)
        #expect(report.copiedToContainer == 1)
        #expect(boundary.exchanges.withLock { $0 } == (asked: 1, made: 1), "ext4 and tmpfs swap")
        #expect(text(container.appending(path: "notes.txt")) == "v2 local edit")
        #expect(trash(container) == ["v1"])
        let names = try FileManager.default.contentsOfDirectory(atPath: container.path)
        #expect(!names.contains { $0.hasPrefix(".seams-tmp") }, "\(names)")
    }

    @Test(
        "a version saved between the last check and the swap keeps its name; the incoming one becomes a conflict copy")
    func savedInTheMoment() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let boundary = LiveBoundary()
        let engine = try editedPair(boundary)
        let target = container.appending(path: "notes.txt")
        let saved = LockedValue(false)
        boundary.beforeExchange.withLock {
            $0 = { _, second in
                guard second.path == target.path,
                    !saved.withLock({
                        let was = $0
                        $0 = true
                        return was
                    })
                else { return }
                // An editor's atomic save: a new file renamed over the name.
                let side = second.deletingLastPathComponent().appending(path: "editor-save.tmp")
                try? Data("v3 saved in the container just now".utf8).write(to: side)
                _ = rename(side.path, second.path)
            }
        }
        let report = try engine.run(local: local, container: container, stateDirectory: state)
        #expect(boundary.exchanges.withLock { $0.made } == 2, "swapped, then swapped back")
        #expect(text(target) == "v3 saved in the container just now", "the newest save keeps the name")
        let copy = try #require(report.conflicts.first, "\(report.summary)")
        #expect(
            text(container.appending(path: copy.copy)) == "v2 local edit",
            "the incoming version is kept as a conflict copy")
        #expect(trash(container) == ["v1"], "the version the scan saw is in the trash")
        #expect(report.failures.map(\.path) == ["notes.txt"])
        // The next run carries the container's save over to the local side, the old local edit to its trash.
        let next = try engine.run(local: local, container: container, stateDirectory: state)
        #expect(next.copiedToLocal >= 1, "\(next.summary)")
        #expect(text(local.appending(path: "notes.txt")) == "v3 saved in the container just now")
        #expect(text(local.appending(path: copy.copy)) == "v2 local edit")
    }

    @Test("exchangeItems swaps two files on the live file system; a missing one throws ENOENT")
    func liveSwap() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let a = local.appending(path: "a")
        let b = local.appending(path: "b")
        try write("A", a, age: 0)
        try write("B", b, age: 0)
        let accessor = DefaultDirectoryAccessor()
        #expect(try accessor.exchangeItems(at: a, and: b))
        #expect(text(a) == "B" && text(b) == "A")
        #expect {
            _ = try accessor.exchangeItems(at: a, and: local.appending(path: "missing"))
        } throws: { error in
            (error as? CocoaError)?.posixCode == .ENOENT
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
