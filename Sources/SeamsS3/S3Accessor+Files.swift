public import Foundation
public import SeamsCore

extension S3Accessor: FileAccessorProviding {
    /// The object's bytes (`GetObject`).
    public func read(from url: URL) throws -> Data {
        let key = key(url)
        return try request(url, writing: false) { () throws(S3Error) in try client.getObject(key).1 }
    }

    /// Replaces the object (`PutObject`, written whole before the server answers).
    public func write(_ data: Data, to url: URL) throws {
        let key = key(url)
        try request(url, writing: true) { () throws(S3Error) in try client.putObject(key, body: data) }
    }

    /// Whether a file or a folder is at `url`.
    public func fileExists(at url: URL) -> Bool {
        ((try? find(url)) ?? nil) != nil
    }

    /// Creates the object only if no object has its key (`PutObject` with `If-None-Match: *`),
    /// checked and written in one step on the server: of two clients that try at once, exactly
    /// one succeeds (EEXIST for the other).
    public func createFile(_ data: Data, at url: URL) throws {
        let key = key(url)
        rememberCreated(key: key, size: data.count, etag: try putNew(data, key: key, url: url))
    }

    /// Creates the object at `url` from `data` with one `PutObject` and `If-None-Match: *`, as
    /// ``createFile(_:at:)`` does, for a file written straight to its name.
    ///
    /// - Returns: The new object's metadata: its size, and its ETag and date as the answer gave
    ///   them (``S3Client/putObjectDated(_:body:condition:metadata:)``).
    /// - Throws: EEXIST when the key is taken; the server's errors as file-system errors.
    @discardableResult
    public func createObject(_ data: Data, at url: URL) throws -> FileMetadata {
        try createObject(at: url, size: Int64(data.count)) { data }
    }

    /// ``createObject(_:at:)`` with the bytes read by `contents` (about `size` of them) only
    /// once the write may start: a body of over ``wholeWriteSlotThreshold`` bytes waits for one
    /// of the ``partsInFlight`` slots first, so such bodies are never all in memory at once.
    ///
    /// - Throws: EEXIST when the key is taken; what `contents` throws; the server's errors.
    public func createObject(at url: URL, size: Int64, contents: () throws -> Data) throws -> FileMetadata {
        try holdingSlot(forWholeWriteOf: size) { try createObject(whole: try contents(), at: url) }
    }

    private func createObject(whole data: Data, at url: URL) throws -> FileMetadata {
        let key = key(url)
        let (etag, date) = try request(url, writing: true) { () throws(S3Error) in
            try client.putObjectDated(key, body: data, condition: .ifAbsent)
        }
        // A server that gave no ETag or no date: the object as a look finds it.
        guard !etag.isEmpty, let date else { return try metadata(at: url) }
        return Self.metadata(S3Object(key: key, size: Int64(data.count), etag: etag, lastModified: date))
    }

    /// `PutObject` with `If-None-Match: *`; the answer's ETag.
    private func putNew(_ data: Data, key: String, url: URL) throws -> String {
        try request(url, writing: true) { () throws(S3Error) in
            try client.putObject(key, body: data, condition: .ifAbsent)
        }
    }

    /// Creates the object only if absent, from `nextPiece`'s pieces: one `PutObject` when they
    /// come to at most ``partSize`` bytes, else a multipart upload of parts of ``partSize``
    /// completed with `If-None-Match: *`, so at most a part is held in memory and the object
    /// appears whole or not at all.
    public func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        try createFile(at: url, expectedSize: nil, pieces: nextPiece)
    }

    /// ``createFile(at:pieces:)`` for pieces that come to about `expectedSize` bytes (`nil`:
    /// unknown): when that is more than a part, no part is read before the upload has a slot
    /// for it (``partsInFlight``), so an upload waiting for one holds none.
    func createFile(at url: URL, expectedSize: Int64?, pieces nextPiece: () throws -> Data?) throws {
        let key = key(url)
        var buffer = Data()
        var ended = false
        // The next part: `partSize` bytes, or what is left after the last piece; a piece that is
        // a whole part is passed on as it is, not copied.
        func nextPart() throws -> Data? {
            while !ended, buffer.count < partSize {
                guard let piece = try nextPiece() else {
                    ended = true
                    break
                }
                if buffer.isEmpty, piece.count == partSize { return piece }
                buffer.append(piece)
            }
            guard !buffer.isEmpty else { return nil }
            let part = buffer.prefix(partSize)
            buffer = Data(buffer.dropFirst(part.count))
            return Data(part)
        }
        var pending: Data?
        if expectedSize.map({ $0 <= Int64(partSize) }) ?? true {
            // A body known to be over the threshold is read holding a slot, as a part is; the
            // slot is freed before any upload in parts, which takes slots of its own.
            let whole = try holdingSlot(forWholeWriteOf: expectedSize ?? 0) { () throws -> Data? in
                let first = try nextPart() ?? Data()
                guard ended, buffer.isEmpty else {
                    pending = first
                    return nil
                }
                let etag = try request(url, writing: true) { () throws(S3Error) in
                    try client.putObject(key, body: first, condition: .ifAbsent)
                }
                rememberCreated(key: key, size: first.count, etag: etag)
                return first
            }
            if whole != nil { return }
        }
        forgetListings()
        do {
            _ = try guardedWithFiles {
                try client.putObjectInParts(key, condition: .ifAbsent, metadata: [:], slots: partSlots) {
                    () throws -> Data? in
                    if let part = pending {
                        pending = nil
                        return part
                    }
                    return try nextPart()
                }
            }
        } catch let error as S3Error {
            throw Self.error(error, url: url, writing: true)
        }
    }

    /// Uploads the local file `localFile` (read through `files`) to `url`, only if no object has
    /// that key: read and sent a part at a time when `files` is this machine's file system, so a
    /// file of gigabytes is never held in memory; read whole through `files` otherwise (and
    /// still sent in parts when larger than ``partSize``).
    ///
    /// - Throws: EEXIST when the key is taken; the local file's own errors (ENOENT, EACCES).
    public func upload(contentsOf localFile: URL, from files: any FileAccessorProviding, toNewName url: URL) throws {
        guard files.usesThisMachinesFileSystem else {
            var whole: Data? = try files.read(from: localFile)
            return try createFile(at: url) { () -> Data? in
                defer { whole = nil }
                return whole
            }
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: localFile)
        } catch {
            throw CocoaError.fileSystemError(errno: Self.posixCode(error) ?? EIO, path: localFile.path, writing: false)
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map(Int64.init)
        do {
            try handle.seek(toOffset: 0)
        } catch {
            throw CocoaError.fileSystemError(errno: Self.posixCode(error) ?? EIO, path: localFile.path, writing: false)
        }
        try createFile(at: url, expectedSize: size) { () throws -> Data? in
            do {
                let piece = try handle.read(upToCount: partSize)
                return piece?.isEmpty == false ? piece : nil
            } catch {
                throw CocoaError.fileSystemError(
                    errno: Self.posixCode(error) ?? EIO, path: localFile.path, writing: false)
            }
        }
    }

    /// Makes the new local file `localFile` (through `files`, a piece at a time) from the object
    /// at `url`, with ranged `GET`s each asking for the version the first read (`If-Match`): an
    /// object saved again during the download fails it with EAGAIN, never mixes two versions.
    ///
    /// - Returns: The object's metadata, as the download read it.
    /// - Throws: ENOENT for a missing object, EAGAIN when it changed during the download, or the
    ///   local file's errors; a half-made `localFile` is removed.
    @discardableResult
    public func download(_ url: URL, toNewFile localFile: URL, in files: any FileAccessorProviding) throws
        -> FileMetadata
    {
        do {
            return Self.metadata(
                try guardedWithFiles {
                    try client.download(key(url), toNewFile: localFile, in: files, pieceSize: partSize)
                })
        } catch let error as S3Error where error.isPreconditionFailed {
            throw Self.error(
                EAGAIN, url: url, writing: false, reason: "the object changed on the server while it was downloaded")
        } catch let error as S3Error {
            // `changedDuringDownload` is EAGAIN too, from a server that ignores If-Match.
            throw Self.error(error, url: url, writing: false)
        }
    }

    private static func posixCode(_ error: any Error) -> Int32? {
        if let posix = (error as? CocoaError)?.posixCode { return posix.rawValue }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying?.domain == NSPOSIXErrorDomain ? underlying.map { Int32($0.code) } : nil
    }
}
