public import Foundation
import HTTPTypes

extension WebDAVAccessor: DirectoryAccessorProviding {
    /// The items of the collection at `url` (`PROPFIND` with `Depth: 1`), sorted by the bytes of
    /// their names.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        let resources = try propfind(url, depth: "1", collection: true)
        let own = decodedPath(url)
        guard let first = resources.first(where: { $0.path == own }) ?? resources.first else {
            throw Self.error(ENOENT, url: url, writing: false)
        }
        guard first.isCollection else { throw Self.error(ENOTDIR, url: url, writing: false) }
        let prefix = own == "/" ? "/" : own + "/"
        var entries: [DirectoryEntry] = []
        entries.reserveCapacity(resources.count - 1)
        for resource in resources where resource.path != own && resource.path.hasPrefix(prefix) {
            let name = String(resource.path.dropFirst(prefix.count))
            guard !name.isEmpty, !name.contains("/") else { continue }
            entries.append(DirectoryEntry(name: name, metadata: Self.metadata(resource)))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entries
    }

    /// The item's metadata (`PROPFIND` with `Depth: 0`).
    public func metadata(at url: URL) throws -> FileMetadata {
        let resources = try propfind(url, depth: "0", collection: false)
        guard let resource = resources.first else { throw Self.error(ENOENT, url: url, writing: false) }
        return Self.metadata(resource)
    }

    /// Makes a collection (`MKCOL`), and its missing parents when asked.
    public func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        let (response, _) = try send(.mkcol, url, collection: true)
        switch response.status.code {
        case 200..<300:
            return
        case 405 where withIntermediateDirectories:
            // Something is there: fine when it is a collection.
            if try metadata(at: url).kind == .directory { return }
            throw Self.error(ENOTDIR, url: url, writing: true)
        case 409 where withIntermediateDirectories:
            let parent = url.deletingLastPathComponent()
            guard path(parent, collection: true) != path(url, collection: true) else {
                throw failure(response, url: url, writing: true, method: .mkcol)
            }
            try createDirectory(at: parent, withIntermediateDirectories: true)
            try createDirectory(at: url, withIntermediateDirectories: false)
        case 409:
            // A missing parent, or a file on the way.
            let parent = url.deletingLastPathComponent()
            if let kind = try? metadata(at: parent).kind, kind != .directory {
                throw Self.error(ENOTDIR, url: url, writing: true)
            }
            throw failure(response, url: url, writing: true, method: .mkcol)
        default:
            throw failure(response, url: url, writing: true, method: .mkcol)
        }
    }

    /// Removes an item (`DELETE`, which takes a collection's contents with it). Without
    /// `recursively`, a collection is listed first and refused with ENOTEMPTY when it has items.
    public func removeItem(at url: URL, recursively: Bool) throws {
        var collection = false
        if !recursively {
            let found = try metadata(at: url)
            collection = found.kind == .directory
            if collection, try !contentsOfDirectory(at: url).isEmpty {
                throw Self.error(ENOTEMPTY, url: url, writing: true)
            }
        }
        let (response, _) = try send(.delete, url, collection: collection)
        guard (200..<300).contains(response.status.code) else {
            throw failure(response, url: url, writing: true, method: .delete)
        }
    }

    /// Renames an item on the server (`MOVE`; `Overwrite: F` unless replacing).
    ///
    /// Platform note: with `Overwrite: T`, Apache's `mod_dav` removes the item at `destination`
    /// and then renames, so for a moment `destination` names nothing. The sync engine keeps the
    /// version it replaces in its trash before it moves, so nothing is lost in that moment.
    public func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        try transfer(.move, source, to: destination, overwrite: replacingExisting)
    }

    /// Copies an item on the server (`COPY` with `Depth: infinity`, `Overwrite: F`).
    public func copyItem(at source: URL, to destination: URL) throws {
        try transfer(.copy, source, to: destination, overwrite: false)
    }

    /// A server has no hard links: throws EPERM, as a file system without them does.
    public func linkItem(at source: URL, to destination: URL) throws {
        throw Self.error(EPERM, url: destination, writing: true, reason: "a WebDAV server has no hard links")
    }

    /// Changes nothing: a write the server answered is as durable as the server makes it.
    public func synchronizeFile(at url: URL) throws {}

    /// Changes nothing: a write the server answered is as durable as the server makes it.
    public func synchronizeDirectory(at url: URL) throws {}

    /// Changes nothing: a write the server answered is as durable as the server makes it.
    public func synchronize(files: [URL], directories: [URL]) throws {}

    /// Changes nothing: a server keeps no permission bits.
    public func setPermissions(_ permissions: UInt16, at url: URL) throws {}

    /// Changes nothing: the server sets modification dates itself.
    public func setModificationDate(_ date: Date, at url: URL) throws {}

    // MARK: Helpers

    func propfind(_ url: URL, depth: String, collection: Bool) throws -> [WebDAVResource] {
        var headers = HTTPFields()
        headers[.depth] = depth
        headers[.contentType] = "application/xml; charset=utf-8"
        let (response, body) = try send(.propfind, url, collection: collection, headers: headers, body: Self.propfindBody)
        switch response.status.code {
        case 207:
            do {
                return try WebDAVMultistatus.parse(body)
            } catch {
                throw Self.error(EIO, url: url, writing: false, reason: "the server's PROPFIND answer could not be read: \(error.reason)")
            }
        case 400 where collection, 404 where collection:
            // A file asked for as a collection (`f/`): Apache answers 400, rclone 404. Ask what it is.
            if let found = try? propfind(url, depth: "0", collection: false), found.first?.isCollection == false {
                throw Self.error(ENOTDIR, url: url, writing: false)
            }
            throw failure(response, url: url, writing: false, method: .propfind)
        case 301 where !collection:
            return try propfind(url, depth: depth, collection: true)
        default:
            throw failure(response, url: url, writing: false, method: .propfind)
        }
    }

    private static let propfindBody = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/></D:prop></D:propfind>
        """.utf8)

    private func transfer(_ method: HTTPRequest.Method, _ source: URL, to destination: URL, overwrite: Bool) throws {
        guard serves(destination) else { throw Self.error(EXDEV, url: destination, writing: true) }
        var headers = HTTPFields()
        headers[.destination] = destinationHeader(destination)
        headers[.overwrite] = overwrite ? "T" : "F"
        if method == .copy { headers[.depth] = "infinity" }
        let (response, _) = try send(method, source, headers: headers)
        let status = response.status.code
        guard (200..<300).contains(status) else {
            if [403, 404, 409, 500].contains(status) {
                // A missing source or destination folder: Apache answers 404 or 500, rclone 403.
                // Ask, so the error is the file system's ENOENT either way.
                if (try? metadata(at: source)) == nil {
                    throw Self.error(ENOENT, url: source, writing: method != .copy, reason: "HTTP \(status) for \(method.rawValue)")
                }
                if (try? metadata(at: destination.deletingLastPathComponent()))?.kind != .directory {
                    throw Self.error(ENOENT, url: destination, writing: true, reason: "HTTP \(status) for \(method.rawValue)")
                }
            }
            throw failure(response, url: destination, writing: true, method: method)
        }
    }

    private func destinationHeader(_ url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.percentEncodedHost = url.host(percentEncoded: true)
        components.port = url.port
        components.percentEncodedPath = path(url, collection: false)
        return components.string ?? url.absoluteString
    }

    static func metadata(_ resource: WebDAVResource) -> FileMetadata {
        FileMetadata(
            kind: resource.isCollection ? .directory : .file,
            size: resource.size,
            modificationDate: resource.modified,
            permissions: resource.isCollection ? 0o755 : 0o644,
            // A collection's ETag follows its folder's date, which changes with every item added
            // inside: it is no identity. A file's changes with its content. The weakness mark is
            // left out: Apache marks a file's ETag weak in the second it was written, and the
            // same tag strong afterwards.
            fileIdentifier: resource.isCollection ? 0 : resource.etag.map { fnv1a($0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0) } ?? 0)
    }

    /// FNV-1a of the ETag's bytes: stable across runs and processes (Swift's `hashValue` is not).
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
