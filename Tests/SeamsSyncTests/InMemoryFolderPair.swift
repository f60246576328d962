import Foundation
import Seams
import SeamsTesting

@testable import SeamsSync

/// A local folder and a container folder on one ``InMemoryFileSystem``, with a state folder, and
/// what a test of whole runs does with them: write, read, move and list files, and sync.
protocol InMemoryFolderPair {
    var local: URL { get }
    var container: URL { get }
    var state: URL { get }
}

extension InMemoryFolderPair {
    var local: URL { URL(filePath: "/local", directoryHint: .isDirectory) }
    var container: URL { URL(filePath: "/container", directoryHint: .isDirectory) }
    var state: URL { URL(filePath: "/state", directoryHint: .isDirectory) }

    /// A file system holding the two empty folders.
    func fileSystem() throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        for folder in [local, container] {
            try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        return fileSystem
    }

    func write(_ text: String, _ path: String, in root: URL, _ fileSystem: InMemoryFileSystem) throws {
        let url = root.appending(path: path)
        try fileSystem.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileSystem.write(Data(text.utf8), to: url)
    }

    func read(_ path: String, in root: URL, _ fileSystem: InMemoryFileSystem) -> String? {
        (try? fileSystem.read(from: root.appending(path: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    func move(_ from: String, _ to: String, in root: URL, _ fileSystem: InMemoryFileSystem) throws {
        try fileSystem.moveItem(at: root.appending(path: from), to: root.appending(path: to), replacingExisting: false)
    }

    /// Every file's text under `root`, by path, leaving out the tool's own items.
    func tree(_ root: URL, _ fileSystem: InMemoryFileSystem) throws -> [String: String] {
        var result: [String: String] = [:]
        var pending = [(root, "")]
        while let (url, prefix) = pending.popLast() {
            for entry in try fileSystem.contentsOfDirectory(at: url) where !entry.name.hasPrefix(".seams") {
                let path = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
                if entry.metadata.kind == .directory {
                    pending.append((url.appending(path: entry.name), path))
                } else {
                    result[path] = String(
                        decoding: try fileSystem.read(from: url.appending(path: entry.name)), as: UTF8.self)
                }
            }
        }
        return result
    }

    /// Every file's text in a side's trash.
    func trash(_ root: URL, _ fileSystem: InMemoryFileSystem) throws -> [String] {
        let url = root.appending(path: ".seams-trash")
        guard fileSystem.fileExists(at: url) else { return [] }
        var result: [String] = []
        var pending = [url]
        while let folder = pending.popLast() {
            for entry in try fileSystem.contentsOfDirectory(at: folder) {
                let child = folder.appending(path: entry.name)
                if entry.metadata.kind == .directory {
                    pending.append(child)
                } else {
                    result.append(String(decoding: try fileSystem.read(from: child), as: UTF8.self))
                }
            }
        }
        return result.sorted()
    }

    func engine(_ fileSystem: InMemoryFileSystem) -> SyncEngine {
        SyncEngine(directories: fileSystem, files: fileSystem, clock: { fileSystem.now }, owner: "test")
    }

    /// One run, a second after the last change.
    func sync(_ fileSystem: InMemoryFileSystem, _ options: SyncOptions = SyncOptions()) throws -> SyncReport {
        fileSystem.advanceTime(by: 1)
        return try engine(fileSystem).run(local: local, container: container, stateDirectory: state, options: options)
    }
}
