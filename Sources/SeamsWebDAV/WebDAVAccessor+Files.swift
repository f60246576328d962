public import Foundation
import HTTPTypes
public import SeamsCore

extension WebDAVAccessor: FileAccessorProviding {
    /// The file's bytes (`GET`).
    public func read(from url: URL) throws -> Data {
        let (response, body) = try send(.get, url)
        guard (200..<300).contains(response.status.code) else {
            throw failure(response, url: url, writing: false, method: .get)
        }
        return body
    }

    /// Replaces the file's content (`PUT`; the server writes it whole before it answers).
    public func write(_ data: Data, to url: URL) throws {
        try put(.data(data), to: url, headers: [:])
    }

    /// Whether anything is at `url` (`PROPFIND` with `Depth: 0`).
    public func fileExists(at url: URL) -> Bool {
        (try? metadata(at: url)) != nil
    }

    /// Creates the file only if nothing is there, as one step on the server, so of two clients
    /// that try at once exactly one succeeds.
    ///
    /// An exclusive `LOCK` of the name does it: a name another client holds is refused (423), and
    /// while this client holds it nobody else can create or change the file. Under the lock an
    /// existing file (one with an ETag) is refused, else the content is written and the lock
    /// released. A server without locks gets `PUT` with `If-None-Match: *`.
    ///
    /// Platform notes: `rclone serve webdav` ignores `If-None-Match` (a second `PUT` replaces the
    /// file); its `LOCK` of a new name makes an empty file and answers 201, of an existing file 200.
    /// Apache `mod_dav` honours `If-None-Match`, and its `LOCK` answers 200 either way, keeping a
    /// lock-null resource (no ETag, listed until the lock ends) for a new name.
    public func createFile(_ data: Data, at url: URL) throws {
        try createFile(.data(data), at: url)
    }

    /// Uploads the local file at `localFile` to `url`, only if nothing is there: as
    /// ``createFile(_:at:)``, with the body read from the file as it is sent when the transport
    /// streams files (`HTTPFileTransferProviding`, as `URLSessionHTTPTransport` does) and `files`
    /// is this machine's file system, so a file of gigabytes is never held in memory; otherwise
    /// the file is read whole through `files`.
    ///
    /// - Parameters:
    ///   - localFile: A file that `files` reads.
    ///   - files: The local file boundary `localFile` belongs to.
    ///   - url: Where on the server; nothing may be there.
    /// - Throws: The server's refusal as ``createFile(_:at:)`` throws it, or the local file
    ///   system's error (ENOENT, EACCES) for `localFile`.
    public func createFile(
        contentsOf localFile: URL, from files: any FileAccessorProviding = DefaultFileAccessor(), at url: URL
    ) throws {
        try createFile(.file(localFile, files), at: url)
    }

    /// Writes a new file at a name that only this client uses, in one request: `PUT` with
    /// `If-None-Match: *`.
    ///
    /// One request where ``createFile(_:at:)`` takes three or four (`LOCK`, `PUT`, `UNLOCK`, and
    /// on Apache a `PROPFIND`), for names no other client writes, such as a sync run's own temp
    /// names: a server that honours `If-None-Match` refuses a name that is taken (EEXIST), but it
    /// checks and writes in two steps, so two clients making the same name at once may both
    /// succeed, and a server that ignores it replaces what is there. Where exactly one of two
    /// clients must win (a lock), use ``createFile(_:at:)``.
    ///
    /// Platform notes: Apache `mod_dav` and `InMemoryWebDAVServer` refuse a taken name with 412;
    /// `rclone serve webdav` (v1.60) replaces it.
    ///
    /// - Parameters:
    ///   - data: The new file's bytes.
    ///   - url: A name on the server that no other client writes.
    /// - Throws: EEXIST when the server refuses a taken name, ENOENT for a missing collection, or
    ///   the server's other refusals as ``write(_:to:)`` throws them.
    public func upload(_ data: Data, toNewName url: URL) throws {
        try putNew(.data(data), at: url)
    }

    /// Uploads the local file at `localFile` to a name that only this client uses, in one request,
    /// as ``upload(_:toNewName:)`` does, with the body read from the file as it is sent when the
    /// transport streams files (`HTTPFileTransferProviding`) and `files` is this machine's file
    /// system; otherwise the file is read whole through `files`.
    ///
    /// - Parameters:
    ///   - localFile: A file that `files` reads.
    ///   - files: The local file boundary `localFile` belongs to.
    ///   - url: A name on the server that no other client writes.
    /// - Throws: What ``upload(_:toNewName:)`` throws, or the local file system's error (ENOENT,
    ///   EACCES) for `localFile`.
    public func upload(
        contentsOf localFile: URL, from files: any FileAccessorProviding = DefaultFileAccessor(), toNewName url: URL
    ) throws {
        try putNew(.file(localFile, files), at: url)
    }

    private func putNew(_ body: Body, at url: URL) throws {
        var headers = HTTPFields()
        headers[.ifNoneMatch] = "*"
        try put(body, to: url, headers: headers)
    }

    /// Downloads the file at `url` into a new local file at `localFile`, in ranges of
    /// ``pieceSize`` bytes (`GET` with `Range`), each written as it comes
    /// (`FileAccessorProviding.createFile(at:pieces:)`), so a file of gigabytes is never held in
    /// memory.
    ///
    /// Every range after the first is asked for with `If-Match` and the first answer's ETag: a
    /// file that changes on the server during the download is refused (EAGAIN), never stitched
    /// together from two versions. `localFile` is made only if nothing is there, and holds the
    /// whole file or is not left at all: a failed download removes what it wrote. A server that
    /// ignores `Range` answers the whole file at once (then it is held in memory once).
    ///
    /// - Parameters:
    ///   - url: A file on the server.
    ///   - localFile: A path of `files` where nothing is yet.
    ///   - files: The local file boundary that makes `localFile`.
    /// - Throws: The server's answer as ``read(from:)`` throws it (ENOENT for a missing file),
    ///   EAGAIN when the file changed during the download, or the local file system's error for
    ///   `localFile` (EEXIST when something is there, ENOSPC).
    public func download(
        _ url: URL, toNewFile localFile: URL, in files: any FileAccessorProviding = DefaultFileAccessor()
    ) throws {
        var offset = 0
        var total: Int?
        var etag: String?
        try files.createFile(at: localFile) { () throws -> Data? in
            if let total, offset >= total { return nil }
            var headers = HTTPFields()
            headers[.range] = "bytes=\(offset)-\(offset + pieceSize - 1)"
            // Only a strong ETag can be matched (Apache's is weak in the second a file was written).
            if let etag, !etag.hasPrefix("W/") { headers[.ifMatch] = etag }
            var (response, body) = try send(.get, url, headers: headers)
            // A weak ETag is compared here instead: each piece must come from the same version.
            if let etag, let now = response.headerFields[.eTag], Self.opaque(now) != Self.opaque(etag) {
                throw changedDuringDownload(url)
            }
            switch response.status.code {
            case 206:
                guard let range = response.headerFields[.contentRange].flatMap(Self.contentRange),
                    range.first == offset,
                    range.count == body.count, body.count > 0
                else {
                    throw Self.error(
                        EIO, url: url, writing: false,
                        reason: "the server answered another range than the one asked for")
                }
                if let known = total, known != range.total { throw changedDuringDownload(url) }
                total = range.total
            case 200 where offset == 0:
                total = body.count  // Range ignored: the whole file came at once.
            case 416 where offset == 0:
                total = 0  // An empty file has no first byte.
                body = Data()
            case 412 where etag != nil, 416 where offset > 0:
                throw changedDuringDownload(url)
            default:
                throw failure(response, url: url, writing: false, method: .get)
            }
            if offset == 0 { etag = response.headerFields[.eTag] }
            offset += body.count
            return body
        }
    }

    /// An entity tag without its weakness mark (RFC 9110's weak comparison).
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }

    private func changedDuringDownload(_ url: URL) -> CocoaError {
        Self.error(EAGAIN, url: url, writing: false, reason: "the file changed on the server while it was downloaded")
    }

    /// `bytes first-last/total` of a `Content-Range` answer.
    private static func contentRange(_ header: String) -> (first: Int, count: Int, total: Int)? {
        guard header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let total = Int(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), last >= first else {
            return nil
        }
        return (first, last - first + 1, total)
    }

    private func createFile(_ body: Body, at url: URL) throws {
        var headers = HTTPFields()
        headers[.depth] = "0"
        headers[.timeout] = "Second-60"
        headers[.contentType] = "application/xml; charset=utf-8"
        let (response, _) = try send(.lock, url, headers: headers, body: Self.lockBody)
        let token = response.headerFields[.lockToken].map { $0.hasPrefix("<") ? $0 : "<\($0)>" }
        switch response.status.code {
        case 200, 201:
            guard let token else {
                throw Self.error(EIO, url: url, writing: true, reason: "LOCK answered without a Lock-Token")
            }
            var put = HTTPFields()
            put[.davIf] = "(\(token))"
            if response.status.code == 200 {
                // 200 is an existing file (rclone), or a new name on a server that keeps a
                // lock-null resource for it (Apache): only a real file has an ETag. Nobody else can
                // create it while this lock is held.
                let found = try? propfind(url, depth: "0", collection: false).first
                if found?.etag != nil || found?.isCollection == true {
                    unlock(url, token: token)
                    throw Self.error(EEXIST, url: url, writing: true)
                }
                put[.ifNoneMatch] = "*"
            }
            do {
                try self.put(body, to: url, headers: put)
            } catch {
                unlock(url, token: token)
                // The empty file the lock made.
                if response.status.code == 201 { try? removeItem(at: url, recursively: true) }
                throw error
            }
            unlock(url, token: token)
        case 423:
            throw Self.error(EEXIST, url: url, writing: true, reason: "another client holds a lock on it")
        case 405, 501:
            var put = HTTPFields()
            put[.ifNoneMatch] = "*"
            try self.put(body, to: url, headers: put)
        default:
            throw failure(response, url: url, writing: true, method: .lock)
        }
    }

    private func unlock(_ url: URL, token: String) {
        var headers = HTTPFields()
        headers[.lockToken] = token.hasPrefix("<") ? token : "<\(token)>"
        _ = try? send(.unlock, url, headers: headers)
    }

    private static let lockBody = Data(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>\
        <D:owner>seams-sync</D:owner></D:lockinfo>
        """.utf8)

    private func put(_ body: Body, to url: URL, headers: HTTPFields) throws {
        var headers = headers
        headers[.contentType] = "application/octet-stream"
        let (response, _) = try send(.put, url, headers: headers, body: body)
        guard (200..<300).contains(response.status.code) else {
            throw failure(response, url: url, writing: true, method: .put)
        }
    }
}
