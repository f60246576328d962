import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
/// Readable and traversable by every user, so an unprivileged child process can reach inside.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = #function) throws {
        let name = "seams-\(label.filter(\.isLetter).prefix(40))-\(UUID().uuidString)"
        url = FileManager.default.temporaryDirectory.appending(path: name, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    func file(_ relativePath: String) -> URL {
        url.appending(path: relativePath, directoryHint: .notDirectory)
    }

    func folder(_ relativePath: String) -> URL {
        url.appending(path: relativePath, directoryHint: .isDirectory)
    }

    deinit {
        // Restore write permission on anything a test locked, then remove everything.
        if let walker = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in walker {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o755], ofItemAtPath: url.appending(path: path).path)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }
}
