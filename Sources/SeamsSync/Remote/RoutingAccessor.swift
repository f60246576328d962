import Foundation
import SeamsCore
import SeamsWebDAV

/// The engine's one boundary when the container is on a WebDAV server: each call goes to the
/// local file system or to the server, by the URL it is given; a copy between the two is an
/// upload or a download.
///
/// Transfers between the sides go through the local side's own boundary (the upload reads the
/// file, the download makes it piece by piece: ``FileAccessorProviding/createFile(at:pieces:)``),
/// so an in-memory file system takes the same path as this machine's; only a transport that
/// streams a file body opens the file itself, when the local side says it is this machine's
/// (``FileAccessorProviding/usesThisMachinesFileSystem``).
///
/// The engine itself never asks which side a URL is on: what a server cannot do (hard links,
/// permission bits, setting dates, flushing) it answers as a file system without them does (see
/// ``WebDAVAccessor``), and the engine's paths for such file systems (FAT, exFAT) do the rest.
struct RoutingAccessor: DirectoryAccessorProviding, FileAccessorProviding, ConditionalReplacing {
    let localDirectories: any DirectoryAccessorProviding
    let localFiles: any FileAccessorProviding
    let remote: WebDAVAccessor

    private func isRemote(_ url: URL) -> Bool { !url.isFileURL && remote.serves(url) }

    private func directories(_ url: URL) -> any DirectoryAccessorProviding { isRemote(url) ? remote : localDirectories }
    private func files(_ url: URL) -> any FileAccessorProviding { isRemote(url) ? remote : localFiles }

    // MARK: DirectoryAccessorProviding

    func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] { try directories(url).contentsOfDirectory(at: url) }
    func metadata(at url: URL) throws -> FileMetadata { try directories(url).metadata(at: url) }
    func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        try directories(url).createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories)
    }
    func removeItem(at url: URL, recursively: Bool) throws { try directories(url).removeItem(at: url, recursively: recursively) }
    func destinationOfSymbolicLink(at url: URL) throws -> String { try directories(url).destinationOfSymbolicLink(at: url) }
    func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        try directories(url).createSymbolicLink(at: url, withDestination: destination)
    }
    func synchronizeFile(at url: URL) throws { try directories(url).synchronizeFile(at: url) }
    func synchronizeDirectory(at url: URL) throws { try directories(url).synchronizeDirectory(at: url) }
    func setPermissions(_ permissions: UInt16, at url: URL) throws { try directories(url).setPermissions(permissions, at: url) }
    func setModificationDate(_ date: Date, at url: URL) throws { try directories(url).setModificationDate(date, at: url) }

    func synchronize(files: [URL], directories folders: [URL]) throws {
        let localFiles = files.filter { !isRemote($0) }
        let localFolders = folders.filter { !isRemote($0) }
        if !localFiles.isEmpty || !localFolders.isEmpty {
            try localDirectories.synchronize(files: localFiles, directories: localFolders)
        }
    }

    func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        guard isRemote(source) == isRemote(destination) else { throw crossing(destination) }
        try directories(source).moveItem(at: source, to: destination, replacingExisting: replacingExisting)
    }

    /// On the server, a `MOVE` the server refuses when the target changed since `expected` was
    /// read; on the local side a plain replacing move (the applier's checks around it are what a
    /// file system without an atomic exchange has).
    func moveItem(at source: URL, to destination: URL, ifStill expected: FileMetadata) throws -> Bool {
        guard isRemote(source) == isRemote(destination) else { throw crossing(destination) }
        guard isRemote(destination) else {
            try localDirectories.moveItem(at: source, to: destination, replacingExisting: true)
            return true
        }
        return try remote.moveItem(at: source, to: destination, ifStill: expected)
    }

    func linkItem(at source: URL, to destination: URL) throws {
        guard isRemote(source) == isRemote(destination) else { throw crossing(destination) }
        try directories(source).linkItem(at: source, to: destination)
    }

    func exchangeItems(at first: URL, and second: URL) throws -> Bool {
        guard !isRemote(first), !isRemote(second) else { return false }
        return try localDirectories.exchangeItems(at: first, and: second)
    }

    /// A copy on one side is that side's copy; between the sides, an upload or a download of each
    /// file (a folder is made and filled item by item). A download gets the server's date.
    ///
    /// An upload is one `PUT` with `If-None-Match: *` (``WebDAVAccessor/upload(contentsOf:toNewName:)``),
    /// not an exclusive create under a `LOCK`: the engine copies only to its own temp names, which
    /// hold the run's random id, so no other client makes the same name; the lock file, which
    /// must be exclusive, is made with ``createFile(_:at:)``.
    func copyItem(at source: URL, to destination: URL) throws {
        switch (isRemote(source), isRemote(destination)) {
        case (false, false): try localDirectories.copyItem(at: source, to: destination)
        case (true, true): try remote.copyItem(at: source, to: destination)
        case (false, true): try upload(source, to: destination)
        case (true, false): try download(source, to: destination)
        }
    }

    private func upload(_ source: URL, to destination: URL) throws {
        let found = try localDirectories.metadata(at: source)
        switch found.kind {
        case .directory:
            try remote.createDirectory(at: destination, withIntermediateDirectories: false)
            for entry in try localDirectories.contentsOfDirectory(at: source) {
                try upload(source.appending(path: entry.name), to: destination.appending(path: entry.name))
            }
        case .file:
            try remote.upload(contentsOf: source, from: localFiles, toNewName: destination)
        case .symbolicLink, .other:
            throw CocoaError.fileSystemError(errno: ENOTSUP, path: destination.absoluteString, writing: true)
        }
    }

    private func download(_ source: URL, to destination: URL) throws {
        let found = try remote.metadata(at: source)
        if found.kind == .directory {
            try localDirectories.createDirectory(at: destination, withIntermediateDirectories: false)
            for entry in try remote.contentsOfDirectory(at: source) {
                try download(source.appending(path: entry.name), to: destination.appending(path: entry.name))
            }
            return
        }
        try remote.download(source, toNewFile: destination, in: localFiles)
        try localDirectories.setModificationDate(found.modificationDate, at: destination)
    }

    private func crossing(_ url: URL) -> CocoaError {
        CocoaError.fileSystemError(errno: EXDEV, path: url.absoluteString, writing: true)
    }

    // MARK: FileAccessorProviding

    func read(from url: URL) throws -> Data { try files(url).read(from: url) }
    func write(_ data: Data, to url: URL) throws { try files(url).write(data, to: url) }
    func fileExists(at url: URL) -> Bool { files(url).fileExists(at: url) }
    func createFile(_ data: Data, at url: URL) throws { try files(url).createFile(data, at: url) }
    func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        try files(url).createFile(at: url, pieces: nextPiece)
    }

    func contentsEqual(_ first: URL, _ second: URL) throws -> Bool {
        switch (isRemote(first), isRemote(second)) {
        case (false, false): return try localFiles.contentsEqual(first, second)
        default:
            // Sizes first: most differing files differ in size, and then nothing is downloaded.
            if try metadata(at: first).size != metadata(at: second).size { return false }
            // A local side that is not this machine's file system has no temp folder of ours.
            guard localFiles.usesThisMachinesFileSystem else { return try read(from: first) == read(from: second) }
            // Each server file is downloaded to a temporary file and compared there, in pieces.
            var downloads: [URL] = []
            defer { for file in downloads { try? localDirectories.removeItem(at: file, recursively: false) } }
            func local(_ url: URL) throws -> URL {
                guard isRemote(url) else { return url }
                let file = FileManager.default.temporaryDirectory.appending(path: "seams-compare-\(UUID().uuidString)")
                try remote.download(url, toNewFile: file, in: localFiles)
                downloads.append(file)
                return file
            }
            return try localFiles.contentsEqual(local(first), local(second))
        }
    }
}
