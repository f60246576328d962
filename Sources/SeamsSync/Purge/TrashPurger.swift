import Foundation
import SeamsCore

/// Empties the part of `.seams-trash` older than the retention: each run's trash is a folder
/// named after the run's start (`20261122-034512-<id>`), so its age is read from its name.
struct TrashPurger: Sendable {
    let directories: any DirectoryAccessorProviding
    let retention: TimeInterval

    /// The trash folder name of a run that starts at `date`.
    static func folderName(startingAt date: Date, runID: String) -> String {
        ConflictNamer.format(date) + "-" + runID
    }

    /// The start date read back from a trash folder's name.
    static func date(ofFolder name: String) -> Date? {
        let digits = Array(name.utf8.prefix(15))
        guard digits.count == 15, digits[8] == UInt8(ascii: "-") else { return nil }
        var components = DateComponents()
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        components.year = number(0..<4)
        components.month = number(4..<6)
        components.day = number(6..<8)
        components.hour = number(9..<11)
        components.minute = number(11..<13)
        components.second = number(13..<15)
        components.timeZone = TimeZone(identifier: "UTC")
        return Calendar(identifier: .gregorian).date(from: components)
    }

    /// What a purge did.
    struct Outcome: Equatable {
        /// Run folders removed.
        var removed = 0
        /// Why the trash was left alone (it is not a folder: a symbolic link, a file).
        var refused: String?
    }

    /// Removes the run folders in `root`'s trash older than the retention. A `.seams-trash` that
    /// is not a folder (a symbolic link to somewhere else, say) is never listed or purged.
    ///
    /// - Returns: How many were removed, or why nothing was.
    @discardableResult
    func purge(root: URL, now: Date) -> Outcome {
        let trash = root.appending(path: ApplyContext.trashName, directoryHint: .isDirectory)
        guard let kind = try? directories.metadata(at: trash).kind else { return Outcome() }
        guard kind == .directory else {
            return Outcome(
                refused: "is a \(kind == .symbolicLink ? "symbolic link" : "file"), not the tool's trash folder; "
                    + "nothing was moved into it or purged from it")
        }
        guard let entries = try? directories.contentsOfDirectory(at: trash) else { return Outcome() }
        var removed = 0
        for entry in entries where entry.metadata.kind == .directory {
            guard let date = Self.date(ofFolder: entry.name), now.timeIntervalSince(date) > retention else { continue }
            let url = trash.appending(path: entry.name, directoryHint: .isDirectory)
            if (try? directories.removeItem(at: url, recursively: true)) != nil { removed += 1 }
        }
        return Outcome(removed: removed)
    }
}
