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

    /// Creates the file only if nothing is there: `PUT` with `If-None-Match: *`, which the server
    /// checks and applies as one step; 412 is EEXIST.
    public func createFile(_ data: Data, at url: URL) throws {
        var headers = HTTPFields()
        headers[.ifNoneMatch] = "*"
        try put(data, to: url, headers: headers)
    }

    private func put(_ data: Data, to url: URL, headers: HTTPFields) throws {
        var headers = headers
        headers[.contentType] = "application/octet-stream"
        let (response, _) = try send(.put, url, headers: headers, body: data)
        guard (200..<300).contains(response.status.code) else {
            throw failure(response, url: url, writing: true, method: .put)
        }
    }
}
