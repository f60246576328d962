import Foundation
import Testing

/// A temp dir with `local`, `container` and `state` folders, removed at the end of the test.
final class Workspace {
    let base: URL
    let local: URL
    let container: URL
    let state: URL
    private let manager = FileManager.default

    init() throws {
        base = manager.temporaryDirectory.appending(path: "seams-e2e-\(UUID().uuidString)", directoryHint: .isDirectory)
        local = base.appending(path: "local", directoryHint: .isDirectory)
        container = base.appending(path: "container", directoryHint: .isDirectory)
        state = base.appending(path: "state", directoryHint: .isDirectory)
        for folder in [local, container] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    deinit {
        try? manager.removeItem(at: base)
    }

    /// `sync LOCAL CONTAINER --state-dir STATE` plus `extra`.
    func sync(
        _ extra: [String] = [], asNobody: Bool = false, stdout: CLI.Stream = .file, stderr: CLI.Stream = .file
    ) throws -> CLI.Result {
        try CLI.run(
            ["sync", local.path, container.path, "--state-dir", state.path] + extra, asNobody: asNobody,
            stdout: stdout, stderr: stderr)
    }

    func write(_ text: String, _ path: String, in root: URL, age: TimeInterval = 0) throws {
        let url = root.appending(path: path)
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        // In whole microseconds: Foundation on Linux sets the date through `utimes`, and refuses
        // (EINVAL) a fraction it rounds up to a whole second, such as x.9999998.
        let date = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 - age) * 1e6).rounded() / 1e6)
        try manager.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    func read(_ path: String, in root: URL) -> String? {
        (try? Data(contentsOf: root.appending(path: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every path under `root` and its content (`/` for folders), the tool's `.seams…` items left out.
    func tree(_ root: URL) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if url.lastPathComponent.hasPrefix(".seams"), url.lastPathComponent != ".seamsignore" {
                enumerator?.skipDescendants()
                continue
            }
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            result[relative] = isFolder ? "/" : read(relative, in: root) ?? "<unreadable>"
        }
        return result
    }

    /// The names in one folder, as raw bytes (NFC and NFD names stay apart); the tool's own
    /// `.seams…` items left out.
    func rawNames(_ folder: URL) throws -> Set<[UInt8]> {
        Set(
            try manager.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".seams") }.map {
                Array($0.utf8)
            })
    }

    /// Everything in the trash of `root`, by the path it had.
    func trashed(_ root: URL) -> [String: String] {
        let trash = root.appending(path: ".seams-trash")
        var result: [String: String] = [:]
        for run in (try? manager.contentsOfDirectory(atPath: trash.path)) ?? [] {
            for (path, content) in tree(trash.appending(path: run)) where content != "/" {
                result[path] = content
            }
        }
        return result
    }

    /// Hands the whole workspace to uid 65534 (needs root).
    ///
    /// - Throws: ``ChownFailed`` when `chown` does not exit 0, so a test never runs on folders
    ///   that were not handed over.
    func giveToNobody() throws {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/chown")
        process.arguments = ["-R", "65534:65534", base.path]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ChownFailed(status: process.terminationStatus) }
    }

    /// `chown` exited with a status other than 0.
    struct ChownFailed: Error, Equatable {
        var status: Int32
    }
}
