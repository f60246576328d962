import Foundation
import SeamsCore

/// Copies and comparisons between the two replicas of a run: within one replica by the store
/// itself, between a local folder and a remote replica by upload or download through the local
/// side's own boundaries.
///
/// So an in-memory local side (the crash suites') takes the path this machine's takes: an upload
/// reads the file through the local boundary (or the transport streams the file, where the
/// boundary is this machine's file system), a download makes the file through it piece by piece
/// (``FileAccessorProviding/createFile(at:pieces:)``).
struct ReplicaTransfers: Sendable {
    let local: any Replica
    let container: any Replica

    /// The replica of `side`.
    func replica(_ side: Side) -> any Replica { side == .local ? local : container }

    /// Copies the item at `source` on `from` to `destination` on `to`, where nothing is yet: a
    /// file, a link, or a folder with everything in it.
    ///
    /// Within a replica that copies by itself (``ReplicaCapabilities/storeSideCopyAndMove``: a
    /// file system's copy, a server's `COPY`), the replica's own copy; between a local folder and
    /// a remote replica, an upload or a download of each file (a folder is made and filled item
    /// by item; a download gets the remote file's date where the local side can set dates).
    /// Links do not travel to or from a remote replica (ENOTSUP).
    func copy(_ source: URL, from: Side, to destination: URL, on to: Side) throws {
        let origin = replica(from)
        let target = replica(to)
        switch (origin as? any RemoteReplica, target as? any RemoteReplica) {
        case (nil, nil), (.some, .some):
            // Two replicas on this machine's file systems share the local boundary.
            guard from == to || (origin.can(.localIdentities) && target.can(.localIdentities)) else {
                throw CocoaError.fileSystemError(errno: EXDEV, path: destination.absoluteString, writing: true)
            }
            if origin.can(.storeSideCopyAndMove) {
                try origin.directories.copyItem(at: source, to: destination)
            } else {
                try copyThroughMemory(source, in: origin, to: destination)
            }
        case (nil, .some(let remote)): try upload(source, from: origin, to: destination, on: remote)
        case (.some(let remote), nil): try download(source, from: remote, to: destination, in: target)
        }
    }

    /// Whether ``copy(_:from:to:on:)`` from `from` to `to` is the source store's own copy, which
    /// can read both files as it copies (``DirectoryAccessorProviding/copyItemReadingMetadata(at:to:)``):
    /// two replicas of this machine's file systems, the source's able to copy by itself.
    func copiesInStore(from: Side, to: Side) -> Bool {
        let origin = replica(from)
        let target = replica(to)
        guard !(origin is any RemoteReplica), !(target is any RemoteReplica) else { return false }
        return origin.can(.storeSideCopyAndMove)
            && (from == to || (origin.can(.localIdentities) && target.can(.localIdentities)))
    }

    /// A copy within a replica that cannot copy by itself: each file read and written again
    /// through its boundaries.
    private func copyThroughMemory(_ source: URL, in replica: any Replica, to destination: URL) throws {
        let found = try replica.directories.metadata(at: source)
        switch found.kind {
        case .directory:
            try replica.directories.createDirectory(at: destination, withIntermediateDirectories: false)
            for entry in try replica.directories.contentsOfDirectory(at: source) {
                try copyThroughMemory(
                    source.appending(path: entry.name), in: replica, to: destination.appending(path: entry.name))
            }
        case .file:
            try replica.files.createFile(try replica.files.read(from: source), at: destination)
        case .symbolicLink:
            try replica.directories.createSymbolicLink(
                at: destination, withDestination: try replica.directories.destinationOfSymbolicLink(at: source))
        case .other:
            throw CocoaError.fileSystemError(errno: ENOTSUP, path: destination.absoluteString, writing: true)
        }
    }

    private func upload(_ source: URL, from local: any Replica, to destination: URL, on remote: any RemoteReplica)
        throws
    {
        let found = try local.directories.metadata(at: source)
        switch found.kind {
        case .directory:
            try remote.directories.createDirectory(at: destination, withIntermediateDirectories: false)
            for entry in try local.directories.contentsOfDirectory(at: source) {
                try upload(
                    source.appending(path: entry.name), from: local, to: destination.appending(path: entry.name),
                    on: remote)
            }
        case .file:
            try remote.upload(source, from: local, to: destination)
        case .symbolicLink, .other:
            throw CocoaError.fileSystemError(errno: ENOTSUP, path: destination.absoluteString, writing: true)
        }
    }

    private func download(_ source: URL, from remote: any RemoteReplica, to destination: URL, in local: any Replica)
        throws
    {
        let found = try remote.directories.metadata(at: source)
        if found.kind == .directory {
            try local.directories.createDirectory(at: destination, withIntermediateDirectories: false)
            for entry in try remote.directories.contentsOfDirectory(at: source) {
                try download(
                    source.appending(path: entry.name), from: remote, to: destination.appending(path: entry.name),
                    in: local)
            }
            return
        }
        try remote.download(source, to: destination, in: local)
        if local.can(.permissionsAndDates) {
            try local.directories.setModificationDate(found.modificationDate, at: destination)
        }
    }

    /// Whether the file at `first` on `firstSide` and the one at `second` on `secondSide` hold
    /// the same bytes: compared piece by piece on this machine's file system; a remote file is
    /// downloaded to a temporary file first, unless the sizes already differ (most differing
    /// files do, and then nothing is downloaded).
    func contentsEqual(_ first: URL, on firstSide: Side, _ second: URL, on secondSide: Side) throws -> Bool {
        let (one, other) = (replica(firstSide), replica(secondSide))
        guard one is any RemoteReplica || other is any RemoteReplica else {
            return try local.files.contentsEqual(first, second)
        }
        if try one.directories.metadata(at: first).size != other.directories.metadata(at: second).size { return false }
        // A local side that is not this machine's file system has no temp folder of ours.
        guard local.files.usesThisMachinesFileSystem else {
            return try one.files.read(from: first) == other.files.read(from: second)
        }
        var downloads: [URL] = []
        defer { for file in downloads { try? local.directories.removeItem(at: file, recursively: false) } }
        func here(_ url: URL, on replica: any Replica) throws -> URL {
            guard let remote = replica as? any RemoteReplica else { return url }
            let file = FileManager.default.temporaryDirectory.appending(path: "seams-compare-\(UUID().uuidString)")
            downloads.append(file)
            try remote.download(url, to: file, in: local)
            return file
        }
        return try local.files.contentsEqual(here(first, on: one), here(second, on: other))
    }
}

/// Files whose contents and folders whose names are to be made durable, by side.
struct Durables: Sendable {
    private(set) var files: [Side: [URL]] = [:]
    private(set) var folders: [Side: Set<URL>] = [:]

    init() {}

    /// Nothing to flush.
    var isEmpty: Bool { files.values.allSatisfy(\.isEmpty) && folders.values.allSatisfy(\.isEmpty) }

    mutating func add(file: URL, on side: Side) { files[side, default: []].append(file) }

    mutating func add(folder: URL, on side: Side) { folders[side, default: []].insert(folder) }

    mutating func add(folders more: some Sequence<URL>, on side: Side) { folders[side, default: []].formUnion(more) }

    mutating func formUnion(_ other: Durables) {
        for (side, more) in other.files { files[side, default: []] += more }
        for (side, more) in other.folders { folders[side, default: []].formUnion(more) }
    }

    /// Whether a folder to flush on `side` is `item` or inside it.
    func holds(anyInside item: URL, on side: Side) -> Bool {
        guard let folders = folders[side] else { return false }
        let path = item.path
        return folders.contains { $0.path == path || $0.path.hasPrefix(path + "/") }
    }

    /// Folders in the order they are flushed: deepest first.
    static func deepestFirst(_ folders: some Sequence<URL>) -> [URL] {
        folders.sorted { $0.path.utf8.count > $1.path.utf8.count }
    }
}

extension ReplicaTransfers {
    /// Makes `durables` durable on each replica that is made durable by a flush
    /// (``ReplicaCapabilities/flush``); one whose writes are durable when answered is asked
    /// nothing. When both replicas are this machine's file systems
    /// (``ReplicaCapabilities/localIdentities``) they share the local boundary, and one call
    /// covers both (one `syncfs` on the live file system).
    func flush(_ durables: Durables) throws {
        guard !durables.isEmpty else { return }
        if local.can([.flush, .localIdentities]), container.can([.flush, .localIdentities]) {
            let files = Side.allCases.flatMap { durables.files[$0] ?? [] }
            let folders = Side.allCases.flatMap { Durables.deepestFirst(durables.folders[$0] ?? []) }
            return try local.flush(files: files, folders: folders)
        }
        for side in Side.allCases {
            try replica(side).flush(
                files: durables.files[side] ?? [], folders: Durables.deepestFirst(durables.folders[side] ?? []))
        }
    }
}
