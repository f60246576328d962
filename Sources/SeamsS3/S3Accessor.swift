import Crypto
public import Foundation
public import SeamsCore

/// A prefix of an S3 bucket, seen through the same boundaries as a local folder:
/// `DirectoryAccessorProviding` and `FileAccessorProviding`, over an ``S3Client``.
///
/// Items are named by `s3://` URLs: `s3://bucket/notes/a.txt` is the object `notes/a.txt` of
/// `bucket`. A sync engine written against the two protocols runs against a bucket unchanged;
/// tests give the client `InMemoryS3Server` from `SeamsTesting` as its transport, and no socket
/// is opened.
///
/// ```swift
/// let client = S3Client(
///     endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com")!, bucket: "my-bucket",
///     region: "eu-west-1", credentials: keys, transport: AsyncHTTPClientTransport())
/// let bucket = S3Accessor(client: client)
/// let names = try bucket.contentsOfDirectory(at: URL(string: "s3://my-bucket/notes/")!).map(\.name)
/// ```
///
/// S3 has objects, not files and folders; this is how the one is made of the other:
/// - a folder is a key prefix ending in `/`. A folder made here is a zero-byte marker object
///   `name/`, as the AWS console makes one, so an empty folder lives on; a prefix with objects
///   under it and no marker (written by another tool) is a folder too, until its last object goes;
/// - a listing is one `ListObjectsV2` with `delimiter=/` per 1,000 items;
/// - a file's `FileMetadata.modificationDate` is the object's `Last-Modified`, to the second
///   (a listing gives milliseconds, a `HEAD` seconds); it cannot be set, and a copy or a move
///   gets the server's time of the copy;
/// - a file's `FileMetadata.fileIdentifier` and `FileMetadata.contentTag` are a hash of its ETag;
/// - a move is `CopyObject` and then `DeleteObject`, file by file, on the server, with no bytes
///   through this machine. It is not atomic: a move that is cut off leaves the item at both
///   names, never at neither. A move or copy that must not replace looks at the destination
///   first (S3 has no condition on a copy's destination);
/// - a new file is written with `If-None-Match: *` (``createFile(_:at:)``), which S3 checks and
///   writes in one step: of two clients creating the same key, exactly one succeeds;
/// - no hard links (EPERM), no symbolic links, no permission bits (`0o644` and `0o755`), and the
///   flush calls change nothing: an answered write is durable.
///
/// Errors are the file system's (`CocoaError` with the `POSIXError` underneath), mapped from
/// ``S3Error``: 404 ENOENT, 412 EEXIST, 401 and 403 EACCES, 400 `EntityTooLarge` EFBIG, other
/// statuses EIO; a lost connection ECONNRESET, a refused one ECONNREFUSED, a timeout ETIMEDOUT.
/// The status, the S3 code and the message are kept in the error's
/// `NSLocalizedFailureReasonErrorKey`. Every call blocks its thread (the client's calls do).
public final class S3Accessor: Sendable {
    /// The client every request goes through.
    public let client: S3Client
    /// `s3://bucket/prefix/`: the folder this accessor was made for, which is there as long as
    /// the bucket is, with or without objects under it.
    public let baseURL: URL
    /// The size of each part of a file written in parts (8 MiB by default; S3's least is 5 MiB):
    /// a file larger than this is uploaded in parts, never held in memory whole.
    public let partSize: Int
    /// How many parts of files written in parts are sent at once, all uploads of this accessor
    /// together (4 by default): at most that many parts are held in memory.
    public var partsInFlight: Int { partSlots.count }
    /// The slots of ``partsInFlight``.
    let partSlots: S3Client.PartSlots
    /// A file larger than this (1 MiB) written whole, in one `PutObject`, is read only once it
    /// holds one of the ``partsInFlight`` slots, as a part is: so at most that many such bodies
    /// are in memory at once, however many files go at once.
    public var wholeWriteSlotThreshold: Int { 1 << 20 }
    /// Runs `body` holding a part slot when `size` is over ``wholeWriteSlotThreshold``.
    func holdingSlot<T>(forWholeWriteOf size: Int64, _ body: () throws -> T) throws -> T {
        guard size > Int64(wholeWriteSlotThreshold) else { return try body() }
        partSlots.take()
        defer { partSlots.give() }
        return try body()
    }
    /// The largest file ``moveItem(at:to:ifStill:)`` writes over its destination with one
    /// conditional `PutObject` (1 MiB); a larger one is copied on the server in parts.
    public var conditionalReplaceLimit: Int { 1 << 20 }
    /// Whether this accessor's server was found not to support `UploadPartCopy`
    /// (``S3Error/unsupported(_:)``): a larger replace is then copied whole after a look.
    let copiesPartsUnsupported = LockedValue(false)
    /// Folders' listings fetched ahead by ``beginTreeListing(at:skipping:)``, by prefix.
    let prefetched = LockedValue<[[UInt8]: [DirectoryEntry]]>([:])
    /// Counts the writes, so a listing fetched ahead across a write is not kept.
    let listingGeneration = LockedValue<UInt64>(0)
    /// Objects this accessor created and has not moved yet, by key (``takeCreated(_:)``).
    private let created = LockedValue<[[UInt8]: S3Object]>([:])
    /// The objects the last copies made, by key (``placedObject(at:)``), a bounded number.
    private let copies = LockedValue<[[UInt8]: S3Object]>([:])
    /// The ETags of the objects this accessor last looked at or wrote over, by key, a bounded
    /// number (``seenETag(of:identifier:)``).
    private let seenETags = LockedValue<[[UInt8]: String]>([:])
    /// How long after a request found the server unreachable (all its retries spent) later
    /// requests fail at once, unsent.
    public let outageCooldown: Duration
    /// Reads the time the outage cooldown is measured in.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// When the server was last found unreachable, and how.
    private let outage = LockedValue<(since: ContinuousClock.Instant, error: S3Error)?>(nil)

    /// The key of ``baseURL`` (`prefix`, no slash at either end; `""` for the bucket's root).
    let rootKey: String

    /// An accessor for the folder `prefix` of the bucket of `client`.
    ///
    /// - Parameters:
    ///   - client: The bucket's client.
    ///   - prefix: The folder (`notes/`, `team/notes`); `""` (the default) for the whole bucket.
    ///   - partSize: The size of each part of a file written in parts; at least 5 MiB, or the
    ///     server refuses the upload.
    ///   - partsInFlight: How many parts of such files are sent at once, this accessor's uploads
    ///     together (3 by default), and so held in memory at most.
    ///   - outageCooldown: Once a request found the server unreachable (no connection, no answer
    ///     in time, no such host) after all its retries, every request in this much time fails at
    ///     once with the same error, unsent: a server that went away mid-run ends the run's
    ///     remaining work in moments, not in retries per file. 10 seconds by default.
    ///   - now: Reads the time the cooldown is measured in (the continuous clock by default).
    public init(
        client: S3Client, prefix: String = "", partSize: Int = 8 << 20, partsInFlight: Int = 3,
        outageCooldown: Duration = .seconds(10),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        precondition(partSize > 0, "a part holds at least one byte")
        precondition(partsInFlight >= 1, "at least one part in flight")
        self.partSlots = S3Client.PartSlots(partsInFlight)
        self.outageCooldown = outageCooldown
        self.now = now
        self.client = client
        self.partSize = partSize
        let trimmed = prefix.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        rootKey = trimmed
        var components = URLComponents()
        components.scheme = "s3"
        components.host = client.bucket
        components.path = trimmed.isEmpty ? "/" : "/" + trimmed + "/"
        baseURL = components.url ?? URL(string: "s3://\(client.bucket)/")!
    }

    /// Whether `url` is ``baseURL`` or inside it (`s3://bucket/prefix/…`).
    ///
    /// - Parameter url: Any URL.
    /// - Returns: `true` when requests for it go to this accessor's folder.
    public func serves(_ url: URL) -> Bool {
        guard url.scheme?.lowercased() == "s3", url.host(percentEncoded: false) == client.bucket else { return false }
        let key = key(url)
        return rootKey.isEmpty || Self.same(key, rootKey) || key.utf8.starts(with: (rootKey + "/").utf8)
    }

    /// The object's key for `url`: its path without the leading or a trailing `/`.
    func key(_ url: URL) -> String {
        // By bytes: a name may start with a combining mark, which `String` joins to the slash.
        var bytes = Substring(url.path(percentEncoded: false)).utf8[...]
        while bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The prefix of the folder at `url`: its key and `/`, or `""` for the bucket's root.
    func folderPrefix(_ url: URL) -> String {
        let key = key(url)
        return key.isEmpty ? "" : key + "/"
    }

    /// The object the last copy, move or conditional replace (``replace(_:with:ifStill:)``) to
    /// `url` made, as its answer described it (a copy's date is the server's time of the copy),
    /// or `nil` when none is remembered.
    ///
    /// - Parameter url: A file this accessor copied or moved something to.
    /// - Returns: Its metadata.
    public func placedObject(at url: URL) -> FileMetadata? {
        copies.withLock { $0[Array(key(url).utf8)] }.map(Self.metadata)
    }

    /// The metadata of the version this accessor last wrote at `url`, as the write's answer gave
    /// it: a copy, move or conditional replace there (``placedObject(at:)``), else a create it has
    /// not moved away; `nil` when it knows none. Its ETag is the server's; its date may be this
    /// machine's.
    ///
    /// - Parameter url: A file this accessor wrote.
    /// - Returns: Its metadata.
    public func writtenObject(at url: URL) -> FileMetadata? {
        placedObject(at: url) ?? createdObject(at: url).map(Self.metadata)
    }

    /// Notes an object this accessor created with `If-None-Match: *` (`etag` its answer), for
    /// the move that takes it into place next (``takeCreated(_:)``); a copy noted at its key
    /// before is older, and forgotten.
    func rememberCreated(key: String, size: Int, etag: String) {
        guard !etag.isEmpty else { return }
        copies.withLock { _ = $0.removeValue(forKey: Array(key.utf8)) }
        noteETag(etag, of: key)
        let object = S3Object(key: key, size: Int64(size), etag: etag, lastModified: Date())
        created.withLock { created in
            if created.count >= 4_096 { created.removeAll(keepingCapacity: true) }
            created[Array(key.utf8)] = object
        }
    }

    /// The object this accessor created at `url` and has not moved yet, forgotten as it is
    /// returned; `nil` when none is noted.
    func takeCreated(_ url: URL) -> S3Object? {
        created.withLock { $0.removeValue(forKey: Array(key(url).utf8)) }
    }

    /// The object at `url` this accessor created and has not moved yet, still noted.
    func createdObject(at url: URL) -> S3Object? {
        created.withLock { $0[Array(key(url).utf8)] }
    }

    /// Notes the ETag an answer gave for `key`, so a conditional write over it needs no look first.
    func noteETag(_ etag: String, of key: String) {
        guard !etag.isEmpty else { return }
        seenETags.withLock { seen in
            let key = Array(key.utf8)
            if seen.count >= 16_384, seen[key] == nil { seen.removeAll(keepingCapacity: true) }
            seen[key] = etag
        }
    }

    /// The ETag last seen for the object at `url` when it is the version `identifier` names
    /// (its ``FileMetadata/fileIdentifier``); `nil` when none is noted or it is another's. A
    /// write with `If-Match` on it is still checked by the server: a version saved since is
    /// refused there.
    func seenETag(of url: URL, identifier: UInt64) -> String? {
        guard let etag = seenETags.withLock({ $0[Array(key(url).utf8)] }),
            Self.identifier(ofETag: etag) == identifier
        else { return nil }
        return etag
    }

    func remember(_ object: S3Object) {
        copies.withLock { copies in
            let key = Array(object.key.utf8)
            if copies.count >= 4_096, copies[key] == nil { copies.removeAll(keepingCapacity: true) }
            copies[key] = object
        }
    }

    /// Whether two keys are the same bytes (`==` on `String` takes NFC and NFD spellings for one;
    /// S3 keeps them apart).
    static func same(_ one: String, _ other: String) -> Bool {
        one.utf8.elementsEqual(other.utf8)
    }

    // MARK: Metadata

    /// A file's metadata for an object.
    static func metadata(_ object: S3Object) -> FileMetadata {
        let tag = identifier(ofETag: object.etag)
        return FileMetadata(
            kind: .file, size: object.size, modificationDate: seconds(object.lastModified), permissions: 0o644,
            fileIdentifier: tag, contentTag: tag)
    }

    /// A folder's metadata: a prefix has no date, size or identity.
    static let folder = FileMetadata(
        kind: .directory, size: 0, modificationDate: Date(timeIntervalSince1970: 0), permissions: 0o755,
        fileIdentifier: 0)

    /// A date to the whole second below it.
    static func seconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// The 64 bits of an ETag's SHA-256 (its weakness mark and quotes kept: S3's are strong).
    static func identifier(ofETag etag: String) -> UInt64 {
        let digest = SHA256.hash(data: Data(etag.utf8))
        return digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    // MARK: Errors

    /// The file-system error for an ``S3Error``.
    static func error(_ failure: S3Error, url: URL, writing: Bool) -> CocoaError {
        let (code, reason): (Int32, String)
        switch failure {
        case .refused(let status, let name, let message):
            switch status {
            case 404: code = ENOENT
            case 412: code = EEXIST
            case 401, 403: code = EACCES
            case 400 where name == "EntityTooLarge": code = EFBIG
            default: code = EIO
            }
            var words = "HTTP \(status)"
            if !name.isEmpty { words += " \(name)" }
            if !message.isEmpty { words += ": \(message)" }
            if status == 403 { words += " (the server refused the keys, or they may not do this)" }
            reason = words
        case .transport(let transport):
            switch transport.kind {
            case .cannotConnect: (code, reason) = (ECONNREFUSED, "could not connect to the server")
            case .timedOut: (code, reason) = (ETIMEDOUT, "the server did not answer in time")
            case .connectionLost:
                (code, reason) = (ECONNRESET, "the connection was lost before the answer was complete")
            case .hostNotFound: (code, reason) = (EHOSTUNREACH, "the server's name was not found")
            case .cancelled: (code, reason) = (ECANCELED, "the request was cancelled")
            case .tls: (code, reason) = (EIO, "the secure connection failed (TLS)")
            case .other: (code, reason) = (EIO, transport.description)
            }
        case .malformedAnswer(let what):
            (code, reason) = (EIO, "the server's answer could not be read: \(what)")
        case .changedDuringDownload:
            (code, reason) = (EAGAIN, "the object changed on the server while it was downloaded")
        case .unsupported(let what):
            (code, reason) = (ENOTSUP, "the server does not support \(what)")
        }
        return error(code, url: url, writing: writing, reason: reason)
    }

    /// The error this folder throws for `url`: Foundation's for `code`, with why in words.
    static func error(_ code: Int32, url: URL, writing: Bool, reason: String? = nil) -> CocoaError {
        .remoteError(errno: code, url: url, writing: writing, reason: reason)
    }

    /// Runs one client call, its ``S3Error`` as the file system's error for `url`.
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    func request<T>(_ url: URL, writing: Bool, _ call: () throws(S3Error) -> T) throws -> T {
        if writing { forgetListings() }
        do {
            return try guarded(call)
        } catch {
            throw Self.error(error, url: url, writing: writing)
        }
    }

    /// Runs one client call unless the server was found unreachable within the cooldown (then
    /// fails at once with that error), and notes an unreachable server.
    @available(*, noasync, message: "it blocks its thread")
    func guarded<T>(_ call: () throws(S3Error) -> T) throws(S3Error) -> T {
        if let recent = recentOutage() { throw recent }
        do {
            let result = try call()
            outage.withLock { $0 = nil }
            return result
        } catch {
            note(error)
            throw error
        }
    }

    /// ``guarded(_:)`` for a call that throws a local file's errors too.
    @available(*, noasync, message: "it blocks its thread")
    func guardedWithFiles<T>(_ call: () throws -> T) throws -> T {
        if let recent = recentOutage() { throw recent }
        do {
            let result = try call()
            outage.withLock { $0 = nil }
            return result
        } catch let error as S3Error {
            note(error)
            throw error
        }
    }

    /// The error of an outage found within the cooldown, or `nil`.
    private func recentOutage() -> S3Error? {
        guard let recent = outage.withLock({ $0 }), now() - recent.since < outageCooldown else { return nil }
        return recent.error
    }

    /// Notes an unreachable server (no connection, no answer in time, no such host).
    private func note(_ error: S3Error) {
        guard case .transport(let failure) = error, [.cannotConnect, .timedOut, .hostNotFound].contains(failure.kind)
        else { return }
        outage.withLock { $0 = (now(), error) }
    }

    // MARK: Lookups

    /// What is at `url`: a file (its object), a folder (`nil` object), or nothing (`nil`).
    @available(*, noasync, message: "it blocks its thread")
    func find(_ url: URL) throws -> (object: S3Object?, isFolder: Bool)? {
        let key = key(url)
        if Self.same(key, rootKey) {
            // The accessor's folder is there while the bucket answers.
            _ = try request(url, writing: false) { () throws(S3Error) in try client.listObjects(maxKeys: 1) }
            return (nil, true)
        }
        if let object = try request(url, writing: false, { () throws(S3Error) in try client.headObject(key) }) {
            noteETag(object.etag, of: key)
            return (object, false)
        }
        let page = try request(url, writing: false) { () throws(S3Error) in
            try client.listObjects(prefix: key + "/", maxKeys: 1)
        }
        return page.objects.isEmpty && page.commonPrefixes.isEmpty ? nil : (nil, true)
    }

    /// The multipart uploads begun under the folder `url` and neither completed nor aborted
    /// whose key's last component `isOwnName` accepts (a killed writer's, to its temp names).
    ///
    /// - Parameters:
    ///   - url: A folder of this accessor.
    ///   - isOwnName: Whether a key's last component is a name the caller's writes use.
    /// - Returns: The uploads.
    public func abandonedUploads(under url: URL, where isOwnName: (String) -> Bool) throws
        -> [S3Client.MultipartUpload]
    {
        let prefix = folderPrefix(url)
        let uploads = try request(url, writing: false) { () throws(S3Error) in
            try client.listMultipartUploads(prefix: prefix)
        }
        return uploads.filter { upload in
            isOwnName(String(upload.key.split(separator: "/", omittingEmptySubsequences: false).last ?? ""))
        }
    }

    /// Aborts `upload`, freeing its parts.
    public func abort(_ upload: S3Client.MultipartUpload) throws {
        try request(baseURL, writing: true) { () throws(S3Error) in
            try client.abortMultipartUpload(upload.key, uploadID: upload.uploadID)
        }
    }

    /// Every object under the folder prefix `prefix`, page after page.
    @available(*, noasync, message: "it blocks its thread")
    func objects(under prefix: String, url: URL) throws -> [S3Object] {
        try request(url, writing: false) { () throws(S3Error) in try client.listAllObjects(prefix: prefix) }
    }
}
