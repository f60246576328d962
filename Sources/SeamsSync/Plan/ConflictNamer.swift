import Foundation

/// Names conflict copies the way Syncthing does, deterministically and keeping the extension:
/// `report.txt` becomes `report.sync-conflict-20261122-034512-local.txt`, where the date is the
/// copy's own modification time (UTC) and `local`/`container` the side it came from.
struct ConflictNamer: Sendable {
    /// The longest name a file system takes, in bytes.
    static let maximumNameLength = 255

    /// Creates a namer.
    init() {}

    /// The conflict copy's path for the version of `path` from `origin`, modified at `date`.
    ///
    /// - Parameters:
    ///   - path: The path in conflict.
    ///   - origin: The side the version comes from.
    ///   - date: The version's modification date.
    ///   - taken: Whether a candidate path is already in use; a number is added until it is free.
    /// - Returns: A free sibling path.
    func conflictPath(
        for path: SyncPath, origin: Side, modified date: Date, taken: (SyncPath) -> Bool
    ) -> SyncPath {
        let name = path.name
        let (stem, ext) = Self.split(name)
        let tag = ".sync-conflict-\(Self.format(date))-\(origin.rawValue)"
        var attempt = 1
        while true {
            let suffix = (attempt == 1 ? tag : "\(tag)-\(attempt)") + ext
            let room = Self.maximumNameLength - suffix.utf8.count
            let candidate = path.replacingName(with: Self.truncate(stem, toBytes: room) + suffix)
            if !taken(candidate) { return candidate }
            attempt += 1
        }
    }

    /// Splits `name` into stem and extension (with its dot); a leading dot is not an extension.
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let ext = String(name[dot...])
        guard ext.utf8.count <= 16, !ext.contains(" ") else { return (name, "") }
        return (String(name[..<dot]), ext)
    }

    /// `yyyyMMdd-HHmmss` in UTC.
    static func format(_ date: Date) -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!, from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", components.year ?? 0) + two(components.month) + two(components.day)
            + "-" + two(components.hour) + two(components.minute) + two(components.second)
    }

    /// The longest prefix of `text` that fits in `bytes` UTF-8 bytes, cut between characters.
    static func truncate(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > bytes { break }
            result.append(character)
            used += size
        }
        return result
    }
}
