public import Foundation
import HTTPTypes

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
        try put(data, to: url, headers: [:])
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
        var headers = HTTPFields()
        headers[.depth] = "0"
        headers[.timeout] = "Second-60"
        headers[.contentType] = "application/xml; charset=utf-8"
        let (response, _) = try send(.lock, url, headers: headers, body: Self.lockBody)
        let token = response.headerFields[.lockToken].map { $0.hasPrefix("<") ? $0 : "<\($0)>" }
        switch response.status.code {
        case 200, 201:
            guard let token else { throw Self.error(EIO, url: url, writing: true, reason: "LOCK answered without a Lock-Token") }
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
                try self.put(data, to: url, headers: put)
            } catch {
                unlock(url, token: token)
                if response.status.code == 201 { try? removeItem(at: url, recursively: true) }  // the empty file the lock made
                throw error
            }
            unlock(url, token: token)
        case 423:
            throw Self.error(EEXIST, url: url, writing: true, reason: "another client holds a lock on it")
        case 405, 501:
            var put = HTTPFields()
            put[.ifNoneMatch] = "*"
            try self.put(data, to: url, headers: put)
        default:
            throw failure(response, url: url, writing: true, method: .lock)
        }
    }

    private func unlock(_ url: URL, token: String) {
        var headers = HTTPFields()
        headers[.lockToken] = token.hasPrefix("<") ? token : "<\(token)>"
        _ = try? send(.unlock, url, headers: headers)
    }

    private static let lockBody = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>\
        <D:owner>seams-sync</D:owner></D:lockinfo>
        """.utf8)

    private func put(_ data: Data, to url: URL, headers: HTTPFields) throws {
        var headers = headers
        headers[.contentType] = "application/octet-stream"
        let (response, _) = try send(.put, url, headers: headers, body: data)
        guard (200..<300).contains(response.status.code) else {
            throw failure(response, url: url, writing: true, method: .put)
        }
    }
}
