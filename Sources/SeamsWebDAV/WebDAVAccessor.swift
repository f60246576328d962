import Dispatch
public import Foundation
import HTTPTypes
public import SeamsCore

/// A folder on a WebDAV server (Apache `mod_dav`, Nextcloud, ownCloud, `rclone serve webdav`, most
/// NAS boxes), seen through the same boundaries as a local folder: `DirectoryAccessorProviding`
/// and `FileAccessorProviding`, over any `HTTPTransportProviding`.
///
/// A sync engine written against those protocols runs against a server unchanged; tests inject
/// `InMemoryWebDAVServer` from `SeamsTesting` as the transport and no socket is opened.
///
/// ```swift
/// let server = WebDAVAccessor(
///     baseURL: URL(string: "https://dav.example.com/remote.php/dav/files/me/")!,
///     credentials: WebDAVCredentials(user: "me", password: secret),
///     transport: URLSessionHTTPTransport.shared)
/// let names = try server.contentsOfDirectory(at: server.baseURL.appending(path: "Notes")).map(\.name)
/// ```
///
/// The calls are synchronous, as the protocols' are: each waits for its exchange on the calling
/// thread. Call them from a thread of your own (the sync engine has one), never from a task of
/// Swift's cooperative pool, which must not block.
///
/// What a server cannot do is answered the way a local file system without it answers:
/// - no hard links: ``linkItem(at:to:)`` throws EPERM (as FAT and exFAT do), so the engine keeps
///   replaced versions by copying them (`COPY` on the server);
/// - no permission bits: items report `0o644` (files) and `0o755` (folders), and
///   ``setPermissions(_:at:)`` changes nothing;
/// - modification dates are the server's, to the second (`getlastmodified`), and cannot be set:
///   ``setModificationDate(_:at:)`` changes nothing;
/// - every answered write is as durable as the server makes it: the flush calls change nothing;
/// - a file's `FileMetadata.fileIdentifier` and `FileMetadata.contentTag` are a hash of its
///   ETag, so a file rewritten in place reads as another item even when its size and second are
///   unchanged; a collection's are 0 (its ETag changes whenever an item is added inside).
///
/// Errors are the file system's (`CocoaError` with the `POSIXError` underneath), mapped from the
/// status: 404 and 409 are ENOENT, 412 (a refused `Overwrite: F` or `If-None-Match: *`) and 405
/// on `MKCOL` EEXIST, 401 and 403 EACCES, 423 EBUSY, 507 ENOSPC, 413 EFBIG, other statuses EIO;
/// a transport failure is ECONNREFUSED, ETIMEDOUT, ECONNRESET or EHOSTUNREACH. The status and
/// the transport's error are kept in the error's `NSLocalizedFailureReasonErrorKey`.
///
/// Transient failures are retried with back-off, a bounded number of times: a refused connection,
/// 502, 503 and 429 (honouring `Retry-After`) for every request; a lost connection, a timeout and
/// 504 only for requests that change nothing (`GET`, `HEAD`, `PROPFIND`, `OPTIONS`). A write whose
/// answer was lost is never assumed to have failed or succeeded: it throws, and the caller looks
/// at the server again.
public final class WebDAVAccessor: Sendable {
    /// The collection this accessor was made for; every URL it is given starts with its scheme,
    /// host and port.
    public let baseURL: URL
    let credentials: WebDAVCredentials?
    let transport: any HTTPTransportProviding
    let timeout: Duration
    let retryLimit: Int
    let pause: @Sendable (Duration) -> Void
    /// The most bytes one `GET` of ``download(_:toNewFile:in:)`` asks for.
    public let pieceSize: Int
    /// How long after a request found the server unreachable (all its retries spent) later
    /// requests fail at once, without being sent.
    public let outageCooldown: Duration
    /// Reads the time the outage cooldown is measured in.
    let now: @Sendable () -> ContinuousClock.Instant
    /// When the server was last found unreachable, and how.
    private let outage = LockedValue<(since: ContinuousClock.Instant, error: HTTPTransportError)?>(nil)

    /// Whether the last request found the server out of reach (no connection, no answer) and no
    /// answer came since.
    var isInOutage: Bool { outage.withLock { $0 != nil } }
    /// The ETags ``metadata(at:)`` last read, by request path (a bounded number).
    let recentETags = LockedValue<[String: String]>([:])
    /// Whether this server was seen refusing an `If` condition on an ETag that holds (rclone).
    let etagConditionsIgnored = LockedValue(false)
    /// Collections' listings fetched ahead by ``beginTreeListing(at:expecting:skipping:)``, by
    /// the bytes of their decoded paths.
    let prefetched = LockedValue<[[UInt8]: [DirectoryEntry]]>([:])
    /// Counts the requests that may change the server, so a listing fetched across one is not kept.
    let listingGeneration = LockedValue<UInt64>(0)
    /// Whether a `PROPFIND` with `Depth: infinity` to this server failed, was refused (Apache by
    /// default) or answered with what cannot be trusted: the tree is not asked for again.
    let treeListingGivenUp = LockedValue(false)

    /// Creates an accessor.
    ///
    /// - Parameters:
    ///   - baseURL: The server's collection (`https://host/dav/`); it is not contacted here.
    ///   - credentials: Basic credentials, sent with every request; `nil` for none.
    ///   - transport: Sends the requests.
    ///   - timeout: How long one exchange may take.
    ///   - retryLimit: How many times a transient failure is retried.
    ///   - pause: Waits between retries (real time by default; tests record instead).
    ///   - pieceSize: The most bytes a download asks for in one `GET` (8 MiB by default).
    ///   - outageCooldown: Once a request found the server unreachable (no connection, no answer
    ///     in time, no such host) after all its retries, every request in this much time fails at
    ///     once with the same error, unsent: a server that went away mid-run ends the run's
    ///     remaining work in moments, not in retries per file. 10 seconds by default.
    ///   - now: Reads the time the cooldown is measured in (the continuous clock by default;
    ///     tests move their own).
    public init(
        baseURL: URL,
        credentials: WebDAVCredentials? = nil,
        transport: any HTTPTransportProviding,
        timeout: Duration = .seconds(60),
        retryLimit: Int = 3,
        pause: @escaping @Sendable (Duration) -> Void = {
            Thread.sleep(forTimeInterval: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
        },
        pieceSize: Int = 8 << 20,
        outageCooldown: Duration = .seconds(10),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.outageCooldown = outageCooldown
        self.now = now
        precondition(pieceSize > 0, "a download piece holds at least one byte")
        self.pieceSize = pieceSize
        self.baseURL = baseURL
        self.credentials = credentials
        self.transport = transport
        self.timeout = timeout
        self.retryLimit = retryLimit
        self.pause = pause
    }

    /// Whether `url` is on this accessor's server (same scheme, host and port).
    ///
    /// - Parameter url: Any URL.
    /// - Returns: `true` when requests for it go to this server.
    public func serves(_ url: URL) -> Bool {
        url.scheme?.lowercased() == baseURL.scheme?.lowercased() && url.host() == baseURL.host()
            && url.port == baseURL.port
    }

    // MARK: Requests

    /// What a request sends: nothing, bytes in memory, or a local file read as it is sent.
    enum Body {
        case none
        case data(Data)
        /// A local file and the boundary that reads it.
        case file(URL, any FileAccessorProviding)
    }

    /// Sends one request, retrying transient failures, and returns the answer (any status).
    func send(
        _ method: HTTPRequest.Method, _ url: URL, collection: Bool = false, headers: HTTPFields = [:], body: Data? = nil
    ) throws -> (HTTPResponse, Data) {
        try send(method, url, collection: collection, headers: headers, body: body.map(Body.data) ?? .none)
    }

    func send(
        _ method: HTTPRequest.Method, _ url: URL, collection: Bool = false, headers: HTTPFields = [:], body: Body
    ) throws -> (HTTPResponse, Data) {
        var request = HTTPRequest(
            method: method, scheme: url.scheme, authority: authority(url), path: path(url, collection: collection))
        request.headerFields = headers
        if let credentials { request.headerFields[.authorization] = credentials.authorization }
        let safe = Self.safeMethods.contains(method)
        // Before the write, and again once it is answered: a tree fetched while it was on its way
        // may have been listed before it landed.
        if !safe { forgetListings() }
        defer { if !safe { forgetListings() } }
        if let recent = outage.withLock({ $0 }), now() - recent.since < outageCooldown {
            throw transportFailure(recent.error, url: url, writing: !safe, unsent: true)
        }
        var attempt = 0
        while true {
            let result = exchange(request, body: body)
            attempt += 1
            switch result {
            case .success(let (response, data)):
                outage.withLock { $0 = nil }
                let status = response.status.code
                let retryable = status == 502 || status == 503 || status == 429 || (safe && status == 504)
                if retryable && attempt <= retryLimit {
                    pause(delay(attempt: attempt, retryAfter: response.headerFields[.retryAfter]))
                    continue
                }
                return (response, data)
            case .failure(let error):
                let retryable = error.kind == .cannotConnect || (safe && error.isTransient)
                if retryable && attempt <= retryLimit {
                    pause(delay(attempt: attempt, retryAfter: nil))
                    continue
                }
                // A local file that could not be read or written is the file system's own error.
                if error.kind == .other, let local = error.underlying?.error as? CocoaError { throw local }
                if [.cannotConnect, .timedOut, .hostNotFound].contains(error.kind) {
                    outage.withLock { $0 = (now(), error) }
                }
                throw transportFailure(error, url: url, writing: !safe)
            }
        }
    }

    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .propfind]

    /// Runs one exchange to its end on this thread.
    ///
    /// A transport that can be waited for (``WaitingHTTPTransportProviding``, as
    /// `URLSessionHTTPTransport`, `AsyncHTTPClientTransport` and `InMemoryWebDAVServer` are) is:
    /// the thread that receives the answer wakes this one, with no task between them. A transport
    /// that is only async (a test's mock, a recording) is run in a task this thread waits for
    /// (``waitForTask(_:)``).
    ///
    /// A file body streams from the file when the file is on this machine's file system and the
    /// transport can stream it (a waiting transport, or ``HTTPFileTransferProviding``); otherwise
    /// the transport is given the file's bytes, read through the file's own boundary.
    private func exchange(_ request: HTTPRequest, body: Body) -> Result<(HTTPResponse, Data), HTTPTransportError> {
        let waiting = transport as? any WaitingHTTPTransportProviding
        let streaming = transport as? any HTTPFileTransferProviding
        let payload: HTTPRequestBody
        switch body {
        case .none: payload = .none
        case .data(let data): payload = .data(data)
        case .file(let file, let files):
            if files.usesThisMachinesFileSystem && (waiting != nil || streaming != nil) {
                payload = .file(file)
            } else {
                do {
                    payload = .data(try files.read(from: file))
                } catch {
                    return .failure(
                        HTTPTransportError(.other, underlying: Self.localError(error, path: file.path, writing: false)))
                }
            }
        }
        let timeout = self.timeout
        if let waiting {
            return Result { () throws(HTTPTransportError) in
                try waiting.sendWaiting(request, body: payload, timeout: timeout)
            }
        }
        let transport = self.transport
        return Self.waitForTask { () async -> Result<(HTTPResponse, Data), HTTPTransportError> in
            do throws(HTTPTransportError) {
                switch payload {
                case .none: return .success(try await transport.send(request, body: nil, timeout: timeout))
                case .data(let data): return .success(try await transport.send(request, body: data, timeout: timeout))
                case .file(let file):
                    return .success(try await streaming!.send(request, bodyFile: file, timeout: timeout))
                }
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs `work` in a task and blocks this thread until it ends: the accessor's one bridge from
    /// its blocking calls to a transport that is only async.
    ///
    /// The accessor's calls are blocking by contract, and the sync engine makes them on its own
    /// threads. Called from a task, the wait holds a thread of Swift's cooperative pool that
    /// `work` may need (a test may, with threads to spare; an app should not).
    @available(*, noasync)
    static func waitForTask<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let outcome = LockedValue<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result = await work()
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0! }
    }

    /// A local file's error as the file system's `CocoaError`.
    static func localError(_ error: any Error, path: String, writing: Bool) -> CocoaError {
        if let cocoa = error as? CocoaError, cocoa.userInfo[NSUnderlyingErrorKey] is POSIXError { return cocoa }
        let code =
            ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
                $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil
            }
            ?? (error as? POSIXError)?.code.rawValue ?? EIO
        return CocoaError.fileSystemError(errno: code, path: path, writing: writing)
    }

    private func delay(attempt: Int, retryAfter: String?) -> Duration {
        if let retryAfter, let seconds = Int(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return .seconds(min(seconds, 30))
        }
        return .milliseconds(250 * (1 << min(attempt - 1, 6)))
    }

    func authority(_ url: URL) -> String? {
        guard let host = url.host(percentEncoded: true) else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    /// The percent-encoded path of `url`, with one trailing slash for a collection and none otherwise.
    /// A URL spelled with a trailing slash keeps it: servers map a collection's alias only with
    /// it (Apache answers `PROPFIND /dav` for `Alias /dav/` with 405).
    func path(_ url: URL, collection: Bool) -> String {
        var path = url.standardized.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        let slashed = collection || path.hasSuffix("/")
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        if slashed, !path.hasSuffix("/") { path += "/" }
        return path
    }

    /// The decoded path of `url` as a `PROPFIND` answer names it (no trailing slash).
    func decodedPath(_ url: URL) -> String {
        var path = self.path(url, collection: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path.removingPercentEncoding ?? path
    }

    // MARK: Errors

    /// The file-system error for an answer that is not a success.
    func failure(_ response: HTTPResponse, url: URL, writing: Bool, method: HTTPRequest.Method) -> CocoaError {
        let status = response.status.code
        let code: Int32
        switch status {
        case 404, 409, 410: code = ENOENT
        case 412: code = EEXIST
        case 405 where method == .mkcol: code = EEXIST
        case 405 where method == .put: code = EISDIR
        case 401, 403: code = EACCES
        case 423: code = EBUSY
        case 507: code = ENOSPC
        case 413: code = EFBIG
        case 414: code = ENAMETOOLONG
        default: code = EIO
        }
        var phrase = response.status.reasonPhrase
        if phrase.isEmpty { phrase = HTTPResponse.Status(code: status).reasonPhrase }
        var reason = "HTTP \(status)\(phrase.isEmpty ? "" : " " + phrase) for \(method.rawValue)"
        if status == 401 { reason += ": the server refused the user name or password" }
        return Self.error(code, url: url, writing: writing, reason: reason)
    }

    private func transportFailure(_ error: HTTPTransportError, url: URL, writing: Bool, unsent: Bool = false)
        -> CocoaError
    {
        let (code, words): (Int32, String)
        switch error.kind {
        case .cannotConnect: (code, words) = (ECONNREFUSED, "could not connect to the server")
        case .timedOut: (code, words) = (ETIMEDOUT, "the server did not answer in time")
        case .connectionLost: (code, words) = (ECONNRESET, "the connection was lost before the answer was complete")
        case .hostNotFound: (code, words) = (EHOSTUNREACH, "the server's name was not found")
        case .cancelled: (code, words) = (ECANCELED, "the request was cancelled")
        case .tls: (code, words) = (EIO, "the secure connection failed (TLS)")
        case .other: (code, words) = (EIO, error.description)
        }
        return Self.error(
            code, url: url, writing: writing, reason: unsent ? words + " a moment ago; not tried again yet" : words)
    }

    /// The error this folder throws for `url`: Foundation's for `code`, with why in words.
    static func error(_ code: Int32, url: URL, writing: Bool, reason: String? = nil) -> CocoaError {
        .remoteError(errno: code, url: url, writing: writing, reason: reason)
    }
}

extension HTTPRequest.Method {
    /// WebDAV's methods (RFC 4918).
    static let propfind = HTTPRequest.Method("PROPFIND")!
    static let mkcol = HTTPRequest.Method("MKCOL")!
    static let move = HTTPRequest.Method("MOVE")!
    static let copy = HTTPRequest.Method("COPY")!
    static let lock = HTTPRequest.Method("LOCK")!
    static let unlock = HTTPRequest.Method("UNLOCK")!
}

extension HTTPField.Name {
    static let depth = HTTPField.Name("Depth")!
    static let destination = HTTPField.Name("Destination")!
    static let overwrite = HTTPField.Name("Overwrite")!
    static let timeout = HTTPField.Name("Timeout")!
    static let lockToken = HTTPField.Name("Lock-Token")!
    static let davIf = HTTPField.Name("If")!
}
