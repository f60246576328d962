public import Foundation
public import HTTPTypes
public import Seams
public import SeamsWebDAV

/// A WebDAV server without sockets: an `HTTPTransportProviding` that answers each request as a
/// WebDAV server (RFC 4918, class 1 and 2) over a folder of a file system double, usually an
/// ``InMemoryFileSystem``.
///
/// Give it to a `WebDAVAccessor` (or to the sync engine through one) as its transport, and the
/// whole remote path runs in memory, deterministic, with every request countable and every
/// failure injectable:
///
/// ```swift
/// let fileSystem = InMemoryFileSystem()
/// try fileSystem.createDirectory(at: URL(filePath: "/served"), withIntermediateDirectories: false)
/// let server = InMemoryWebDAVServer(serving: URL(filePath: "/served"), of: fileSystem)
/// let dav = WebDAVAccessor(baseURL: server.baseURL, transport: server)
/// server.inject(.respond(status: 507), on: .put)           // the server's disk is full
/// #expect(throws: CocoaError.self) { try dav.write(Data("x".utf8), to: server.baseURL.appending(path: "a")) }
/// ```
///
/// It passes the same contract suite as Apache httpd's `mod_dav_fs` and `rclone serve webdav`.
/// Where those two differ it takes the side RFC 4918 takes:
/// - `PROPFIND` with `Depth: infinity` (or none) is refused with 403 (`propfind-finite-depth`), as
///   Apache does by default, unless the server is made with `answersInfiniteDepth` (as `rclone
///   serve webdav` answers it);
/// - `LOCK` of an unmapped name makes an empty file and answers 201 (rclone does; Apache keeps a
///   lock-null resource instead); a name locked by another client is refused with 423, and so
///   is any write to it without the lock's token in the `If` header;
/// - `If-None-Match: *` and `If-Match` are honoured on `PUT`, `DELETE`, `MOVE` and `COPY` (Apache
///   does; rclone ignores them), and so are the ETag conditions of an `If` header, tagged with a
///   resource (`If: <…/a.txt> (["etag"])`, the target of a `MOVE`) or not (Apache evaluates them;
///   rclone refuses every one with 412, whatever the ETag);
/// - a file asked for as a collection (`/a.txt/`) is 404, a collection's `GET` is 405;
/// - a file's ETag changes with its content, even in the same second with the same size; a
///   collection has none. Dates are the backing file system's, sent to the second.
///
/// Symbolic links in the served folder are not served (a server shows none). Locks live in the
/// server, not in the file system, and expire by the clock given (`Timeout: Second-n`): a client
/// that dies holding one leaves it until it expires, as on a real server.
public final class InMemoryWebDAVServer: WaitingHTTPTransportProviding {
    /// The URL of the served folder (`http://dav.test/dav/` unless chosen): give it to the accessor.
    public let baseURL: URL
    let folder: URL
    let directories: any DirectoryAccessorProviding
    let files: any FileAccessorProviding
    let credentials: WebDAVCredentials?
    let now: @Sendable () -> Date
    /// Whether `PROPFIND` with `Depth: infinity` is answered (with the whole tree) or refused.
    public let answersInfiniteDepth: Bool
    /// Whether `PROPFIND` with `Depth: infinity` is answered with one level, as `Depth: 1` is, and
    /// nothing said of it (SabreDAV answers so where its `Depth: infinity` is turned off).
    public let answersInfiniteDepthWithOneLevel: Bool
    let state = LockedValue(State())

    struct State {
        var locks: [String: HeldLock] = [:]
        var requests: [WebDAVRequestRecord] = []
        var scheduled: [Int: WebDAVFault] = [:]
        var standing: [StandingFault] = []
        var crashed = false
        var onCrash: [@Sendable () -> Void] = []
    }

    struct HeldLock {
        var token: String
        var expires: Date
    }

    struct StandingFault {
        var fault: WebDAVFault
        var method: HTTPRequest.Method?
        var pathSuffix: String?
        var remaining: Int?
    }

    /// Serves `folder` of `fileSystem`, on `fileSystem`'s clock.
    ///
    /// - Parameters:
    ///   - folder: The folder whose contents the server's collection shows.
    ///   - fileSystem: Where the server keeps what clients send; tests look there, or write there
    ///     as another user of the server would.
    ///   - baseURL: The collection's URL; only its scheme, host, port and path matter.
    ///   - credentials: The Basic credentials every request must carry; `nil` lets anyone in.
    ///   - answersInfiniteDepth: Whether `PROPFIND` with `Depth: infinity` is answered with the
    ///     whole tree (as `rclone serve webdav` does) rather than refused (as Apache does by default).
    ///   - answersInfiniteDepthWithOneLevel: Whether `PROPFIND` with `Depth: infinity` is answered
    ///     with one level only, saying nothing of it (as SabreDAV does with it turned off).
    public convenience init(
        serving folder: URL, of fileSystem: InMemoryFileSystem,
        baseURL: URL = URL(string: "http://dav.test/dav/")!, credentials: WebDAVCredentials? = nil,
        answersInfiniteDepth: Bool = false, answersInfiniteDepthWithOneLevel: Bool = false
    ) {
        self.init(
            serving: folder, directories: fileSystem, files: fileSystem, baseURL: baseURL, credentials: credentials,
            answersInfiniteDepth: answersInfiniteDepth,
            answersInfiniteDepthWithOneLevel: answersInfiniteDepthWithOneLevel,
            now: { fileSystem.now })
    }

    /// Serves `folder` through any file-system boundary, with `now` as the clock for lock expiry.
    ///
    /// - Parameters:
    ///   - folder: The folder whose contents the server's collection shows.
    ///   - directories: The folder operations on the backing store.
    ///   - files: The file operations on the backing store.
    ///   - baseURL: The collection's URL; only its scheme, host, port and path matter.
    ///   - credentials: The Basic credentials every request must carry; `nil` lets anyone in.
    ///   - answersInfiniteDepth: Whether `PROPFIND` with `Depth: infinity` is answered with the
    ///     whole tree (as `rclone serve webdav` does) rather than refused (as Apache does by default).
    ///   - answersInfiniteDepthWithOneLevel: Whether `PROPFIND` with `Depth: infinity` is answered
    ///     with one level only, saying nothing of it (as SabreDAV does with it turned off).
    ///   - now: The server's clock.
    public init(
        serving folder: URL, directories: any DirectoryAccessorProviding, files: any FileAccessorProviding,
        baseURL: URL = URL(string: "http://dav.test/dav/")!, credentials: WebDAVCredentials? = nil,
        answersInfiniteDepth: Bool = false, answersInfiniteDepthWithOneLevel: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.answersInfiniteDepth = answersInfiniteDepth
        self.answersInfiniteDepthWithOneLevel = answersInfiniteDepthWithOneLevel
        self.folder = folder
        self.directories = directories
        self.files = files
        self.baseURL = baseURL.hasDirectoryPath ? baseURL : baseURL.appending(path: "", directoryHint: .isDirectory)
        self.credentials = credentials
        self.now = now
    }

    // MARK: Faults

    /// Makes the `request`-th request from now (1 is the next) meet `fault`.
    ///
    /// - Parameters:
    ///   - fault: What happens to that request.
    ///   - request: Counted from 1; requests after a crash are counted too.
    public func inject(_ fault: WebDAVFault, atRequest request: Int) {
        precondition(request >= 1, "requests are counted from 1")
        state.withLock { $0.scheduled[$0.requests.count + request] = fault }
    }

    /// Makes every request with `method` (any method when `nil`) whose decoded path ends with
    /// `pathSuffix` (any path when `nil`) meet `fault`, `times` times (for ever when `nil`).
    ///
    /// - Parameters:
    ///   - fault: What happens to each matching request.
    ///   - method: The method to match.
    ///   - pathSuffix: The end of the path to match, decoded (`"a.txt"`, `"/.seams-lock"`).
    ///   - times: How many matching requests meet it.
    public func inject(
        _ fault: WebDAVFault, on method: HTTPRequest.Method? = nil, pathEndingWith pathSuffix: String? = nil,
        times: Int? = nil
    ) {
        state.withLock {
            $0.standing.append(StandingFault(fault: fault, method: method, pathSuffix: pathSuffix, remaining: times))
        }
    }

    /// Removes every fault not met yet and lets requests through after a crash.
    public func restart() {
        state.withLock {
            $0.scheduled = [:]
            $0.standing = []
            $0.crashed = false
        }
    }

    /// Runs `action` when a ``WebDAVFault/crashBeforeSending`` or ``WebDAVFault/crashAfterApplying``
    /// fault fires: a test stops the client's other doubles with it (the process died).
    public func whenCrashed(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCrash.append(action) }
    }

    /// Stops the client now, as a crash fault does: every later request fails without reaching the
    /// server, until ``restart()``.
    public func crash() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            if state.crashed { return [] }
            state.crashed = true
            return state.onCrash
        }
        for action in actions { action() }
    }

    /// Whether a crash fault has fired (and ``restart()`` has not been called since).
    public var hasCrashed: Bool { state.withLock { $0.crashed } }

    /// Every request received, in order, with what became of it.
    public var requests: [WebDAVRequestRecord] { state.withLock { $0.requests } }

    /// How many requests were received (faulted ones included).
    public var requestCount: Int { state.withLock { $0.requests.count } }

    /// The decoded paths (relative to the collection) that hold a lock now.
    public var lockedPaths: [String] {
        let now = self.now()
        return state.withLock { $0.locks.filter { $0.value.expires > now }.keys.sorted() }
    }

    // MARK: HTTPTransportProviding

    /// Answers `request` as the server would, or meets the fault injected for it.
    public func send(
        _ request: HTTPRequest, body: Data?, timeout: Duration
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        try exchange(request, body: body)
    }

    /// Answers `request` on the calling thread, as ``send(_:body:timeout:)`` does; a file body is
    /// read from this machine's file system, as a live transport reads it.
    @available(*, noasync, message: "use send(_:body:timeout:)")
    public func sendWaiting(
        _ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration
    ) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        switch body {
        case .none: return try exchange(request, body: nil)
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

    private func exchange(_ request: HTTPRequest, body: Data?) throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let path = Self.decodedRequestPath(request.path ?? "/")
        let (number, fault, deadBefore) = state.withLock { state -> (Int, WebDAVFault?, Bool) in
            let number = state.requests.count + 1
            var fault = state.scheduled.removeValue(forKey: number)
            if fault == nil, let index = state.standing.firstIndex(where: { $0.matches(request.method, path) }) {
                fault = state.standing[index].fault
                if let remaining = state.standing[index].remaining {
                    if remaining <= 1 {
                        state.standing.remove(at: index)
                    } else {
                        state.standing[index].remaining = remaining - 1
                    }
                }
            }
            state.requests.append(
                WebDAVRequestRecord(number: number, method: request.method, path: path, status: nil, fault: fault))
            return (number, fault, state.crashed)
        }
        // A dead client sends nothing.
        if deadBefore { throw HTTPTransportError(.cancelled) }
        switch fault {
        case .refuseConnection?:
            throw HTTPTransportError(.cannotConnect)
        case .timeOut?:
            throw HTTPTransportError(.timedOut)
        case .respond(let status)?:
            record(number, status: status)
            return (HTTPResponse(status: .init(code: status)), Data())
        case .crashBeforeSending?:
            crash()
            throw HTTPTransportError(.cancelled)
        case .loseAnswer?, .crashAfterApplying?, nil:
            break
        }
        let (response, data) = answer(request, body: body ?? Data())
        record(number, status: response.status.code)
        switch fault {
        case .loseAnswer?:
            throw HTTPTransportError(.connectionLost)
        case .crashAfterApplying?:
            crash()
            throw HTTPTransportError(.connectionLost)
        default:
            return (response, request.method == .head ? Data() : data)
        }
    }

    private func record(_ number: Int, status: Int) {
        state.withLock { $0.requests[number - 1].status = status }
    }
}

/// What an ``InMemoryWebDAVServer`` does with a request instead of answering it plainly.
public enum WebDAVFault: Hashable, Sendable {
    /// The connection is refused: nothing reaches the server.
    case refuseConnection
    /// The request times out unanswered, and the server did not apply it.
    case timeOut
    /// The server answers with `status` and an empty body, and changes nothing (a 503, a 507).
    case respond(status: Int)
    /// The server applies the request, and its answer is lost on the way (the connection drops):
    /// the client cannot tell whether it happened.
    case loseAnswer
    /// The client dies before the request leaves: nothing is applied, and no later request
    /// reaches the server until ``InMemoryWebDAVServer/restart()``.
    case crashBeforeSending
    /// The server applies the request, and the client dies before it reads the answer.
    case crashAfterApplying
}

/// One request an ``InMemoryWebDAVServer`` received.
public struct WebDAVRequestRecord: Hashable, Sendable, CustomStringConvertible {
    /// Its number, counted from 1.
    public let number: Int
    /// Its method.
    public let method: HTTPRequest.Method
    /// Its path, percent-decoded.
    public let path: String
    /// The status the server answered with; `nil` when it was never answered.
    public internal(set) var status: Int?
    /// The fault it met, if any.
    public let fault: WebDAVFault?

    /// `"3 PUT /dav/a.txt → 201"`.
    public var description: String {
        "\(number) \(method.rawValue) \(path) → \(status.map(String.init) ?? "no answer")\(fault.map { " (\($0))" } ?? "")"
    }
}

extension InMemoryWebDAVServer.StandingFault {
    func matches(_ method: HTTPRequest.Method, _ path: String) -> Bool {
        (self.method == nil || self.method == method) && (pathSuffix.map { path.hasSuffix($0) } ?? true)
    }
}
