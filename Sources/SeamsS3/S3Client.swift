import Dispatch
public import Foundation
import HTTPTypes
public import SeamsCore

/// An object as a listing or a `HEAD` shows it.
public struct S3Object: Hashable, Sendable {
    /// The key, decoded (`notes/a b.txt`).
    public var key: String
    /// The size in bytes.
    public var size: Int64
    /// The ETag as the server sent it, quotes included (`"9a0364b9e99bb480dd25e1f0284c8555"`).
    public var etag: String
    /// When the object was last written, as the server keeps it (to the second on most servers).
    public var lastModified: Date
    /// The user metadata (`x-amz-meta-*`, names lowercased without the prefix); empty in a listing.
    public var metadata: [String: String]

    /// An object from its parts.
    public init(key: String, size: Int64, etag: String, lastModified: Date, metadata: [String: String] = [:]) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.metadata = metadata
    }
}

/// One page of a `ListObjectsV2` answer.
public struct S3ListPage: Hashable, Sendable {
    /// The objects of the page, in key order.
    public var objects: [S3Object]
    /// The common prefixes (with a delimiter): the "folders" of the page, each ending with it.
    public var commonPrefixes: [String]
    /// The token that asks for the next page; `nil` on the last.
    public var nextContinuationToken: String?
}

/// When a write may happen.
public enum S3WriteCondition: Hashable, Sendable {
    /// Always.
    case always
    /// Only when no object has the key (`If-None-Match: *`): a create that never replaces.
    case ifAbsent
    /// Only while the object's ETag is this one (`If-Match`): a replace that never overwrites
    /// another device's write.
    case ifMatch(String)
}

/// How an object written in parts (a multipart upload) was cut, as ``S3Client/partLayout(of:)``
/// reads it.
public struct S3PartLayout: Hashable, Sendable {
    /// The size of the first part in bytes: that of every part but the last, for an object
    /// written in parts of one size (as ``S3Client/putObjectInParts(_:condition:metadata:partsInFlight:nextPart:)``
    /// and most tools write them).
    public var firstPartSize: Int64
    /// The number of parts.
    public var count: Int

    /// A layout from its parts.
    public init(firstPartSize: Int64, count: Int) {
        self.firstPartSize = firstPartSize
        self.count = count
    }
}

/// Why an S3 request did not do what it asked.
public enum S3Error: Error, Hashable, Sendable {
    /// The server answered with an error status: the status, the S3 error code (`NoSuchKey`,
    /// `PreconditionFailed`, `AccessDenied`, `SignatureDoesNotMatch`…; empty when the answer has
    /// no body, as a `HEAD`'s), and its message.
    case refused(status: Int, code: String, message: String)
    /// No complete answer arrived.
    case transport(HTTPTransportError)
    /// An answer that could not be read.
    case malformedAnswer(String)
    /// The object changed while it was downloaded piece by piece: a piece came from another version
    /// than the first (a server that honours `If-Match` refuses such a piece with 412 instead).
    case changedDuringDownload(String)
    /// The server answered a request as if it were another one, so does not support it: named.
    /// (`rclone serve s3` takes an `UploadPartCopy` for a part upload with an empty body.)
    case unsupported(String)

    /// Whether a write's condition did not hold (412).
    public var isPreconditionFailed: Bool {
        if case .refused(412, _, _) = self { return true }
        return false
    }

    /// Whether the object or the bucket does not exist (404).
    public var isNotFound: Bool {
        if case .refused(404, _, _) = self { return true }
        return false
    }
}

/// A client for one bucket of S3 or a server that speaks its API (MinIO, Ceph, Garage, R2, B2),
/// over any transport that can be waited for.
///
/// Every call is synchronous and blocks its thread for the exchange, as the file boundaries'
/// calls do; call them from a thread of your own, never from a task (the compiler refuses it:
/// they are `noasync`). Requests are signed with ``SigV4Signer``; a body's SHA-256 is signed.
public struct S3Client: Sendable {
    /// How the bucket is named in a request.
    public enum Addressing: Hashable, Sendable {
        /// `https://endpoint/bucket/key`: what local servers (moto, MinIO) answer by default.
        case path
        /// `https://bucket.endpoint/key`: what AWS prefers.
        case virtualHosted
    }

    /// The server: scheme, host and port (`https://s3.eu-west-1.amazonaws.com`).
    public let endpoint: URL
    /// The bucket.
    public let bucket: String
    /// How the bucket is named.
    public let addressing: Addressing
    /// Signs every request.
    public let signer: SigV4Signer
    /// Sends the requests.
    public let transport: any WaitingHTTPTransportProviding
    /// How long one exchange may take.
    public let timeout: Duration
    /// The time a request is signed with.
    let now: @Sendable () -> Date
    /// How many times a transient failure is retried.
    public let retryLimit: Int
    /// Waits between retries (real time by default; tests record instead).
    let pause: @Sendable (Duration) -> Void

    /// A client for `bucket` at `endpoint`.
    ///
    /// - Parameters:
    ///   - endpoint: The server's scheme, host and port.
    ///   - bucket: The bucket.
    ///   - region: The region requests are signed for (`us-east-1` where the server has none).
    ///   - credentials: The keys.
    ///   - addressing: Path-style (default) or virtual-hosted.
    ///   - transport: Sends the requests.
    ///   - timeout: How long one exchange may take.
    ///   - now: The time requests are signed with.
    ///   - retryLimit: How many times a transient failure is retried: 500, 502, 503 and 429 for every
    ///     request and a refused connection; a lost connection, a timeout and 504 for `GET` and `HEAD` only.
    ///   - pause: Waits between retries.
    public init(
        endpoint: URL, bucket: String, region: String, credentials: S3Credentials, addressing: Addressing = .path,
        transport: any WaitingHTTPTransportProviding, timeout: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }, retryLimit: Int = 4,
        pause: @escaping @Sendable (Duration) -> Void = {
            Thread.sleep(forTimeInterval: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
        }
    ) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.addressing = addressing
        self.signer = SigV4Signer(credentials: credentials, region: region)
        self.transport = transport
        self.timeout = timeout
        self.now = now
        self.retryLimit = retryLimit
        self.pause = pause
    }

    // MARK: Operations

    /// Creates the bucket (`PUT /bucket`).
    ///
    /// - Throws: ``S3Error``; `BucketAlreadyOwnedByYou` (409) when it is yours already.
    @available(*, noasync, message: "it blocks its thread")
    public func createBucket() throws(S3Error) {
        _ = try send("PUT", key: nil)
    }

    /// Writes `body` as the object `key` when `condition` holds.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - body: The whole content.
    ///   - condition: ``S3WriteCondition/ifAbsent`` to create only, ``S3WriteCondition/ifMatch(_:)``
    ///     to replace only the version last seen.
    ///   - metadata: User metadata, sent as `x-amz-meta-<name>`.
    /// - Returns: The new object's ETag, quotes included.
    /// - Throws: ``S3Error``: 412 when the condition does not hold; 404 for ``S3WriteCondition/ifMatch(_:)``
    ///   when there is no object.
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    public func putObject(
        _ key: String, body: Data, condition: S3WriteCondition = .always, metadata: [String: String] = [:]
    ) throws(S3Error) -> String {
        try putObjectDated(key, body: body, condition: condition, metadata: metadata).etag
    }

    /// ``putObject(_:body:condition:metadata:)``, returning the new object as the answer
    /// describes it: its ETag and the answer's `Date` as its date (an answer to a `PUT` carries
    /// no `Last-Modified`; S3 dates the object at the second its answer is dated, but for a `PUT`
    /// that ends as a second turns). `nil` as the date where the answer has none.
    @available(*, noasync, message: "it blocks its thread")
    public func putObjectDated(
        _ key: String, body: Data, condition: S3WriteCondition = .always, metadata: [String: String] = [:]
    ) throws(S3Error) -> (etag: String, date: Date?) {
        var headers = Self.headers(for: condition)
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) { headers.append(("x-amz-meta-" + name, value)) }
        let (response, _) = try send("PUT", key: key, headers: headers, body: body)
        return (response.headerFields[.eTag] ?? "", response.headerFields[.date].flatMap { HTTPDate.parse($0) })
    }

    /// The object `key`'s metadata (`HEAD`), or `nil` when there is none.
    @available(*, noasync, message: "it blocks its thread")
    public func headObject(_ key: String) throws(S3Error) -> S3Object? {
        do {
            let (response, _) = try send("HEAD", key: key)
            return try Self.object(key, response)
        } catch let error where error.isNotFound {
            return nil
        }
    }

    /// How the object `key` was written in parts (`HEAD ?partNumber=1`: the first part's length,
    /// and `x-amz-mp-parts-count`), or `nil` when it was written whole, is gone, or the server does
    /// not say (`rclone serve s3` 1.75 answers such a `HEAD` as a plain one).
    @available(*, noasync, message: "it blocks its thread")
    public func partLayout(of key: String) throws(S3Error) -> S3PartLayout? {
        let response: HTTPResponse
        do throws(S3Error) {
            (response, _) = try send("HEAD", key: key, query: [.init("partNumber", "1")])
        } catch .refused(let status, _, _) where [400, 404, 416].contains(status) {
            return nil  // gone, or a server that refuses the part number of an object written whole
        }
        guard let count = response.headerFields[Self.partsCount].flatMap({ Int($0) }), count >= 1,
            let first = response.headerFields[.contentLength].flatMap({ Int64($0) }), first > 0
        else { return nil }
        return S3PartLayout(firstPartSize: first, count: count)
    }

    private static let partsCount = HTTPField.Name("x-amz-mp-parts-count")!

    /// The object `key` and its content, or the bytes of `range` (`0...9`) only.
    ///
    /// - Throws: ``S3Error``: 404 `NoSuchKey` when there is no object.
    @available(*, noasync, message: "it blocks its thread")
    public func getObject(_ key: String, range: ClosedRange<Int64>? = nil) throws(S3Error) -> (S3Object, Data) {
        let headers = range.map { [(name: "Range", value: "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        let (response, body) = try send("GET", key: key, headers: headers)
        var object = try Self.object(key, response)
        if range != nil,
            let total = response.headerFields[.contentRange]?.split(separator: "/").last.flatMap({ Int64($0) })
        {
            object.size = total
        }
        return (object, body)
    }

    /// One page of the objects whose keys start with `prefix` (`ListObjectsV2`), at most
    /// `maxKeys` (the server's limit is 1,000).
    ///
    /// - Parameters:
    ///   - prefix: The keys' start; `""` for the whole bucket.
    ///   - delimiter: Groups keys by what follows the prefix up to this (`/`), or `nil` for a flat listing.
    ///   - continuationToken: The previous page's ``S3ListPage/nextContinuationToken``.
    ///   - maxKeys: The most objects in the page.
    @available(*, noasync, message: "it blocks its thread")
    public func listObjects(
        prefix: String = "", delimiter: String? = nil, continuationToken: String? = nil, maxKeys: Int = 1_000
    ) throws(S3Error) -> S3ListPage {
        var query: [SigV4Signer.Request.QueryItem] = [
            .init("list-type", "2"), .init("prefix", prefix), .init("max-keys", String(maxKeys)),
            .init("encoding-type", "url"),
        ]
        if let delimiter { query.append(.init("delimiter", delimiter)) }
        if let continuationToken { query.append(.init("continuation-token", continuationToken)) }
        let (_, body) = try send("GET", key: nil, query: query)
        return try Self.listPage(body)
    }

    /// Every object under `prefix`, page after page.
    @available(*, noasync, message: "it blocks its thread")
    public func listAllObjects(prefix: String = "", pageSize: Int = 1_000) throws(S3Error) -> [S3Object] {
        var objects: [S3Object] = []
        var token: String?
        repeat {
            let page = try listObjects(prefix: prefix, continuationToken: token, maxKeys: pageSize)
            objects += page.objects
            token = page.nextContinuationToken
        } while token != nil
        return objects
    }

    /// Copies the object `source` to `destination` on the server (`CopyObject`): no bytes
    /// through this machine.
    ///
    /// - Parameters:
    ///   - source: The key to copy.
    ///   - destination: The new key.
    ///   - sourceETag: The source's ETag: the copy is made only while the source is still that
    ///     version (`x-amz-copy-source-if-match`), or `nil`.
    /// - Returns: The copy's ETag.
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    public func copyObject(_ source: String, to destination: String, sourceETag: String? = nil) throws(S3Error)
        -> String
    {
        try copy(source, to: destination, sourceETag: sourceETag).etag
    }

    /// ``copyObject(_:to:sourceETag:)``, with the copy's date as its answer gives it.
    @available(*, noasync, message: "it blocks its thread")
    func copy(_ source: String, to destination: String, sourceETag: String? = nil) throws(S3Error)
        -> (etag: String, lastModified: Date?)
    {
        var headers: [(name: String, value: String)] = [
            ("x-amz-copy-source", "/" + SigV4Signer.encode(bucket + "/" + source, keepingSlashes: true))
        ]
        if let sourceETag { headers.append(("x-amz-copy-source-if-match", sourceETag)) }
        let (_, body) = try send("PUT", key: destination, headers: headers)
        do {
            let result = try S3XMLElement.parse(body)
            // A copy can fail after its 200 has started: the error is then the body.
            if result.name == "Error" { throw Self.refusal(status: 200, body) }
            return (result.text(of: "ETag") ?? "", result.text(of: "LastModified").flatMap(S3Dates.isoDate))
        } catch let error as S3XMLElement.Malformed {
            throw .malformedAnswer("CopyObject: \(error.reason)")
        } catch let error as S3Error {
            throw error
        } catch {
            throw .malformedAnswer("CopyObject: \(error)")
        }
    }

    /// Deletes the object `key`; a missing object is no error (S3 answers 204 either way).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - ifMatch: Deletes only while the object's ETag is this one, or `nil`.
    @available(*, noasync, message: "it blocks its thread")
    public func deleteObject(_ key: String, ifMatch: String? = nil) throws(S3Error) {
        _ = try send("DELETE", key: key, headers: ifMatch.map { [("If-Match", $0)] } ?? [])
    }

    /// Writes the object `key` from `nextPart`'s pieces with a multipart upload: each piece (at
    /// least 5 MiB but the last; S3 refuses smaller) a part, the object appearing whole when the
    /// upload completes under `condition`, never in part. A failure aborts the upload, so no
    /// parts are left behind (a killed run's are: ``listMultipartUploads(prefix:)`` finds them).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - condition: As ``putObject(_:body:condition:metadata:)``'s, checked when the upload completes.
    ///   - metadata: User metadata.
    ///   - partsInFlight: How many parts are sent at once (each on a thread of its own), and so
    ///     held in memory at most; 1 sends them one after another on the calling thread.
    ///   - nextPart: The next part's bytes, or `nil` after the last; at least one part is sent.
    ///     Called on the calling thread, one part at a time.
    /// - Returns: The object's ETag (`"…-<parts>"`).
    /// - Throws: ``S3Error``; what `nextPart` throws, as ``S3Error/malformedAnswer(_:)`` never: it is rethrown as is.
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    public func putObjectInParts(
        _ key: String, condition: S3WriteCondition = .always, metadata: [String: String] = [:],
        partsInFlight: Int = 1, nextPart: () throws -> Data?
    ) throws -> String {
        try putObjectInParts(
            key, condition: condition, metadata: metadata, slots: PartSlots(partsInFlight), nextPart: nextPart)
    }

    /// ``putObjectInParts(_:condition:metadata:partsInFlight:nextPart:)`` with the parts in
    /// flight counted against `slots`, which other uploads may share: a part is read only once a
    /// slot is free, and its slot is freed when the server answered it, so at most the slots'
    /// count of parts are held and sent at once, whatever the number of uploads. A part that
    /// fails ends the upload at the next part: the parts still in flight are waited for, then
    /// the upload is aborted.
    @available(*, noasync, message: "it blocks its thread")
    func putObjectInParts(
        _ key: String, condition: S3WriteCondition, metadata: [String: String], slots: PartSlots,
        nextPart: () throws -> Data?
    ) throws -> String {
        var headers: [(name: String, value: String)] = []
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) { headers.append(("x-amz-meta-" + name, value)) }
        let upload = try startUpload(key, headers: headers)
        let sent = PartsSent()
        var inFlight: [any PendingWork] = []
        do {
            var count = 0
            while true {
                if let failed = sent.failure.withLock({ $0 }) { throw failed }
                slots.take()
                let piece: Data?
                do {
                    piece = try nextPart() ?? (count == 0 ? Data() : nil)  // at least one part
                } catch {
                    slots.give()
                    throw error
                }
                guard let piece else {
                    slots.give()
                    break
                }
                count += 1
                let number = count
                let send: @Sendable () throws -> Void = { [self] in
                    defer { slots.give() }
                    do {
                        let (response, _) = try self.send(
                            "PUT", key: key, query: [.init("partNumber", String(number)), .init("uploadId", upload)],
                            body: piece)
                        sent.etags.withLock { $0[number] = response.headerFields[.eTag] ?? "" }
                    } catch {
                        sent.failure.withLock { if $0 == nil { $0 = error } }
                        throw error
                    }
                }
                if slots.count == 1 {
                    try send()
                } else {
                    inFlight.append(BlockingExecutor.shared.start(send))
                }
            }
            for work in inFlight { try work.wait().get() }
            inFlight = []
            return try complete(key, upload: upload, parts: sent.etags.withLock { $0 }, condition: condition)
        } catch {
            for work in inFlight { _ = work.wait() }
            try? abortMultipartUpload(key, uploadID: upload)
            throw error
        }
    }

    /// The largest part ``copyInParts(_:to:size:sourceETag:condition:partSize:)`` copies
    /// (5 GiB: S3's limit for one `UploadPartCopy`).
    public static let largestCopiedPart: Int64 = 5 << 30

    /// Copies the object `source` to `destination` on the server, with a multipart upload whose
    /// parts are copied from the source (`UploadPartCopy`): no byte passes through the client,
    /// and the copy is completed under `condition`. Unlike ``copyObject(_:to:sourceETag:)``,
    /// whose destination S3 cannot condition, a copy in parts completed with
    /// ``S3WriteCondition/ifMatch(_:)`` replaces only that version of the destination, checked
    /// and written in one step by a server that honours `If-Match` on a completion (AWS S3
    /// does; moto 5.2 and rclone 1.75 do not, see the contract suite).
    ///
    /// - Parameters:
    ///   - source: The key copied.
    ///   - destination: The key written.
    ///   - size: The source's size in bytes: it is copied in ranges of `partSize`, the last one
    ///     smaller; an empty source is one part without a range.
    ///   - sourceETag: Each part is copied only while the source is this version
    ///     (`x-amz-copy-source-if-match`), or `nil`.
    ///   - condition: As ``putObject(_:body:condition:metadata:)``'s, checked when the upload completes.
    ///   - partSize: The bytes copied per part: from 5 MiB to ``largestCopiedPart``.
    /// - Returns: The copy's ETag.
    /// - Throws: ``S3Error``: a refusal (412 when the source is another version or the condition
    ///   does not hold); ``S3Error/unsupported(_:)`` when a part's answer is not a
    ///   `CopyPartResult`, as from a server that does not know `UploadPartCopy` (it may have
    ///   stored an empty part). Any failure aborts the upload: the destination is then unchanged.
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    public func copyInParts(
        _ source: String, to destination: String, size: Int64, sourceETag: String?, condition: S3WriteCondition,
        partSize: Int64 = largestCopiedPart
    ) throws(S3Error) -> String {
        precondition((5 << 20...Self.largestCopiedPart).contains(partSize), "a copied part is 5 MiB to 5 GiB")
        let upload = try startUpload(destination, headers: [])
        do throws(S3Error) {
            var parts: [Int: String] = [:]
            var offset: Int64 = 0
            repeat {
                let number = parts.count + 1
                let last = min(size, offset + partSize) - 1
                var headers: [(name: String, value: String)] = [
                    ("x-amz-copy-source", "/" + SigV4Signer.encode(bucket + "/" + source, keepingSlashes: true))
                ]
                if size > 0 { headers.append(("x-amz-copy-source-range", "bytes=\(offset)-\(last)")) }
                if let sourceETag { headers.append(("x-amz-copy-source-if-match", sourceETag)) }
                let (_, body) = try send(
                    "PUT", key: destination,
                    query: [.init("partNumber", String(number)), .init("uploadId", upload)], headers: headers)
                // A part copy can fail after its 200 has started: the error is then the body. A
                // server that took the request for a plain part answers no CopyPartResult.
                let result = try? S3XMLElement.parse(body)
                if result?.name == "Error" { throw Self.refusal(status: 200, body) }
                guard result?.name == "CopyPartResult", let etag = result?.text(of: "ETag"), !etag.isEmpty else {
                    throw .unsupported("UploadPartCopy")
                }
                parts[number] = etag
                offset = last + 1
            } while offset < size
            return try complete(destination, upload: upload, parts: parts, condition: condition)
        } catch {
            try? abortMultipartUpload(destination, uploadID: upload)
            throw error
        }
    }

    /// Begins a multipart upload of `key` (`CreateMultipartUpload`): its id.
    @available(*, noasync, message: "it blocks its thread")
    private func startUpload(_ key: String, headers: [(name: String, value: String)]) throws(S3Error) -> String {
        let (_, started) = try send("POST", key: key, query: [.init("uploads")], headers: headers)
        guard let upload = (try? S3XMLElement.parse(started))?.text(of: "UploadId"), !upload.isEmpty else {
            throw .malformedAnswer("CreateMultipartUpload: no UploadId")
        }
        return upload
    }

    /// Completes the multipart upload `upload` of `key` from `parts` (each part's number and
    /// ETag) under `condition` (`CompleteMultipartUpload`): the object's ETag.
    @available(*, noasync, message: "it blocks its thread")
    private func complete(
        _ key: String, upload: String, parts: [Int: String], condition: S3WriteCondition
    ) throws(S3Error) -> String {
        var xml = "<CompleteMultipartUpload>"
        for (number, etag) in parts.sorted(by: { $0.key < $1.key }) {
            xml += "<Part><PartNumber>\(number)</PartNumber><ETag>\(etag)</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        // The type said, or a transport may call the body a form (URLSession does on Linux),
        // and a server may read it as one (moto's does, and answers 500).
        let (response, body) = try send(
            "POST", key: key, query: [.init("uploadId", upload)],
            headers: [("Content-Type", "application/xml")] + Self.headers(for: condition), body: Data(xml.utf8))
        // A completion can fail after its 200 has started: the error is then the body.
        let result = try? S3XMLElement.parse(body)
        if result?.name == "Error" { throw Self.refusal(status: 200, body) }
        return result?.text(of: "ETag") ?? response.headerFields[.eTag] ?? ""
    }

    /// What the parts of one upload came back with: each part's ETag, and the first failure.
    private final class PartsSent: Sendable {
        let etags = LockedValue<[Int: String]>([:])
        let failure = LockedValue<(any Error)?>(nil)
    }

    /// A number of parts that may be in flight at once, shared by the uploads that are given it.
    final class PartSlots: Sendable {
        /// How many.
        let count: Int
        private let free: DispatchSemaphore

        init(_ count: Int) {
            precondition(count >= 1, "at least one part in flight")
            self.count = count
            self.free = DispatchSemaphore(value: count)
        }

        /// Waits for a free slot and takes it.
        @available(*, noasync, message: "it blocks its thread")
        func take() { free.wait() }

        /// Frees a slot taken.
        func give() { free.signal() }
    }

    /// An upload begun and not completed: its key and id.
    public struct MultipartUpload: Hashable, Sendable {
        /// The key it was for.
        public var key: String
        /// Its id.
        public var uploadID: String
    }

    /// The multipart uploads under `prefix` that were begun and neither completed nor aborted (a
    /// run killed mid-upload leaves one; its parts take space until it is aborted).
    @available(*, noasync, message: "it blocks its thread")
    public func listMultipartUploads(prefix: String = "") throws(S3Error) -> [MultipartUpload] {
        let (_, body) = try send("GET", key: nil, query: [.init("uploads"), .init("prefix", prefix)])
        guard let result = try? S3XMLElement.parse(body), result.name == "ListMultipartUploadsResult" else {
            throw .malformedAnswer("ListMultipartUploads")
        }
        return result.children("Upload").compactMap { upload in
            guard let key = upload.text(of: "Key"), let id = upload.text(of: "UploadId") else { return nil }
            return MultipartUpload(key: key, uploadID: id)
        }
    }

    /// Aborts the multipart upload `uploadID` of `key`: its parts are freed.
    @available(*, noasync, message: "it blocks its thread")
    public func abortMultipartUpload(_ key: String, uploadID: String) throws(S3Error) {
        _ = try send("DELETE", key: key, query: [.init("uploadId", uploadID)])
    }

    /// Makes the new file `destination` (through `files`, piece by piece:
    /// `FileAccessorProviding.createFile(at:pieces:)`) from the object `key`, with ranged `GET`s
    /// of at most `pieceSize` bytes, each asking for the version the first one read (`If-Match`):
    /// an object rewritten during the download fails it (412, or
    /// ``S3Error/changedDuringDownload(_:)`` where the server ignores `If-Match` and a piece's ETag
    /// is not the first's), never mixes two versions. A piece that is not the range asked for is
    /// ``S3Error/malformedAnswer(_:)``.
    ///
    /// - Returns: The object as the download read it.
    /// - Throws: ``S3Error``, or what `files` throws; the half-made file is removed by `files`.
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    public func download(
        _ key: String, toNewFile destination: URL, in files: any FileAccessorProviding, pieceSize: Int = 8 << 20
    ) throws -> S3Object {
        var object: S3Object?
        var offset: Int64 = 0
        var finished = false
        try files.createFile(at: destination) { () throws -> Data? in
            if finished { return nil }
            var headers: [(name: String, value: String)] = [
                ("Range", "bytes=\(offset)-\(offset + Int64(max(1, pieceSize)) - 1)")
            ]
            if let etag = object?.etag { headers.append(("If-Match", etag)) }
            let response: HTTPResponse
            let body: Data
            do throws(S3Error) {
                (response, body) = try send("GET", key: key, headers: headers)
            } catch {
                // An empty object has no byte to range over (416).
                guard case .refused(416, _, _) = error, object == nil else { throw error }
                object = try headObject(key)
                guard object != nil else { throw S3Error.refused(status: 404, code: "NoSuchKey", message: key) }
                finished = true
                return nil
            }
            var read = try Self.object(key, response)
            let range = response.headerFields[.contentRange]
            let total = range?.split(separator: "/").last.flatMap { Int64($0) } ?? Int64(body.count)
            read.size = total
            if let first = object {
                // A server that ignores If-Match (rclone 1.75) sends the new version's bytes: its
                // ETag tells. One that ignores Range would send the whole object again. (rclone
                // answers a range with 200, but with its Content-Range: the range is what counts.)
                guard read.etag == first.etag else { throw S3Error.changedDuringDownload(key) }
                guard range?.hasPrefix("bytes \(offset)-") == true else {
                    throw S3Error.malformedAnswer("GET \(key) from byte \(offset) answered without that range")
                }
            }
            if object == nil { object = read }
            offset += Int64(body.count)
            if offset >= total || body.isEmpty { finished = true }
            return body
        }
        guard let object else { throw S3Error.malformedAnswer("download of \(key): no answer") }
        return object
    }

    // MARK: Requests

    private static func headers(for condition: S3WriteCondition) -> [(name: String, value: String)] {
        switch condition {
        case .always: []
        case .ifAbsent: [("If-None-Match", "*")]
        case .ifMatch(let etag): [("If-Match", etag)]
        }
    }

    /// The host and path of `key` (the bucket itself for `nil`), as the addressing names them.
    private func location(_ key: String?) -> (authority: String, path: String) {
        let host = endpoint.host ?? ""
        let port = endpoint.port.map { ":\($0)" } ?? ""
        switch addressing {
        case .path: return (host + port, "/" + bucket + (key.map { "/" + $0 } ?? ""))
        case .virtualHosted: return (bucket + "." + host + port, "/" + (key ?? ""))
        }
    }

    /// Signs and sends one request, retrying transient failures; any status but 2xx is an
    /// ``S3Error/refused(status:code:message:)``.
    ///
    /// Retried, after 0.2 s, 0.4 s, 0.8 s… (at most 5 s, ``retryLimit`` times), each time signed
    /// anew: 500, 502, 503 (`SlowDown`) and 429 for every request, and a connection refused (the
    /// request never left); a lost connection, a timeout and 504 only for `GET` and `HEAD`. A write
    /// whose answer was lost is never assumed to have failed or succeeded: it throws
    /// ``S3Error/transport(_:)``, and the caller looks at the server again.
    @available(*, noasync, message: "it blocks its thread")
    func send(
        _ method: String, key: String?, query: [SigV4Signer.Request.QueryItem] = [],
        headers: [(name: String, value: String)] = [], body: Data? = nil
    ) throws(S3Error) -> (HTTPResponse, Data) {
        let safe = method == "GET" || method == "HEAD"
        var attempt = 0
        while true {
            attempt += 1
            let retry = attempt <= retryLimit
            let response: HTTPResponse
            let data: Data
            do {
                (response, data) = try transport.sendWaiting(
                    signedRequest(method, key: key, query: query, headers: headers, body: body),
                    body: body.map(HTTPRequestBody.data) ?? .none, timeout: timeout)
            } catch {
                if retry, error.kind == .cannotConnect || (safe && error.isTransient) {
                    pause(Self.delay(attempt))
                    continue
                }
                throw .transport(error)
            }
            let status = response.status.code
            if (200..<300).contains(status) { return (response, data) }
            if retry, [500, 502, 503, 429].contains(status) || (safe && status == 504) {
                pause(Self.delay(attempt))
                continue
            }
            throw Self.refusal(status: status, data)
        }
    }

    /// The pause before retry `attempt`: 0.2 s doubled each time, at most 5 s.
    static func delay(_ attempt: Int) -> Duration {
        .milliseconds(min(5_000, 200 << min(attempt - 1, 10)))
    }

    /// The request, signed now.
    private func signedRequest(
        _ method: String, key: String?, query: [SigV4Signer.Request.QueryItem],
        headers: [(name: String, value: String)],
        body: Data?
    ) -> HTTPRequest {
        let (authority, path) = location(key)
        var signed = SigV4Signer.Request(
            method: method, path: path, query: query, headers: [("Host", authority)] + headers)
        if let body, !body.isEmpty { signed.headers.append(("Content-Length", String(body.count))) }
        signer.sign(
            &signed, payloadHash: body.map(SigV4Signer.payloadHash) ?? SigV4Signer.emptyPayloadHash, date: now())
        var request = HTTPRequest(
            method: HTTPRequest.Method(method) ?? .get, scheme: endpoint.scheme, authority: authority,
            path: signed.target)
        for header in signed.headers.dropFirst() {
            guard let name = HTTPField.Name(header.name) else { continue }
            request.headerFields.append(HTTPField(name: name, value: header.value))
        }
        return request
    }

    /// An error answer: its status, and the code and message of its `Error` body when it has one.
    static func refusal(status: Int, _ body: Data) -> S3Error {
        guard !body.isEmpty, let error = try? S3XMLElement.parse(body), error.name == "Error" else {
            return .refused(status: status, code: "", message: "")
        }
        return .refused(status: status, code: error.text(of: "Code") ?? "", message: error.text(of: "Message") ?? "")
    }

    /// The object a `HEAD` or `GET` answer describes.
    static func object(_ key: String, _ response: HTTPResponse) throws(S3Error) -> S3Object {
        let fields = response.headerFields
        guard let modified = fields[.lastModified].flatMap(S3Dates.httpDate) else {
            throw .malformedAnswer("no readable Last-Modified for \(key)")
        }
        var metadata: [String: String] = [:]
        for field in fields where field.name.canonicalName.hasPrefix("x-amz-meta-") {
            metadata[String(field.name.canonicalName.dropFirst("x-amz-meta-".count))] = field.value
        }
        return S3Object(
            key: key, size: fields[.contentLength].flatMap { Int64($0) } ?? 0, etag: fields[.eTag] ?? "",
            lastModified: modified, metadata: metadata)
    }

    /// A `ListBucketResult` body (asked with `encoding-type=url`: keys and prefixes are decoded here).
    static func listPage(_ body: Data) throws(S3Error) -> S3ListPage {
        let result: S3XMLElement
        do {
            result = try S3XMLElement.parse(body)
        } catch {
            throw .malformedAnswer("ListObjectsV2: \(error.reason)")
        }
        guard result.name == "ListBucketResult" else { throw .malformedAnswer("ListObjectsV2: <\(result.name)>") }
        let encoded = result.text(of: "EncodingType") == "url"
        func decoded(_ text: String) -> String {
            // AWS writes a space as '+', some servers as %20; '+' itself comes as %2B.
            encoded ? (text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text) : text
        }
        var objects: [S3Object] = []
        for content in result.children("Contents") {
            guard let key = content.text(of: "Key"), let size = content.text(of: "Size").flatMap({ Int64($0) }),
                let modified = content.text(of: "LastModified").flatMap(S3Dates.isoDate)
            else {
                throw .malformedAnswer("ListObjectsV2: an entry without key, size or date")
            }
            objects.append(
                S3Object(key: decoded(key), size: size, etag: content.text(of: "ETag") ?? "", lastModified: modified))
        }
        let truncated = result.text(of: "IsTruncated") == "true"
        return S3ListPage(
            objects: objects,
            commonPrefixes: result.children("CommonPrefixes").compactMap { $0.text(of: "Prefix").map(decoded) },
            nextContinuationToken: truncated ? result.text(of: "NextContinuationToken") : nil)
    }
}

/// The two date forms S3 answers in.
enum S3Dates {
    /// `2026-11-27T08:00:00.000Z` (listings), fractions optional.
    static func isoDate(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-T:Z.".contains($0) }).map(String.init)
        guard parts.count >= 6, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let hour = Int(parts[3]), let minute = Int(parts[4]), let second = Int(parts[5])
        else { return nil }
        let fraction = parts.count > 6 ? Double("0." + parts[6]) ?? 0 : 0
        return HTTPDate.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            .map { $0.addingTimeInterval(fraction) }
    }

    /// `Fri, 27 Nov 2026 08:00:00 GMT` (headers).
    static func httpDate(_ text: String) -> Date? { HTTPDate.parse(text) }
}
