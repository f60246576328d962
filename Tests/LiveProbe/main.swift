// A tiny program the tests run as an unprivileged user (through `setpriv`), so that the live
// implementations meet real permission errors even when the tests themselves run as root.
//
//   seams-live-probe read PATH | write PATH TEXT | exists PATH
//   seams-live-probe bookmark-save STORE KEY TEXT | bookmark-load STORE KEY
//
// It prints `ok [TEXT]` or `error DOMAIN CODE ERRNO`, and exits 0 either way (64 on bad usage).
import Foundation
import Seams

func report(_ error: any Error) -> String {
    let nsError = error as NSError
    let errnoValue = (error as? CocoaError)?.posixCode?.rawValue ?? 0
    return "error \(nsError.domain) \(nsError.code) \(errnoValue)"
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
    case ("bookmark-load", 3):
        let data = try DefaultBookmarkStorage(storeURL: url(1)).loadBookmark(for: arguments[2])
        output = "ok " + (data.map { String(decoding: $0, as: UTF8.self) } ?? "nil")
    default:
        FileHandle.standardError.write(Data("usage: seams-live-probe read|write|exists|bookmark-save|bookmark-load ...\n".utf8))
        exit(64)
    }
} catch {
    output = report(error)
}
print(output)
