import Foundation
import SeamsCore

/// A container's identity and generation: who it is, and how many commits it has seen.
///
/// The container keeps it in `.seams-replica` (written at each commit, atomically and durably);
/// each pair's state records what it saw at its last commit. A container whose marker is
/// missing, names another identity, or is older than the state knows is not the replica the
/// state describes (another stick mounted at the same place, a container emptied and refilled,
/// one restored from an older backup): the run treats the pair as new, so nothing is deleted and
/// every difference is kept as both versions.
struct ReplicaIdentity: Hashable, Sendable, Codable {
    /// A random id made when the container was first synced.
    var id: String
    /// Grows by one at each commit of any pair that syncs with the container.
    var generation: UInt64

    /// Creates an identity.
    init(id: String, generation: UInt64) {
        self.id = id
        self.generation = generation
    }
}

/// Reads and writes a container's `.seams-replica`.
struct ReplicaMarker: Sendable {
    /// What the container holds.
    enum Found: Hashable {
        /// No marker: never synced, or emptied, or another folder.
        case missing
        /// A file that is not a marker this build reads.
        case unreadable
        /// The container's identity.
        case marker(ReplicaIdentity)
    }

    private struct File: Codable {
        var format: String
        var id: String
        var generation: UInt64
    }

    static let fileName = OwnNames.replicaMarker
    private static let format = "seams-sync.replica.1"

    /// The container.
    let replica: any Replica

    var directories: any DirectoryAccessorProviding { replica.directories }
    var files: any FileAccessorProviding { replica.files }

    var container: URL { replica.root }

    var url: URL { container.appending(path: Self.fileName, directoryHint: .notDirectory) }

    /// The marker, if any.
    ///
    /// - Throws: ``SyncError/readFailed(_:_:)`` when it exists but cannot be read.
    func read() throws -> Found {
        let data: Data
        do {
            data = try files.read(from: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return .missing
        } catch {
            throw SyncError.readFailed(url, UnderlyingError(error))
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), file.format == Self.format, !file.id.isEmpty
        else {
            return .unreadable
        }
        return .marker(ReplicaIdentity(id: file.id, generation: file.generation))
    }

    /// Replaces the marker atomically (temp file, flush, rename); the caller flushes the container
    /// folder, with the run's other changes, before it commits the state.
    ///
    /// - Parameter staged: The marker's temp file when ``stage(_:runID:)`` wrote it earlier and a
    ///   flush has made it durable since (`nil`: written and flushed now).
    /// - Returns: The marker's URL.
    func place(_ identity: ReplicaIdentity, runID: String, staged: URL? = nil) throws -> URL {
        let temp = staged ?? temporaryURL(runID: runID)
        do {
            if staged == nil {
                let data = try Self.encoded(identity)
                // Content durable before the name: a power cut may keep the rename and lose an
                // unflushed content, and a torn marker reads as another container.
                if replica.capabilities.contains(.durableWhenAnswered) {
                    // A server writes the body whole before it answers: one `PUT`, where creating
                    // the file exclusively would add a `LOCK` and an `UNLOCK`.
                    try files.write(data, to: temp)
                    try replica.flush(file: temp)
                } else {
                    // Made and flushed in one call (`open(O_EXCL)`, `write`, `fsync`), where an
                    // atomic write would flush a temp of its own and rename it first.
                    try files.createFile(data, at: temp)
                }
            }
            try directories.moveItem(at: temp, to: url, replacingExisting: true)
            return url
        } catch {
            discard(temp)
            throw SyncError.writeFailed(url, UnderlyingError(error))
        }
    }

    /// Whether ``stage(_:runID:)`` can write the marker ahead of a flush that covers it: on a
    /// replica made durable by a flush, where it saves the marker a flush of its own.
    var stagesAhead: Bool { replica.can(.flush) && !replica.can(.durableWhenAnswered) }

    /// Writes the marker to its temp name without flushing it, for a flush of the run's own to
    /// make durable before ``place(_:runID:staged:)`` renames it.
    ///
    /// - Returns: The temp file.
    func stage(_ identity: ReplicaIdentity, runID: String) throws -> URL {
        let temp = temporaryURL(runID: runID)
        do {
            var data: Data? = try Self.encoded(identity)
            try files.createFile(at: temp) {
                defer { data = nil }
                return data
            }
            return temp
        } catch {
            discard(temp)
            throw SyncError.writeFailed(url, UnderlyingError(error))
        }
    }

    /// Removes a staged marker that will not be placed.
    func discard(_ temp: URL) {
        try? directories.removeItem(at: temp, recursively: false)
    }

    private func temporaryURL(runID: String) -> URL {
        container.appending(path: "\(Snapshot.temporaryPrefix)replica-\(runID)", directoryHint: .notDirectory)
    }

    private static func encoded(_ identity: ReplicaIdentity) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(File(format: format, id: identity.id, generation: identity.generation))
    }
}

/// Whether the container is the replica a pair's state describes, and the identity to commit.
struct ReplicaCheck: Hashable {
    /// Why the state does not describe this container (`nil`: it does).
    let mismatch: String?
    /// The identity the next commit writes, one generation on.
    let next: ReplicaIdentity

    init(archive: Archive, found: ReplicaMarker.Found, newID: () -> String = { UUID().uuidString.lowercased() }) {
        var seen: ReplicaIdentity?
        if case .marker(let identity) = found { seen = identity }
        switch (archive.replica, found) {
        case (nil, _):
            // The first sync of this pair, or a state from before identities: adopt the container's.
            mismatch = nil
        case (let known?, .missing):
            mismatch =
                "the container has no \(ReplicaMarker.fileName) although this pair synced with it before "
                + "(another folder, or one emptied and refilled; it was \(known.id))"
        case (_, .unreadable):
            mismatch = "the container's \(ReplicaMarker.fileName) cannot be read"
        case (let known?, .marker(let identity)) where identity.id != known.id:
            mismatch =
                "the container is another one than this pair last synced with (identity \(identity.id), "
                + "expected \(known.id); another disk at the same place?)"
        case (let known?, .marker(let identity)) where identity.generation < known.generation:
            mismatch =
                "the container is an older copy than the one this pair last synced with (generation "
                + "\(identity.generation), expected at least \(known.generation); restored from a backup?)"
        case (_, .marker):
            mismatch = nil
        }
        let id = seen?.id ?? archive.replica?.id ?? newID()
        let generation = max(seen?.generation ?? 0, mismatch == nil ? archive.replica?.generation ?? 0 : 0) + 1
        next = ReplicaIdentity(id: id, generation: generation)
    }
}
