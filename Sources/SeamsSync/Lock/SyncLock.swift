import Dispatch
import Foundation
import SeamsCore

/// The cross-process lock of a container: a file `.seams-lock` holding the owner (host, boot,
/// process) and a heartbeat.
///
/// It appears whole, in one atomic and exclusive step: a temp file under the tool's own name is
/// written (on a local folder by an exclusive create, `O_CREAT | O_EXCL`, flushed; never by an
/// atomic write, whose own temp name is not the tool's), then hard-linked to the lock's name (on a
/// file system without hard links, the lock is made by an exclusive create), or on a server moved
/// there with `MOVE` and `Overwrite: F` (never a `LOCK` and a `PUT`: a run killed between them
/// would leave an empty lock nobody can read). It is refreshed while the run works, and
/// taken over with no person involved when its owner is gone:
///
/// - written on this host by a process that no longer exists, or before the host's last boot:
///   at once (a run killed with `kill -9`, a crash, a power cut);
/// - written on this host by a live process whose heartbeat is older than the expiry (a hung
///   run, or a reused process id): at once, by this host's own clock;
/// - written on another host, or unreadable: only after this run has watched it unchanged for
///   the whole expiry, measured by this process itself. The other host's clock is never
///   compared with ours: a fast or slow clock there cannot make a live lock look expired.
///
/// The heartbeat is refreshed by the run between paths and, while ``startHeartbeat(every:)``
/// runs, by a background thread, so a long scan or one long copy does not let the lock expire.
final class SyncLock: Sendable {
    private struct Record: Codable, Equatable {
        var owner: String
        var heartbeat: Double
        var host: String?
        var boot: String?
        var pid: Int32?
    }

    /// What a lock found in place says about its owner.
    private enum Verdict {
        /// Held by a live run: refuse.
        case live
        /// Its owner is gone: take it over now.
        case dead
        /// Cannot tell from here: watch it for the expiry.
        case watch
    }

    static let fileName = OwnNames.lock

    private let replica: any Replica
    private let directories: any DirectoryAccessorProviding
    private let files: any FileAccessorProviding
    private let folder: URL
    /// What the container can do: how a temp file is made durable, how the lock is placed.
    private let capabilities: ReplicaCapabilities
    private let owner: String
    private let runID: String
    private let clock: @Sendable () -> Date
    private let expiry: TimeInterval
    private let process: SyncProcess
    /// Waits the given seconds (real time in production; tests move a fake clock).
    private let wait: @Sendable (TimeInterval) -> Void
    /// When the heartbeat was last written, and the lock's version that write made where the
    /// replica tells it (``Replica/versionWritten(at:)``); held while it is written, so the run
    /// and the background task never write at once.
    private let lastBeat: LockedValue<(date: Date, written: FileMetadata?)>
    /// Why the background heartbeat stopped (the lock was taken over, or could not be written).
    private let failure = LockedValue<SyncError?>(nil)
    /// Signalled by ``release()`` to end the background heartbeat.
    private let stop = DispatchSemaphore(value: 0)

    init(
        in replica: any Replica, owner: String, runID: String, clock: @escaping @Sendable () -> Date,
        expiry: TimeInterval,
        process: SyncProcess = .current,
        wait: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.replica = replica
        self.folder = replica.root
        self.capabilities = replica.capabilities
        self.owner = owner
        self.runID = runID
        self.directories = replica.directories
        self.files = replica.files
        self.clock = clock
        self.expiry = expiry
        self.process = process
        self.wait = wait
        self.lastBeat = LockedValue((clock(), nil))
    }

    private var url: URL { folder.appending(path: Self.fileName, directoryHint: .notDirectory) }

    private func temporary(_ tag: String) -> URL {
        folder.appending(path: "\(Snapshot.temporaryPrefix)lock-\(tag)-\(runID)", directoryHint: .notDirectory)
    }

    private func encoded() throws -> Data {
        try JSONEncoder().encode(
            Record(
                owner: owner, heartbeat: clock().timeIntervalSince1970, host: process.host, boot: process.bootID,
                pid: process.pid))
    }

    /// Takes the lock, taking over one whose owner is gone (see the type's documentation).
    ///
    /// Taking over moves the old lock aside and checks that what was moved is, byte for byte, the
    /// lock judged: if another run took the lock over in between, its fresh lock is put back and
    /// this run is refused.
    ///
    /// - Throws: ``SyncError/lockHeld(owner:)`` when a live run holds it.
    func acquire() throws {
        let temp = temporary("new")
        let record = try encoded()
        try writeTemporary(record, to: temp)
        defer { try? directories.removeItem(at: temp, recursively: false) }
        for _ in 0..<3 {
            do {
                try place(temp, holding: record)
                do {
                    try replica.checkExclusiveCreate(at: url, holding: record)
                } catch {
                    try? directories.removeItem(at: url, recursively: false)
                    throw error
                }
                // The version placed, where the replica knows it: the first heartbeat is then
                // one request too.
                lastBeat.withLock { $0 = (clock(), replica.versionWritten(at: url)) }
                return
            } catch let error as CocoaError where Self.taken(error) {
                guard let found = try? files.read(from: url) else { continue }  // released meanwhile
                let record = try? JSONDecoder().decode(Record.self, from: found)
                // An empty lock is one a power cut tore (its content is written before it is
                // placed): its owner is gone. One being created exclusively right now is empty
                // for a moment too; the takeover's check then finds it changed and backs off.
                switch found.isEmpty ? .dead : verdict(record) {
                case .live:
                    throw SyncError.lockHeld(owner: record?.owner ?? "unknown")
                case .dead:
                    break
                case .watch:
                    guard let unchanged = try watch(found), unchanged else { continue }
                }
                try takeOver(found)
            }
        }
        throw SyncError.lockHeld(owner: current()?.owner ?? "unknown")
    }

    /// Whether a placement failed because something is at the lock's name: EEXIST, or on a
    /// server a name locked by another client (423, EBUSY).
    private static func taken(_ error: CocoaError) -> Bool {
        error.code == .fileWriteFileExists || error.posixCode == .EEXIST || error.posixCode == .EBUSY
    }

    /// Writes one of the lock's temp files, under the tool's own name: on a local folder by an
    /// exclusive create, flushed (a leftover of this run's own name removed first); on a server,
    /// durable once it answers, by one `PUT`, which the server writes whole before it answers.
    private func writeTemporary(_ data: Data, to temp: URL) throws {
        if capabilities.contains(.durableWhenAnswered) { return try files.write(data, to: temp) }
        try? directories.removeItem(at: temp, recursively: false)
        try files.createFile(data, at: temp)
    }

    /// Puts the finished temp file `temp`, which holds `data`, at the lock's name unless
    /// something is there, in one atomic step: a hard link (an exclusive create where there are
    /// none) in a folder, `MOVE` with `Overwrite: F` on a server. On a server `temp` is gone once
    /// this returns; in a folder it stays.
    ///
    /// - Throws: EEXIST (or EBUSY from a server) when something is at the lock's name.
    private func place(_ temp: URL, holding data: Data) throws {
        if capabilities.contains(.noReplaceMove), !capabilities.contains(.hardLinks) {
            try directories.moveItem(at: temp, to: url, replacingExisting: false)
        } else {
            try HardLinks.place(temp, holding: data, at: url, directories: directories, files: files)
        }
    }

    private func verdict(_ record: Record?) -> Verdict {
        guard let record, let host = record.host, host == process.host else { return .watch }
        if let pid = record.pid, !process.isRunning(pid) { return .dead }
        if let boot = record.boot, !boot.isEmpty, !process.bootID.isEmpty, boot != process.bootID { return .dead }
        // A live process of this host (or one whose id was reused): this host's clock is the one
        // that wrote the heartbeat, so comparing it is sound.
        return clock().timeIntervalSince1970 - record.heartbeat < expiry ? .live : .dead
    }

    /// Watches the lock for the expiry, by time this process measures itself.
    ///
    /// - Returns: `true` when it stayed byte for byte the same, `nil` when it was removed
    ///   meanwhile (try to take it again).
    /// - Throws: ``SyncError/lockHeld(owner:)`` when it changed: its owner is alive.
    private func watch(_ found: Data) throws -> Bool? {
        var watched: TimeInterval = 0
        let step = max(expiry / 60, 0.001)
        while watched < expiry {
            wait(step)
            watched += step
            guard let now = try? files.read(from: url) else { return nil }
            if now != found {
                throw SyncError.lockHeld(owner: (try? JSONDecoder().decode(Record.self, from: now))?.owner ?? "unknown")
            }
        }
        return true
    }

    /// Moves the lock judged gone aside and checks it is the one judged.
    private func takeOver(_ judged: Data) throws {
        let stale = temporary("stale")
        do {
            try directories.moveItem(at: url, to: stale, replacingExisting: true)
        } catch let error as CocoaError where error.code == .fileNoSuchFile || error.code == .fileReadNoSuchFile {
            return  // released meanwhile: the caller tries to take it again
        } catch let error as CocoaError where error.posixCode == .EBUSY {
            // Locked on the server (WebDAV 423): its owner is writing it right now, so it lives.
            // An empty lock seen in that moment is not a torn one.
            throw SyncError.lockHeld(owner: "a run that is taking the lock right now")
        }
        defer { try? directories.removeItem(at: stale, recursively: false) }
        if let moved = try? files.read(from: stale), moved != judged {
            // Not the lock judged gone: another run's fresh one. Give it back.
            try? place(stale, holding: moved)
            throw SyncError.lockHeld(owner: (try? JSONDecoder().decode(Record.self, from: moved))?.owner ?? "unknown")
        }
    }

    /// Refreshes the heartbeat when a third of the expiry has passed since the last one.
    ///
    /// - Throws: ``SyncError/lockHeld(owner:)`` when another run took the lock over, or what
    ///   stopped the background heartbeat.
    func heartbeat() throws {
        if let failure = failure.withLock({ $0 }) { throw failure }
        try refresh(force: false)
    }

    /// Starts refreshing the heartbeat every `interval` until ``release()``, in the background;
    /// a failure is kept and thrown by the next ``heartbeat()``.
    ///
    /// It holds one of the ``BlockingExecutor``'s threads for the run's length, neither in the
    /// Swift concurrency pool nor on a Dispatch queue, so a run that blocks those with file
    /// system work cannot starve it; the executor starts another thread for any job the run
    /// hands out meanwhile, so it takes no worker that the run's own work waits for.
    ///
    /// - Parameter interval: Real seconds between refreshes; a third of the expiry by default.
    func startHeartbeat(every interval: TimeInterval? = nil) {
        let interval = interval ?? expiry / 3
        BlockingExecutor.shared.execute { [self] in
            while stop.wait(timeout: .now() + interval) == .timedOut {
                do {
                    try refresh(force: true)
                } catch {
                    let stopped = error as? SyncError ?? .writeFailed(url, UnderlyingError(error))
                    failure.withLock { $0 = stopped }
                    return
                }
            }
        }
    }

    private func refresh(force: Bool) throws {
        try lastBeat.withLock { last throws in
            let now = clock()
            guard force || now.timeIntervalSince(last.date) >= expiry / 3 else { return }
            // The version this run wrote last, where the replica told it: replaced only while it
            // is still that version, one request on S3 (`If-Match` on the ETag it answered). It
            // is this run's own record, so no look and no read are needed. Refused, the lock is
            // looked at below: another run's takeover, or only a version this run did not note.
            if let written = last.written, capabilities.contains(.replaceIfUnchanged) {
                last.written = nil
                if try replica.replace(url, with: try encoded(), ifStill: written, staging: temporary("beat")) {
                    last = (now, replica.versionWritten(at: url))
                    return
                }
            }
            // Where the replica can replace only what was seen, the lock is looked at before it
            // is read, and replaced only while it is that version: a takeover at any moment
            // since makes the heartbeat fail, never overwrite the other run's lock.
            var seen: FileMetadata?
            if capabilities.contains(.replaceIfUnchanged) {
                do {
                    seen = try directories.metadata(at: url)
                } catch let error as CocoaError
                    where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile
                    || error.posixCode == .ENOENT
                {
                    throw SyncError.lockHeld(owner: current()?.owner ?? "unknown")
                }
                // Any other failure (a server gone away) is the run's error as it is, not a lock
                // another run holds.
            }
            // A lock that is gone or not a record this build reads is not this run's; one that
            // cannot be read (an I/O error) is the run's error as it is.
            guard let record = try readChecked(url), record.owner == owner else {
                throw SyncError.lockHeld(owner: current()?.owner ?? "unknown")
            }
            let temp = temporary("beat")
            if let seen {
                guard try replica.replace(url, with: try encoded(), ifStill: seen, staging: temp) else {
                    throw SyncError.lockHeld(owner: current()?.owner ?? "unknown")
                }
                last = (now, replica.versionWritten(at: url))
            } else {
                try writeTemporary(try encoded(), to: temp)
                try directories.moveItem(at: temp, to: url, replacingExisting: true)
                last = (now, nil)
            }
        }
    }

    /// Stops the background heartbeat and removes the lock when it is still ours.
    func release() {
        stop.signal()
        lastBeat.withLock { _ in
            guard current()?.owner == owner else { return }
            try? directories.removeItem(at: url, recursively: false)
        }
    }

    private func current() -> Record? {
        read(url)
    }

    private func read(_ url: URL) -> Record? {
        guard let data = try? files.read(from: url) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// The record at `url`, or `nil` when nothing is there or it is not a record.
    ///
    /// - Throws: ``SyncError/readFailed(_:_:)`` when it is there but cannot be read.
    private func readChecked(_ url: URL) throws -> Record? {
        let data: Data
        do {
            data = try files.read(from: url)
        } catch let error as CocoaError
            where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile || error.posixCode == .ENOENT
        {
            return nil
        } catch {
            throw SyncError.readFailed(url, UnderlyingError(error))
        }
        return try? JSONDecoder().decode(Record.self, from: data)
    }
}
