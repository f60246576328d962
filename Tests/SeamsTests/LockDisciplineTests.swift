import Foundation
import Testing

/// Shared state in this package sits behind `LockedValue` (or the macros' `MockLock`), never a
/// bare `Synchronization.Mutex`: on Linux a contended `Mutex` waits on a futex inside the
/// uninstrumented Synchronization library, so `swift test --sanitize=thread` reports a race that is
/// not there, and a false report hides the real ones. A CI run failed on exactly that (a
/// `Mutex` in the in-memory WebDAV server); this keeps the next one from coming back.
@Suite struct LockDisciplineTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The two files allowed to hold a `Mutex`: each pairs it with a lock the sanitizer sees.
    static let allowed: Set<String> = [
        "Sources/SeamsCore/Concurrency/LockedValue.swift",
        "Sources/SeamsMacros/Runtime/MockLock.swift",
    ]

    /// Every Swift file under `folder` (relative to the package's root), with its text.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        let base = root.appending(path: folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in walker {
            if url.lastPathComponent.hasPrefix(".") {
                walker.skipDescendants()  // .build and other tool folders
                continue
            }
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            files.append((relative, try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    /// Whether a line of Swift makes or names a `Mutex` (not counting comments).
    static func usesMutex(_ line: Substring) -> Bool {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return code.contains(/\bMutex\s*[(<]/)
    }

    @Test("no file but LockedValue and MockLock makes a bare Mutex", arguments: ["Sources", "Tests", "Examples"])
    func noBareMutex(folder: String) throws {
        let files = try Self.swiftFiles(under: folder)
        #expect(!files.isEmpty || folder == "Examples")
        var offenders: [String] = []
        for file in files where !Self.allowed.contains(file.path) {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.usesMutex(line) {
                offenders.append("\(file.path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(
            offenders.isEmpty,
            "use LockedValue (a lock the thread sanitizer sees) instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the check finds a Mutex where one is made, and not in a comment")
    func detects() {
        let name = "Mut" + "ex"  // spelled apart so this file passes its own check
        #expect(Self.usesMutex("    let state = \(name)(State())"[...]))
        #expect(Self.usesMutex("    private let log: \(name)<[Int]>"[...]))
        #expect(!Self.usesMutex("    let state = LockedValue(State())"))
        #expect(!Self.usesMutex("/// a `Mutex` the sanitizer cannot see"))
        #expect(!Self.usesMutex("    let x = 1 // not a Mutex(here)"))
    }

    @Test("the allowed files exist and still pair their Mutex with an NSLock")
    func allowedFilesPairTheirLock() throws {
        for path in Self.allowed {
            let text = try String(contentsOf: Self.root.appending(path: path), encoding: .utf8)
            #expect(text.contains("NSLock()"), "\(path) no longer takes a lock the sanitizer sees")
        }
    }
}
