import Crypto
public import Foundation
public import HTTPTypes
public import SeamsCore
public import SeamsS3

/// An S3 server in memory, as the transport of an `S3Client`: no socket is opened, and every
/// request is answered as AWS S3 documents it.
///
/// It checks each request's Signature Version 4 signature against the keys it was made with
/// (403 `SignatureDoesNotMatch`, `InvalidAccessKeyId`), so a request whose wire form differs from
/// what was signed fails here as on AWS. It honours `If-None-Match: *` and `If-Match` on `PUT`,
/// on `DELETE` and on completing a multipart upload, and `x-amz-copy-source-if-match` on a copy
/// and a part copy (moto ignores the last and `If-Match` on a completion: the contract suite
/// says so). ETags are quoted MD5s of the content, as S3's for a single `PUT` and a copy; an
/// object written in parts has S3's `"<MD5 of the parts' MD5s>-<count>"`. Dates are the injected
/// clock's, to the second in headers.
///
/// Buckets: `PUT /bucket` (path-style; `bucket.host` virtual-hosted works too). Objects: `PUT`,
/// `GET` (with `Range`), `HEAD`, `GET` and `HEAD` with `partNumber` (one part, and
/// `x-amz-mp-parts-count`), `DELETE`, `PUT` with `x-amz-copy-source`; `GET ?list-type=2`
/// with `prefix`, `delimiter`, `max-keys`, `continuation-token` and `encoding-type=url`;
/// multipart uploads (`POST ?uploads`, parts sent or copied with `x-amz-copy-source` and
/// `x-amz-copy-source-range`, completed, aborted, listed with `GET ?uploads`).
public final class InMemoryS3Server: WaitingHTTPTransportProviding {
    /// `http://s3.test`: the endpoint to give the client.
    public let endpoint: URL
    private let credentials: S3Credentials
    private let region: String
    /// Checks signatures (one signer, so its signing key is derived once a day).
    private let signer: SigV4Signer
    private let now: @Sendable () -> Date
    private let state = LockedValue(State())

    fileprivate struct Object: Equatable {
        var content: Data
        var etag: String
        var modified: Date
        var metadata: [String: String]
        /// The sizes of its parts, for an object written in parts; empty for one written whole.
        var partSizes: [Int] = []
    }

    /// A key as its bytes: Swift's `String` equality would make NFC and NFD names one key, and
    /// S3 keeps them apart.
    fileprivate struct Key: Hashable, Comparable {
        let bytes: [UInt8]
        init(_ text: String) { bytes = Array(text.utf8) }
        var text: String { String(decoding: bytes, as: UTF8.self) }
        func hasPrefix(_ prefix: Key) -> Bool { bytes.starts(with: prefix.bytes) }
        static func < (lhs: Key, rhs: Key) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
    }

    private struct Upload {
        var bucket: String
        var key: Key
        var metadata: [String: String]
        var parts: [Int: Data] = [:]
    }

    private struct State {
        var faults: [S3Fault?] = []
        var buckets: [String: [Key: Object]] = [:]
        var uploads: [String: Upload] = [:]
        var uploadCounter = 0
        var requests: [String] = []
        var ignoresConditions = false
    }

    /// A server that accepts requests signed with `credentials` for `region`.
    ///
    /// - Parameters:
    ///   - credentials: The only keys it accepts.
    ///   - region: The region requests must be signed for.
    ///   - now: Its clock (the objects' dates).
    public init(
        credentials: S3Credentials, region: String = "us-east-1", now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.endpoint = URL(string: "http://s3.test")!
        self.credentials = credentials
        self.region = region
        self.signer = SigV4Signer(credentials: credentials, region: region)
        self.now = now
        self.served = nil
    }

    /// A bucket whose objects are a folder's files, and its folders' markers, on a file system.
    private let served: ServedFolder?

    /// A server whose bucket `bucket` is the folder `folder` of `fileSystem`: each request reads
    /// the folder's files as the objects (their ETags the MD5s of their contents, their dates the
    /// files' dates), each folder under it as a marker `name/`, and writes what it changed back to
    /// the folder, so a test reads and changes the bucket as files (the crash suite's checks).
    /// Symbolic links are left out. A write the folder cannot hold (a key below a file's name)
    /// is answered 500.
    ///
    /// - Parameters:
    ///   - folder: The folder, which exists.
    ///   - fileSystem: Its file system.
    ///   - bucket: The bucket's name.
    ///   - credentials: The only keys it accepts.
    ///   - region: The region requests must be signed for.
    public init(
        serving folder: URL, of fileSystem: InMemoryFileSystem, bucket: String, credentials: S3Credentials,
        region: String = "us-east-1"
    ) {
        self.endpoint = URL(string: "http://s3.test")!
        self.credentials = credentials
        self.region = region
        self.signer = SigV4Signer(credentials: credentials, region: region)
        self.now = { fileSystem.now }
        self.served = ServedFolder(bucket: bucket, folder: folder, fileSystem: fileSystem)
        state.withLock { $0.buckets[bucket] = [:] }
    }

    /// Every request answered so far, as `METHOD target`.
    public var requests: [String] { state.withLock { $0.requests } }

    /// The keys of `bucket`'s objects, sorted.
    public func keys(in bucket: String) -> [String] {
        state.withLock { ($0.buckets[bucket] ?? [:]).keys.sorted().map(\.text) }
    }

    /// A fault the double shows on demand, as a real server cannot be made to.
    public enum S3Fault: Hashable, Sendable {
        /// An error answer instead of the request's, nothing applied: its status and S3 code
        /// (503 `SlowDown`, 500 `InternalError`).
        case respond(status: Int, code: String)
        /// The request is applied, then its answer is lost (the connection drops).
        case loseAnswer
        /// The connection is refused: the request never arrives.
        case refuseConnection
    }

    /// Shows `fault` on each of the next `times` requests, after those already injected; with
    /// `after`, only once that many more requests have been answered as usual.
    public func inject(_ fault: S3Fault, times: Int = 1, after: Int = 0) {
        state.withLock {
            $0.faults += Array(repeating: nil, count: after) + Array(repeating: fault, count: times)
        }
    }

    /// Makes the server accept `If-None-Match`, `If-Match` and `x-amz-copy-source-if-match` and
    /// ignore them, as some servers that speak S3 do (`rclone serve s3` 1.75): every conditional
    /// write is then applied. Off by default.
    public func ignoreConditions(_ ignoring: Bool = true) {
        state.withLock { $0.ignoresConditions = ignoring }
    }

    /// Drops every fault injected and not yet shown.
    public func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    public func send(
        _ request: HTTPRequest, body: Data?, timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        try exchange(request, body: body ?? Data())
    }

    /// The answer, or the next injected fault.
    private func exchange(_ request: HTTPRequest, body: Data) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let fault = state.withLock { $0.faults.isEmpty ? nil : $0.faults.removeFirst() } ?? nil
        switch fault {
        case nil: return answer(request, body: body)
        case .respond(let status, let code)?:
            state.withLock { $0.requests.append("\(request.method.rawValue) \(request.path ?? "/")") }
            return Self.error(status, code, "injected")
        case .loseAnswer?:
            _ = answer(request, body: body)
            throw HTTPTransportError(.connectionLost)
        case .refuseConnection?:
            throw HTTPTransportError(.cannotConnect)
        }
    }

    public func sendWaiting(
        _ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        switch body {
        case .none: return try exchange(request, body: Data())
        case .data(let data): return try exchange(request, body: data)
        case .file(let url):
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw HTTPTransportError(.other, underlying: error)
            }
            return try exchange(request, body: data)
        }
    }

    // MARK: Answers

    /// The answer, dated (`Date`) as S3 dates each: at the second of the server's clock that
    /// dates what the request wrote.
    private func answer(_ request: HTTPRequest, body: Data) -> (HTTPResponse, Data) {
        let moment = now()
        var (response, data) = answer(request, body: body, at: moment)
        response.headerFields[.date] = Self.httpDate(moment)
        return (response, data)
    }

    private func answer(_ request: HTTPRequest, body: Data, at moment: Date) -> (HTTPResponse, Data) {
        let now = { moment }
        let target = request.path ?? "/"
        state.withLock { $0.requests.append("\(request.method.rawValue) \(target)") }
        let (rawPath, rawQuery) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        let path = rawPath.removingPercentEncoding ?? rawPath
        let query: [SigV4Signer.Request.QueryItem] =
            rawQuery.isEmpty
            ? []
            : rawQuery.split(separator: "&").map { item in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return .init(
                    String(pair[0]).removingPercentEncoding ?? String(pair[0]),
                    pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : nil)
            }
        if let refusal = checkSignature(request, path: path, query: query, body: body) { return refusal }

        // The bucket: the host's first label (virtual-hosted), else the path's first part.
        let host = request.authority ?? ""
        let endpointHost = endpoint.host ?? ""
        let bucket: String
        let name: String
        if host != endpointHost, host.hasSuffix("." + endpointHost) {
            bucket = String(host.dropLast(endpointHost.count + 1))
            name = String(path.dropFirst())
        } else {
            let parts = path.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            bucket = parts.first.map(String.init) ?? ""
            name = parts.count > 1 ? String(parts[1]) : ""
        }
        let key = Key(name)
        let method = request.method.rawValue
        var fields = request.headerFields
        if state.withLock({ $0.ignoresConditions }) {
            for name in [HTTPField.Name.ifNoneMatch, .ifMatch, HTTPField.Name("x-amz-copy-source-if-match")!] {
                fields[name] = nil
            }
        }
        return state.withLock { state -> (HTTPResponse, Data) in
            // A served folder's bucket is read from the folder before and written to it after.
            let served = self.served.flatMap { $0.bucket == bucket ? $0 : nil }
            let before = served?.load()
            if let before { state.buckets[bucket] = before }
            let reply = respond(&state)
            if let served, let before { served.store(state.buckets[bucket] ?? [:], over: before) }
            return reply
        }

        func respond(_ state: inout State) -> (HTTPResponse, Data) {
            if name.isEmpty {
                switch method {
                case "PUT":
                    if state.buckets[bucket] == nil { state.buckets[bucket] = [:] }
                    return Self.reply(200)
                case "GET" where query.contains(where: { $0.name == "uploads" }):
                    guard state.buckets[bucket] != nil else { return Self.error(404, "NoSuchBucket", bucket) }
                    let prefix = Key(query.first { $0.name == "prefix" }?.value ?? "")
                    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListMultipartUploadsResult>"
                    for (id, upload) in state.uploads.sorted(by: { $0.key < $1.key })
                    where upload.bucket == bucket && upload.key.hasPrefix(prefix) {
                        xml += "<Upload><Key>\(Self.escaped(upload.key.text))</Key><UploadId>\(id)</UploadId></Upload>"
                    }
                    xml += "</ListMultipartUploadsResult>"
                    return Self.reply(200, body: Data(xml.utf8))
                case "GET" where query.contains(where: { $0.name == "list-type" && $0.value == "2" }):
                    guard let objects = state.buckets[bucket] else { return Self.error(404, "NoSuchBucket", bucket) }
                    return Self.list(objects, query)
                default:
                    return Self.error(405, "MethodNotAllowed", "\(method) on a bucket")
                }
            }
            guard var objects = state.buckets[bucket] else { return Self.error(404, "NoSuchBucket", bucket) }
            defer { state.buckets[bucket] = objects }
            let existing = objects[key]
            func item(_ name: String) -> String? { query.first { $0.name == name }.map { $0.value ?? "" } }
            if let id = item("uploadId") {
                return Self.multipart(
                    method, id: id, part: item("partNumber"), key: key, existing: existing, body: body,
                    fields: fields, state: &state, objects: &objects, now: now())
            }
            if method == "POST", item("uploads") != nil {
                state.uploadCounter += 1
                let id = "upload-\(state.uploadCounter)"
                state.uploads[id] = Upload(bucket: bucket, key: key, metadata: Self.metadata(fields))
                let xml =
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<InitiateMultipartUploadResult><Bucket>\(bucket)</Bucket>"
                    + "<Key>\(Self.escaped(name))</Key><UploadId>\(id)</UploadId></InitiateMultipartUploadResult>"
                return Self.reply(200, body: Data(xml.utf8))
            }
            switch method {
            case "PUT":
                if let source = fields[HTTPField.Name("x-amz-copy-source")!] {
                    return copy(source, to: key, in: bucket, objects: &objects, buckets: state.buckets, fields: fields)
                }
                if let refusal = Self.refusal(ofWriteTo: existing, fields) { return refusal }
                let object = Object(
                    content: body, etag: Self.etag(body), modified: now(), metadata: Self.metadata(fields))
                objects[key] = object
                return Self.reply(200, headers: [(.eTag, object.etag)])
            case "GET", "HEAD":
                guard let object = existing else {
                    return method == "HEAD" ? Self.reply(404) : Self.error(404, "NoSuchKey", name)
                }
                if let expected = fields[.ifMatch], expected != object.etag {
                    return Self.error(412, "PreconditionFailed", "If-Match")
                }
                var headers = Self.headers(of: object)
                var content = object.content
                var status = 200
                if let number = item("partNumber") {
                    // One part of an object written in parts, with their count; an object
                    // written whole is its own part 1.
                    let sizes = object.partSizes.isEmpty ? [object.content.count] : object.partSizes
                    guard let part = Int(number), part >= 1 else {
                        return Self.error(400, "InvalidArgument", "partNumber")
                    }
                    guard part <= sizes.count else {
                        return Self.error(416, "InvalidPartNumber", "The requested partnumber is not satisfiable")
                    }
                    let first = sizes[..<(part - 1)].reduce(0, +)
                    content = object.content.subdata(in: first..<(first + sizes[part - 1]))
                    status = 206
                    if !content.isEmpty {
                        headers.append(
                            (.contentRange, "bytes \(first)-\(first + content.count - 1)/\(object.content.count)"))
                    }
                    if !object.partSizes.isEmpty { headers.append((Self.partsCount, String(sizes.count))) }
                    headers.append((.contentLength, String(content.count)))
                    return Self.reply(status, headers: headers, body: method == "HEAD" ? Data() : content)
                }
                if fields[.range] != nil, object.content.isEmpty {
                    return Self.error(416, "InvalidRange", "The requested range is not satisfiable")
                }
                if let range = fields[.range], let (first, last) = Self.range(range, size: object.content.count) {
                    content = object.content.subdata(in: first..<(last + 1))
                    status = 206
                    headers.append((.contentRange, "bytes \(first)-\(last)/\(object.content.count)"))
                }
                headers.append((.contentLength, String(method == "HEAD" ? object.content.count : content.count)))
                return Self.reply(status, headers: headers, body: method == "HEAD" ? Data() : content)
            case "DELETE":
                if let expected = fields[.ifMatch], let object = existing, object.etag != expected {
                    return Self.error(412, "PreconditionFailed", "If-Match")
                }
                objects[key] = nil
                return Self.reply(204)
            default:
                return Self.error(405, "MethodNotAllowed", method)
            }
        }
    }

    private func copy(
        _ source: String, to key: Key, in bucket: String, objects: inout [Key: Object],
        buckets: [String: [Key: Object]], fields: HTTPFields
    ) -> (HTTPResponse, Data) {
        let decoded = source.removingPercentEncoding ?? source
        let parts = decoded.drop(while: { $0 == "/" }).split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, bucket == parts[0] || buckets[parts[0]] != nil else {
            return Self.error(404, "NoSuchBucket", decoded)
        }
        // Within this bucket, the objects as this request sees them.
        let sourceKey = Key(parts[1])
        guard let original = bucket == parts[0] ? objects[sourceKey] : buckets[parts[0]]?[sourceKey] else {
            return Self.error(404, "NoSuchKey", parts[1])
        }
        if let expected = fields[HTTPField.Name("x-amz-copy-source-if-match")!], expected != original.etag {
            return Self.error(412, "PreconditionFailed", "x-amz-copy-source-if-match")
        }
        if let refusal = Self.refusal(ofWriteTo: objects[key], fields) { return refusal }
        // The copy is written whole: its ETag is the MD5 of its bytes, even for a source written
        // in parts (whose ETag is `"…-N"`), as AWS and moto make it.
        let copied = Object(
            content: original.content, etag: Self.etag(original.content), modified: now(), metadata: original.metadata)
        objects[key] = copied
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <CopyObjectResult><LastModified>\(Self.isoDate(copied.modified))</LastModified>\
            <ETag>\(Self.escaped(copied.etag))</ETag></CopyObjectResult>
            """
        return Self.reply(200, body: Data(body.utf8))
    }

    /// A part's upload (`PUT ?partNumber&uploadId`), the completion (`POST ?uploadId`: parts of
    /// at least 5 MiB but the last, the write's condition checked now), or an abort (`DELETE`).
    private static func multipart(
        _ method: String, id: String, part: String?, key: Key, existing: Object?, body: Data, fields: HTTPFields,
        state: inout State, objects: inout [Key: Object], now: Date
    ) -> (HTTPResponse, Data) {
        guard var upload = state.uploads[id], upload.key == key else { return error(404, "NoSuchUpload", id) }
        switch method {
        case "PUT":
            guard let number = part.flatMap({ Int($0) }), (1...10_000).contains(number) else {
                return error(400, "InvalidArgument", "partNumber")
            }
            if let source = fields[HTTPField.Name("x-amz-copy-source")!] {
                // A part copied from an object (`UploadPartCopy`), whole or a range of it.
                let data: Data
                switch copiedPart(source, fields: fields, into: upload.bucket, objects: objects, buckets: state.buckets)
                {
                case .success(let copied): data = copied
                case .failure(let refusal): return refusal.reply
                }
                upload.parts[number] = data
                state.uploads[id] = upload
                let xml =
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CopyPartResult><LastModified>\(isoDate(now))"
                    + "</LastModified><ETag>\(escaped(etag(data)))</ETag></CopyPartResult>"
                return reply(200, body: Data(xml.utf8))
            }
            upload.parts[number] = body
            state.uploads[id] = upload
            return reply(200, headers: [(.eTag, etag(body))])
        case "POST":
            guard let list = try? S3XMLElementReader.parts(body), !list.isEmpty else {
                return error(400, "MalformedXML", "CompleteMultipartUpload")
            }
            var content = Data()
            var digests = Data()
            var sizes: [Int] = []
            for (index, (number, tag)) in list.enumerated() {
                guard let data = upload.parts[number], etag(data) == tag else {
                    return error(400, "InvalidPart", "\(number)")
                }
                if index < list.count - 1, data.count < 5 << 20 {
                    return error(400, "EntityTooSmall", "part \(number)")
                }
                content.append(data)
                sizes.append(data.count)
                digests.append(contentsOf: Insecure.MD5.hash(data: data))
            }
            if let refusal = refusal(ofWriteTo: existing, fields) { return refusal }
            let tag =
                "\"" + hex(Insecure.MD5.hash(data: digests)) + "-\(list.count)\""
            objects[key] = Object(
                content: content, etag: tag, modified: now, metadata: upload.metadata, partSizes: sizes)
            state.uploads[id] = nil
            let xml =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CompleteMultipartUploadResult><Key>"
                + escaped(key.text) + "</Key><ETag>\(escaped(tag))</ETag></CompleteMultipartUploadResult>"
            return reply(200, body: Data(xml.utf8))
        case "DELETE":
            state.uploads[id] = nil
            return reply(204)
        default:
            return error(405, "MethodNotAllowed", method)
        }
    }

    /// An error answer, as a value a `Result` can carry.
    private struct Refusal: Error {
        var reply: (HTTPResponse, Data)
    }

    /// The bytes an `UploadPartCopy` takes from `source` (`/bucket/key`): the whole object, or
    /// the `x-amz-copy-source-range` of it; refused when the source is missing, is another
    /// version than `x-amz-copy-source-if-match` names, or the range is not within it.
    private static func copiedPart(
        _ source: String, fields: HTTPFields, into bucket: String, objects: [Key: Object],
        buckets: [String: [Key: Object]]
    ) -> Result<Data, Refusal> {
        let decoded = source.removingPercentEncoding ?? source
        let parts = decoded.drop(while: { $0 == "/" }).split(separator: "/", maxSplits: 1).map(String.init)
        // The bucket written is `objects`, as this request sees it.
        guard parts.count == 2, let sourceObjects = parts[0] == bucket ? objects : buckets[parts[0]] else {
            return .failure(Refusal(reply: error(404, "NoSuchBucket", decoded)))
        }
        guard let original = sourceObjects[Key(parts[1])] else {
            return .failure(Refusal(reply: error(404, "NoSuchKey", parts[1])))
        }
        if let expected = fields[HTTPField.Name("x-amz-copy-source-if-match")!], expected != original.etag {
            return .failure(Refusal(reply: error(412, "PreconditionFailed", "x-amz-copy-source-if-match")))
        }
        guard let range = fields[HTTPField.Name("x-amz-copy-source-range")!] else { return .success(original.content) }
        // Both bounds, within the object (S3 refuses an open or overlong range here).
        let bounds =
            range.hasPrefix("bytes=") ? range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false) : []
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last,
            last < original.content.count
        else {
            return .failure(Refusal(reply: error(416, "InvalidRange", range)))
        }
        return .success(original.content.subdata(in: first..<(last + 1)))
    }

    /// 412 when a write's condition does not hold; 404 for `If-Match` with nothing there.
    private static func refusal(ofWriteTo existing: Object?, _ fields: HTTPFields) -> (HTTPResponse, Data)? {
        if fields[.ifNoneMatch] == "*", existing != nil { return error(412, "PreconditionFailed", "If-None-Match") }
        if let expected = fields[.ifMatch] {
            guard let existing else { return error(404, "NoSuchKey", "If-Match") }
            if existing.etag != expected { return error(412, "PreconditionFailed", "If-Match") }
        }
        return nil
    }

    private static func list(_ objects: [Key: Object], _ query: [SigV4Signer.Request.QueryItem]) -> (HTTPResponse, Data)
    {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        let prefix = value("prefix") ?? ""
        let delimiter = value("delimiter").flatMap { $0.isEmpty ? nil : $0 }
        let maxKeys = min(1_000, max(0, Int(value("max-keys") ?? "") ?? 1_000))
        let after = value("continuation-token") ?? ""
        let encode = value("encoding-type") == "url"
        func text(_ key: String) -> String {
            escaped(encode ? SigV4Signer.encode(key, keepingSlashes: true) : key)
        }
        // Keys in UTF-8 byte order, as S3 lists them; a delimiter folds keys into prefixes.
        let start = Key(prefix)
        let keys = objects.keys.filter { $0.hasPrefix(start) }.sorted()
        var entries: [(key: Key, isPrefix: Bool)] = []
        for key in keys {
            let rest = key.text.utf8.dropFirst(start.bytes.count)
            if let delimiter, let found = String(decoding: rest, as: UTF8.self).range(of: delimiter) {
                let folded = Key(prefix + String(decoding: rest, as: UTF8.self)[..<found.upperBound])
                if entries.last?.key != folded { entries.append((folded, true)) }
            } else {
                entries.append((key, false))
            }
        }
        // The token is the last key (or prefix) of the page before: the next page starts after it.
        let token = Key(after)
        let remaining = entries.filter { after.isEmpty || token < $0.key }
        let page = remaining.prefix(maxKeys)
        let truncated = remaining.count > page.count
        var xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        xml += "<Prefix>\(text(prefix))</Prefix><KeyCount>\(page.count)</KeyCount><MaxKeys>\(maxKeys)</MaxKeys>"
        if encode { xml += "<EncodingType>url</EncodingType>" }
        xml += "<IsTruncated>\(truncated)</IsTruncated>"
        if truncated, let last = page.last {
            xml += "<NextContinuationToken>\(escaped(last.key.text))</NextContinuationToken>"
        }
        for entry in page {
            if entry.isPrefix {
                xml += "<CommonPrefixes><Prefix>\(text(entry.key.text))</Prefix></CommonPrefixes>"
            } else if let object = objects[entry.key] {
                xml +=
                    "<Contents><Key>\(text(entry.key.text))</Key><LastModified>\(isoDate(object.modified))</LastModified>"
                xml += "<ETag>\(escaped(object.etag))</ETag><Size>\(object.content.count)</Size>"
                xml += "<StorageClass>STANDARD</StorageClass></Contents>"
            }
        }
        xml += "</ListBucketResult>"
        return reply(200, body: Data(xml.utf8))
    }

    // MARK: Signatures

    private func checkSignature(
        _ request: HTTPRequest, path: String, query: [SigV4Signer.Request.QueryItem], body: Data
    ) -> (HTTPResponse, Data)? {
        let fields = request.headerFields
        guard let authorization = fields[.authorization], authorization.hasPrefix("AWS4-HMAC-SHA256 ") else {
            return Self.error(403, "AccessDenied", "no Signature Version 4 authorization")
        }
        var parts: [String: String] = [:]
        for part in authorization.dropFirst("AWS4-HMAC-SHA256 ".count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        guard let credential = parts["Credential"], let signed = parts["SignedHeaders"],
            let signature = parts["Signature"]
        else { return Self.error(400, "AuthorizationHeaderMalformed", authorization) }
        let scope = credential.split(separator: "/")
        guard scope.count == 5, String(scope[0]) == credentials.accessKeyID else {
            return Self.error(403, "InvalidAccessKeyId", String(scope.first ?? ""))
        }
        guard String(scope[2]) == region, scope[3] == "s3" else {
            return Self.error(400, "AuthorizationHeaderMalformed", "signed for \(scope[2])/\(scope[3])")
        }
        let payloadHash = fields[HTTPField.Name("x-amz-content-sha256")!] ?? ""
        if payloadHash != SigV4Signer.unsignedPayload, payloadHash != SigV4Signer.payloadHash(body) {
            return Self.error(400, "XAmzContentSHA256Mismatch", "the body is not what was signed")
        }
        var headers: [(name: String, value: String)] = []
        for name in signed.split(separator: ";").map(String.init) {
            if name == "host" {
                headers.append((name, request.authority ?? ""))
                continue
            }
            let values = fields[values: HTTPField.Name(name)!]
            guard !values.isEmpty else {
                return Self.error(403, "SignatureDoesNotMatch", "\(name) was signed, not sent")
            }
            for value in values { headers.append((name, value)) }
        }
        let expected = signer.authorization(
            SigV4Signer.Request(method: request.method.rawValue, path: path, query: query, headers: headers),
            payloadHash: payloadHash)
        guard expected.hasSuffix("Signature=" + signature) else {
            return Self.error(403, "SignatureDoesNotMatch", "the signature does not match")
        }
        return nil
    }

    // MARK: Replies

    private static func reply(
        _ status: Int, headers: [(HTTPField.Name, String)] = [], body: Data = Data()
    ) -> (HTTPResponse, Data) {
        var response = HTTPResponse(status: .init(code: status))
        for (name, value) in headers { response.headerFields.append(HTTPField(name: name, value: value)) }
        return (response, body)
    }

    private static func error(_ status: Int, _ code: String, _ message: String) -> (HTTPResponse, Data) {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>\(code)</Code><Message>\(escaped(message))</Message><RequestId>in-memory</RequestId></Error>
            """
        return reply(status, headers: [(.contentType, "application/xml")], body: Data(body.utf8))
    }

    private static let partsCount = HTTPField.Name("x-amz-mp-parts-count")!

    private static func headers(of object: Object) -> [(HTTPField.Name, String)] {
        var headers: [(HTTPField.Name, String)] = [(.eTag, object.etag), (.lastModified, httpDate(object.modified))]
        for (name, value) in object.metadata.sorted(by: { $0.key < $1.key }) {
            headers.append((HTTPField.Name("x-amz-meta-" + name)!, value))
        }
        return headers
    }

    private static func metadata(_ fields: HTTPFields) -> [String: String] {
        var metadata: [String: String] = [:]
        for field in fields where field.name.canonicalName.hasPrefix("x-amz-meta-") {
            metadata[String(field.name.canonicalName.dropFirst("x-amz-meta-".count))] = field.value
        }
        return metadata
    }

    /// `bytes=first-last` (or `first-`) within `size`.
    private static func range(_ text: String, size: Int) -> (Int, Int)? {
        guard text.hasPrefix("bytes=") else { return nil }
        let bounds = text.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), first < size else { return nil }
        let last = bounds[1].isEmpty ? size - 1 : min(size - 1, Int(bounds[1]) ?? size - 1)
        return last >= first ? (first, last) : nil
    }

    fileprivate static func etag(_ content: Data) -> String {
        "\"" + hex(Insecure.MD5.hash(data: content)) + "\""
    }

    /// Lowercase hex (a hand loop: `String(format:)` per byte took a sixth of the S3 crash suite).
    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func isoDate(_ date: Date) -> String {
        let stamp = SigV4Signer.timestamp(date)  // yyyyMMddTHHmmssZ
        let d = Array(stamp)
        return
            "\(String(d[0..<4]))-\(String(d[4..<6]))-\(String(d[6..<8]))T\(String(d[9..<11])):\(String(d[11..<13])):\(String(d[13..<15])).000Z"
    }

    private static func httpDate(_ date: Date) -> String { HTTPDate.format(date) }
}

/// Reads the parts of a `CompleteMultipartUpload` body: `<Part><PartNumber>…</PartNumber><ETag>…</ETag></Part>`.
private enum S3XMLElementReader {
    struct Malformed: Error {}

    static func parts(_ body: Data) throws -> [(Int, String)] {
        let text = String(decoding: body, as: UTF8.self)
        var parts: [(Int, String)] = []
        for chunk in text.components(separatedBy: "<Part>").dropFirst() {
            guard let number = value(of: "PartNumber", in: chunk).flatMap({ Int($0) }),
                let tag = value(of: "ETag", in: chunk)
            else { throw Malformed() }
            parts.append((number, tag.replacingOccurrences(of: "&quot;", with: "\"")))
        }
        return parts
    }

    private static func value(of name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"),
            let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

/// The folder a served bucket's objects are kept in.
private struct ServedFolder: Sendable {
    let bucket: String
    let folder: URL
    let fileSystem: InMemoryFileSystem

    /// The folder's files and folders as objects and markers.
    func load() -> [InMemoryS3Server.Key: InMemoryS3Server.Object] {
        var objects: [InMemoryS3Server.Key: InMemoryS3Server.Object] = [:]
        var pending: [(String, URL)] = [("", folder)]
        while let (prefix, url) = pending.popLast() {
            for entry in (try? fileSystem.contentsOfDirectory(at: url)) ?? [] {
                let child = url.appending(path: entry.name)
                let key = prefix + entry.name
                switch entry.metadata.kind {
                case .directory:
                    objects[.init(key + "/")] = .init(
                        content: Data(), etag: InMemoryS3Server.etag(Data()),
                        modified: entry.metadata.modificationDate, metadata: [:])
                    pending.append((key + "/", child))
                case .file:
                    guard let content = try? fileSystem.read(from: child) else { continue }
                    objects[.init(key)] = .init(
                        content: content, etag: InMemoryS3Server.etag(content),
                        modified: entry.metadata.modificationDate, metadata: [:])
                default:
                    continue
                }
            }
        }
        return objects
    }

    /// Writes the changes from `before` to `after` to the folder: files removed, then folders
    /// and files made or replaced (each file written whole, with the object's date), then
    /// folders whose marker went removed once empty, deepest first.
    func store(
        _ after: [InMemoryS3Server.Key: InMemoryS3Server.Object],
        over before: [InMemoryS3Server.Key: InMemoryS3Server.Object]
    ) {
        func url(_ key: InMemoryS3Server.Key) -> URL {
            var text = key.text
            if text.hasSuffix("/") { text.removeLast() }
            return text.split(separator: "/").reduce(folder) { $0.appending(path: String($1)) }
        }
        for (key, _) in before where after[key] == nil && !key.text.hasSuffix("/") {
            try? fileSystem.removeItem(at: url(key), recursively: false)
        }
        for (key, object) in after.sorted(by: { $0.key < $1.key }) where before[key] != object {
            let target = url(key)
            if key.text.hasSuffix("/") {
                try? fileSystem.createDirectory(at: target, withIntermediateDirectories: true)
                continue
            }
            try? fileSystem.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if (try? fileSystem.metadata(at: target))?.kind == .directory {
                try? fileSystem.removeItem(at: target, recursively: false)
            }
            try? fileSystem.write(object.content, to: target)
            try? fileSystem.setModificationDate(object.modified, at: target)
        }
        let gone = before.keys.filter { $0.text.hasSuffix("/") && after[$0] == nil }
        for key in gone.sorted(by: { $0.bytes.count > $1.bytes.count }) {
            let target = url(key)
            if (try? fileSystem.contentsOfDirectory(at: target))?.isEmpty == true {
                try? fileSystem.removeItem(at: target, recursively: false)
            }
        }
    }
}
