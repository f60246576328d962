import Foundation
import SeamsCore

/// Loads and commits a pair's archive in the state folder, through the boundaries.
///
/// A commit is atomic and durable: temp file, flush, rename over the old archive, flush the
/// folder. A damaged or foreign file is moved aside (`….corrupt-<date>`) and the state is rebuilt
/// from nothing, in which every difference becomes a kept-both conflict and nothing is deleted; a
/// file from a newer version is an error and stays untouched.
struct ArchiveStore: Sendable {
    let directories: any DirectoryAccessorProviding
    let files: any FileAccessorProviding
    let stateDirectory: URL
    let localRoot: URL
    let containerRoot: URL
    /// Where the state is kept between runs of one engine (`watch`), or `nil`: read at every run.
    var memory: StateMemory? = nil

    /// The archive file of this pair: `pair-<hash>.archive`, the hash of both roots' paths.
    var url: URL { stateFile(extension: "archive") }

    /// Where version 1 (JSON) kept the pair's archive; read when `url` does not exist yet, and
    /// removed by the next commit.
    var legacyURL: URL { stateFile(extension: "json") }

    private func stateFile(extension suffix: String) -> URL {
        let key = localRoot.standardizedFileURL.path + "\u{0}" + Self.identity(containerRoot, standardized: true)
        let hash = Checksum.fnv1a(key.utf8)
        let hex = String(hash, radix: 16)
        let name = "pair-" + String(repeating: "0", count: 16 - hex.count) + hex + "." + suffix
        return stateDirectory.appending(path: name, directoryHint: .notDirectory)
    }

    /// How the archive names a root: its path for a folder, the whole URL for a server's
    /// collection (two servers may serve the same path).
    static func identity(_ root: URL, standardized: Bool = false) -> String {
        guard root.isFileURL else { return root.absoluteString }
        return standardized ? root.standardizedFileURL.path : root.path
    }

    private var emptyArchive: Archive {
        Archive(localRoot: localRoot.path, containerRoot: Self.identity(containerRoot))
    }

    /// What ``load(moveAside:now:)`` found.
    struct Loaded {
        /// The archive to sync against.
        var archive: Archive
        /// Whether the stored one was damaged or foreign, so this one was rebuilt from nothing.
        var rebuilt: Bool
        /// Whether it came from a version 1 file at ``legacyURL``, which the next commit removes.
        var fromLegacyFile: Bool
        /// Whether it was read from a file of an older version than this build writes (which
        /// the run then rewrites, so later runs read the compact form).
        var fromOlderVersion = false
    }

    /// The stored archive, an empty one on the first run, or a rebuilt (empty) one.
    ///
    /// - Parameter moveAside: Whether a damaged file is renamed out of the way (not in a dry run).
    /// - Returns: The archive, whether it was rebuilt, and where it came from.
    func load(moveAside: Bool, now: Date) throws -> Loaded {
        let file = memory == nil ? nil : fingerprint()
        if let memory, let file, let kept = memory.archive(at: url, file: file) {
            return Loaded(archive: kept, rebuilt: false, fromLegacyFile: false)
        }
        if let data = try read(url) {
            let loaded = try decode(data, at: url, moveAside: moveAside, now: now, legacy: false)
            // Looked at before the read: a file replaced in between is read again next time.
            if let memory, let file, !loaded.rebuilt, !loaded.fromOlderVersion {
                memory.keep(loaded.archive, at: url, file: file)
            }
            return loaded
        }
        if let data = try read(legacyURL) {
            return try decode(data, at: legacyURL, moveAside: moveAside, now: now, legacy: true)
        }
        return Loaded(archive: emptyArchive, rebuilt: false, fromLegacyFile: false)
    }

    /// What tells the state file apart from any other file at its name, or `nil` when there is none.
    private func fingerprint() -> StateMemory.Fingerprint? {
        guard let metadata = try? directories.metadata(at: url), metadata.kind == .file else { return nil }
        return StateMemory.Fingerprint(metadata)
    }

    /// The file's bytes, or `nil` when there is no such file.
    private func read(_ url: URL) throws -> Data? {
        do {
            return try files.read(from: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return nil
        } catch {
            throw SyncError.readFailed(url, UnderlyingError(error))
        }
    }

    private func decode(_ data: Data, at url: URL, moveAside: Bool, now: Date, legacy: Bool) throws -> Loaded {
        do {
            let archive = try ArchiveCodec.decode(data)
            if archive.localRoot == localRoot.path, archive.containerRoot == Self.identity(containerRoot) {
                let older = legacy || ArchiveCodec.version(of: data).map { $0 < ArchiveCodec.currentVersion } ?? false
                return Loaded(archive: archive, rebuilt: false, fromLegacyFile: legacy, fromOlderVersion: older)
            }
        } catch .unsupportedVersion(let version) {
            throw SyncError.unsupportedState(url, version: version)
        } catch .corrupt {}
        if moveAside {
            let aside = url.deletingLastPathComponent().appending(
                path: url.lastPathComponent + ".corrupt-" + String(Int(now.timeIntervalSince1970)),
                directoryHint: .notDirectory)
            do {
                try directories.moveItem(at: url, to: aside, replacingExisting: true)
            } catch {
                throw SyncError.writeFailed(aside, UnderlyingError(error))
            }
        }
        return Loaded(archive: emptyArchive, rebuilt: true, fromLegacyFile: false)
    }

    /// Commits `archive` atomically and durably.
    ///
    /// - Parameters:
    ///   - archive: The new state.
    ///   - runID: This run's id, for the temp name.
    ///   - removingLegacyFile: Whether a version 1 file was read and is now superseded.
    func commit(_ archive: Archive, runID: String, removingLegacyFile: Bool = false) throws {
        try place(try stage(archive, runID: runID), removingLegacyFile: removingLegacyFile)
    }

    /// Writes `archive` to a temp name beside the state and flushes it, for ``place(_:removingLegacyFile:)``
    /// to put in place; until then the old state stands.
    ///
    /// - Returns: The temp file.
    func stage(_ archive: Archive, runID: String) throws -> URL {
        let temp = temporaryURL(runID: runID)
        try discarding(temp) {
            // Made with `open(O_EXCL)` and written a piece at a time (an atomic write would make a
            // temp of its own, and the whole file would stand in memory beside the archive read),
            // then flushed before it replaces the old one.
            var pieces = ArchiveCodec.Pieces(archive, pieceSize: memory == nil ? 1 << 20 : .max)
            guard let memory else {
                try files.createFile(at: temp) { pieces.next() }
                try directories.synchronizeFile(at: temp)
                return
            }
            // Kept in memory as written too, for the next run of this engine: made in one piece,
            // which is then both the file's bytes and the table kept.
            var file = Data()
            try files.createFile(at: temp) {
                guard let piece = pieces.next() else { return nil }
                file = piece
                return piece
            }
            try directories.synchronizeFile(at: temp)
            let written = pieces.archive(
                writtenTo: file, localRoot: archive.localRoot, containerRoot: archive.containerRoot,
                replica: archive.replica)
            memory.stage(written, as: temp)
        }
        return temp
    }

    /// Puts a state written by ``stage(_:runID:)`` in place of the old one, durably.
    ///
    /// - Parameters:
    ///   - temp: The staged file.
    ///   - removingLegacyFile: Whether a version 1 file was read and is now superseded.
    func place(_ temp: URL, removingLegacyFile: Bool) throws {
        try discarding(temp) {
            try directories.moveItem(at: temp, to: url, replacingExisting: true)
            if removingLegacyFile { try directories.removeItem(at: legacyURL, recursively: false) }
            try directories.synchronizeDirectory(at: stateDirectory)
        }
        memory?.placed(temp, at: url, file: fingerprint())
    }

    /// Runs `body`; when it throws, removes `temp` and throws a `SyncError` as it came, anything
    /// else as ``SyncError/writeFailed(_:_:)`` of the state file.
    private func discarding(_ temp: URL, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            discard(temp)
            throw error as? SyncError ?? SyncError.writeFailed(url, UnderlyingError(error))
        }
    }

    /// Removes a staged state that will not be placed (what is left is removed by the next run).
    func discard(_ temp: URL) {
        try? directories.removeItem(at: temp, recursively: false)
    }

    /// Creates the state folder if needed and removes what crashed commits of this pair left
    /// there. Called only by a run that holds the container's lock.
    func prepare() throws {
        do {
            try directories.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw SyncError.writeFailed(stateDirectory, UnderlyingError(error))
        }
        removeLeftoverTemporaries()
    }
}
