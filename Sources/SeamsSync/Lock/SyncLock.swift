import Foundation
import Seams

/// The cross-process lock of a container: a file `.seams-lock` holding the owner and a heartbeat.
///
/// It is created by hard-linking a fully written temp file (atomic and exclusive), refreshed
/// while the run works, and expires by itself: a lock whose heartbeat is older than the expiry
/// belongs to a run that crashed, and the next run takes it over with no person involved.
final class SyncLock: Sendable {
    private struct Record: Codable {
        var owner: String
        var heartbeat: Double
    }

    static let fileName = ".seams-lock"

    private let directories: any DirectoryAccessorProviding
    private let files: any FileAccessorProviding
    private let folder: URL
    private let owner: String
    private let runID: String
    private let clock: @Sendable () -> Date
    private let expiry: TimeInterval
    private let lastBeat: LockedValue<Date>

    init(
        in folder: URL, owner: String, runID: String, directories: any DirectoryAccessorProviding,
        files: any FileAccessorProviding, clock: @escaping @Sendable () -> Date, expiry: TimeInterval
    ) {
        self.folder = folder
        self.owner = owner
        self.runID = runID
        self.directories = directories
        self.files = files
        self.clock = clock
        self.expiry = expiry
        self.lastBeat = LockedValue(clock())
    }

    private var url: URL { folder.appending(path: Self.fileName, directoryHint: .notDirectory) }

    private func temporary(_ tag: String) -> URL {
        folder.appending(path: "\(Snapshot.temporaryPrefix)lock-\(tag)-\(runID)", directoryHint: .notDirectory)
    }

    private func encoded() throws -> Data {
        try JSONEncoder().encode(Record(owner: owner, heartbeat: clock().timeIntervalSince1970))
    }

    private func current() -> Record? {
        guard let data = try? files.read(from: url) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// Takes the lock, taking over an expired one.
    ///
    /// - Throws: ``SyncError/lockHeld(owner:)`` when a live run holds it.
    func acquire() throws {
        let temp = temporary("new")
        try files.write(try encoded(), to: temp)
        defer { try? directories.removeItem(at: temp, recursively: false) }
        for _ in 0..<3 {
            do {
                try directories.linkItem(at: temp, to: url)
                lastBeat.withLock { $0 = clock() }
                return
            } catch let error as CocoaError where error.code == .fileWriteFileExists {
                if let record = current(), clock().timeIntervalSince1970 - record.heartbeat < expiry {
                    throw SyncError.lockHeld(owner: record.owner)
                }
                let stale = temporary("stale")
                try directories.moveItem(at: url, to: stale, replacingExisting: true)
                try? directories.removeItem(at: stale, recursively: false)
            }
        }
        throw SyncError.lockHeld(owner: current()?.owner ?? "unknown")
    }

    /// Refreshes the heartbeat when a third of the expiry has passed since the last one.
    ///
    /// - Throws: ``SyncError/lockHeld(owner:)`` when another run took the lock over.
    func heartbeat() throws {
        let now = clock()
        guard lastBeat.withLock({ now.timeIntervalSince($0) >= expiry / 3 }) else { return }
        guard let record = current(), record.owner == owner else {
            throw SyncError.lockHeld(owner: current()?.owner ?? "unknown")
        }
        let temp = temporary("beat")
        try files.write(try encoded(), to: temp)
        try directories.moveItem(at: temp, to: url, replacingExisting: true)
        lastBeat.withLock { $0 = now }
    }

    /// Removes the lock when it is still ours.
    func release() {
        guard current()?.owner == owner else { return }
        try? directories.removeItem(at: url, recursively: false)
    }
}
