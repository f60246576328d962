// A tiny program the tests run as an unprivileged user (through `setpriv`), so that the live
// implementations meet real permission errors even when the tests themselves run as root.
//
//   seams-live-probe read PATH | write PATH TEXT | exists PATH
//   seams-live-probe bookmark-save STORE KEY TEXT | bookmark-load STORE KEY
//   seams-live-probe conformance ROOT BEHAVIOUR
//   seams-live-probe flush-batch ROOT COUNT LIMIT
//   seams-live-probe differential ROOT SEED
//   seams-live-probe flush file PATH | flush folder PATH | flush batch FOLDER...
//
// It prints `ok [TEXT]` or `error DOMAIN CODE ERRNO`, and exits 0 either way (64 on bad usage).
// `conformance` runs one behaviour of SeamsTesting's conformance suites (named as its
// `description`, `Suite: name`) on the live implementations in the empty folder ROOT, and prints
// one JSON object: `{"behaviour", "userID", "outcome": "passed" | "failed" | "threw", "message"}`.
import Foundation
import Seams
import SeamsTesting

#if canImport(Glibc)
    import Glibc
#endif

/// What `conformance` prints.
struct ConformanceOutcome: Encodable {
    var behaviour: String
    var userID: UInt32
    var outcome: String
    var message: String?
}

/// Runs one conformance behaviour on the live implementations, rooted at `root`.
func conformance(root: URL, behaviour name: String) -> String {
    let all =
        DirectoryAccessorConformance.behaviours + FileAccessorConformance.behaviours
        + FileSystemProviderConformance.behaviours + BookmarkStorageConformance.behaviours
    var result = ConformanceOutcome(behaviour: name, userID: geteuid(), outcome: "passed")
    if let behaviour = all.first(where: { $0.description == name }) {
        let subject = ConformanceSubject(
            root: root,
            files: DefaultFileAccessor(),
            directories: DefaultDirectoryAccessor(),
            enforcesPermissions: geteuid() != 0,
            makeContainerProvider: { DefaultFileSystemProvider(containerDirectory: $0) },
            makeBookmarkStorage: { DefaultBookmarkStorage(storeURL: root.appending(path: "bookmarks.json")) }
        )
        do {
            try behaviour.run(on: subject)
        } catch let failure as ConformanceFailure {
            result.outcome = "failed"
            result.message = failure.message
        } catch {
            result.outcome = "threw"
            result.message = report(error)
        }
    } else {
        result.outcome = "threw"
        result.message = "no behaviour is named \(name)"
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(result)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}

func report(_ error: any Error) -> String {
    let nsError = error as NSError
    let errnoValue = (error as? CocoaError)?.posixCode?.rawValue ?? 0
    return "error \(nsError.domain) \(nsError.code) \(errnoValue)"
}

/// Writes `count` files into `root`, lowers the open-file limit to `openFileLimit`, and flushes
/// them all in one `synchronize(files:directories:)` call: a batch larger than the limit must work.
func flushBatch(root: URL, count: Int, openFileLimit: Int) throws -> String {
    let files = try (0..<count).map { index in
        let file = root.appending(path: "f\(index)")
        try DefaultFileAccessor().write(Data("\(index)".utf8), to: file)
        return file
    }
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = rlim_t(openFileLimit)
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return "error setrlimit" }
    try DefaultDirectoryAccessor().synchronize(files: files, directories: [root])
    return "ok \(files.count)"
}

/// One flush of the live accessor, nothing else, so a tracer sees only its calls: `file PATH`,
/// `folder PATH`, or `batch FOLDER...` (every file in each folder, and the folders, in one call).
func flush(_ kind: String, _ paths: [String]) throws -> String {
    let directories = DefaultDirectoryAccessor()
    let urls = paths.map { URL(filePath: $0) }
    switch kind {
    case "file": try directories.synchronizeFile(at: urls[0])
    case "folder": try directories.synchronizeDirectory(at: urls[0])
    case "batch":
        let files = try urls.flatMap { folder in
            try directories.contentsOfDirectory(at: folder).filter { $0.metadata.kind == .file }.map {
                folder.appending(path: $0.name)
            }
        }
        try directories.synchronize(files: files, directories: urls)
        return "ok \(files.count)"
    default: return "error usage"
    }
    return "ok"
}

let arguments = Array(CommandLine.arguments.dropFirst())
func url(_ index: Int) -> URL { URL(filePath: arguments[index]) }

let output: String
do {
    switch (arguments.first, arguments.count) {
    case ("read", 2):
        output = "ok " + String(decoding: try DefaultFileAccessor().read(from: url(1)), as: UTF8.self)
    case ("write", 3):
        try DefaultFileAccessor().write(Data(arguments[2].utf8), to: url(1))
        output = "ok"
    case ("exists", 2):
        output = "ok \(DefaultFileAccessor().fileExists(at: url(1)))"
    case ("bookmark-save", 4):
        try DefaultBookmarkStorage(storeURL: url(1)).saveBookmark(Data(arguments[3].utf8), for: arguments[2])
        output = "ok"
    case ("conformance", 3):
        output = conformance(root: url(1), behaviour: arguments[2])
    case ("flush", 3...):
        output = try flush(arguments[1], Array(arguments.dropFirst(2)))
    case ("differential", 3):
        output = DifferentialSequence.report(root: url(1), seed: UInt64(arguments[2]) ?? 0)
    case ("flush-batch", 4):
        output = try flushBatch(root: url(1), count: Int(arguments[2]) ?? 0, openFileLimit: Int(arguments[3]) ?? 0)
    case ("bookmark-load", 3):
        let data = try DefaultBookmarkStorage(storeURL: url(1)).loadBookmark(for: arguments[2])
        output = "ok " + (data.map { String(decoding: $0, as: UTF8.self) } ?? "nil")
    default:
        FileHandle.standardError.write(
            Data(
                "usage: seams-live-probe read|write|exists|bookmark-save|bookmark-load|conformance|flush-batch|differential ...\n"
                    .utf8))
        exit(64)
    }
} catch {
    output = report(error)
}
print(output)
