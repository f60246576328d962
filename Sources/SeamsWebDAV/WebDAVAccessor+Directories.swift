public import Foundation
import HTTPTypes
public import SeamsCore

extension WebDAVAccessor: DirectoryAccessorProviding {
    /// The items of the collection at `url` (`PROPFIND` with `Depth: 1`), sorted by the bytes of
    /// their names; from memory, once, where ``beginTreeListing(at:expecting:skipping:)`` fetched it.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        if let fetched = takePrefetchedListing(decodedPath(url)) { return fetched }
        let resources = try propfind(url, depth: "1", collection: true)
        let own = decodedPath(url)
        guard let first = resources.first(where: { $0.path == own }) ?? resources.first else {
            throw Self.error(ENOENT, url: url, writing: false)
        }
        guard first.isCollection else { throw Self.error(ENOTDIR, url: url, writing: false) }
        let prefix = own == "/" ? "/" : own + "/"
        var entries: [DirectoryEntry] = []
        entries.reserveCapacity(resources.count - 1)
        let prefixLength = prefix.utf8.count
        for resource in resources where resource.path.utf8.starts(with: prefix.utf8) {
            // The prefix ends with `/`, so the name starts on a character's boundary.
            let name = resource.path.utf8.dropFirst(prefixLength)
            guard !name.isEmpty, !name.contains(UInt8(ascii: "/")) else { continue }
            entries.append(DirectoryEntry(name: String(Substring(name)), metadata: Self.metadata(resource)))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entries
    }

    /// The item's metadata (`PROPFIND` with `Depth: 0`).
    public func metadata(at url: URL) throws -> FileMetadata {
        let resources = try propfind(url, depth: "0", collection: false)
        guard let resource = resources.first else { throw Self.error(ENOENT, url: url, writing: false) }
        if !resource.isCollection, let etag = resource.etag { remember(etag, for: url) }
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

    /// Moves `source` over `destination` only while `destination` is still the file `expected`
    /// describes: `MOVE` with `Overwrite: T` and `If: <destination> (["etag"])`, the ETag whose
    /// hash is `expected`'s `FileMetadata.fileIdentifier`. The server itself refuses (412) when
    /// a change was saved at `destination` since, so that change is never replaced, however
    /// late it lands.
    ///
    /// The ETag is the one the last ``metadata(at:)`` of `destination` read, when it is
    /// `expected`'s; otherwise `destination` is looked at first (`PROPFIND`).
    ///
    /// Platform notes: Apache `mod_dav` and `InMemoryWebDAVServer` evaluate the condition (weakly:
    /// Apache's weak ETag of a file written this second matches its strong form later).
    /// `rclone serve webdav` (v1.60) refuses every `If` header that holds an ETag, whatever the
    /// ETag; the accessor learns that from a refusal while `destination` is unchanged, and from
    /// then on looks at `destination` just before a plain `MOVE` (a change saved between the two
    /// is replaced, as on a file system without an atomic exchange). A file the server gives no
    /// ETag is moved the same way.
    ///
    /// - Parameters:
    ///   - source: The item to move, on this server.
    ///   - destination: The file to replace.
    ///   - expected: `destination` as the caller last saw it (from ``metadata(at:)`` or a listing).
    /// - Returns: `true` when moved; `false` when `destination` is no longer `expected` (changed,
    ///   replaced, gone): nothing was moved and `source` is where it was.
    /// - Throws: What ``moveItem(at:to:replacingExisting:)`` throws.
    public func moveItem(at source: URL, to destination: URL, ifStill expected: FileMetadata) throws -> Bool {
        guard expected.kind == .file, expected.fileIdentifier != 0 else {
            try transfer(.move, source, to: destination, overwrite: true)
            return true
        }
        let ignoresConditions = etagConditionsIgnored.withLock { $0 }
        var tag =
            ignoresConditions
            ? nil
            : rememberedETag(for: destination).flatMap {
                Self.identifier(ofETag: $0) == expected.fileIdentifier ? $0 : nil
            }
        if tag == nil {
            guard let found = try currentETag(of: destination),
                Self.identifier(ofETag: found) == expected.fileIdentifier
            else {
                return false
            }
            tag = found
        }
        guard let tag, !ignoresConditions else {
            try transfer(.move, source, to: destination, overwrite: true)
            return true
        }
        var condition = HTTPFields()
        condition[.davIf] = "<\(destinationHeader(destination))> ([\(tag)])"
        do {
            try transfer(.move, source, to: destination, overwrite: true, headers: condition)
            return true
        } catch let error as CocoaError where error.posixCode == .EEXIST {
            // 412: changed since, or a server that refuses every ETag condition (rclone).
            guard let now = try currentETag(of: destination), Self.identifier(ofETag: now) == expected.fileIdentifier
            else {
                return false
            }
            etagConditionsIgnored.withLock { $0 = true }
            try transfer(.move, source, to: destination, overwrite: true)
            return true
        }
    }

    /// The ETag of the file at `url` now, or `nil` when nothing (or a collection) is there.
    private func currentETag(of url: URL) throws -> String? {
        do {
            guard let found = try propfind(url, depth: "0", collection: false).first, !found.isCollection else {
                return nil
            }
            return found.etag ?? ""
        } catch let error as CocoaError where error.posixCode == .ENOENT || error.posixCode == .ENOTDIR {
            return nil
        }
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
        let (response, body) = try send(
            .propfind, url, collection: collection, headers: headers, body: Self.propfindBody)
        switch response.status.code {
        case 207:
            do {
                return try WebDAVMultistatus.parse(body)
            } catch {
                throw Self.error(
                    EIO, url: url, writing: false,
                    reason: "the server's PROPFIND answer could not be read: \(error.reason)")
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

    static let propfindBody = Data(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/></D:prop></D:propfind>
        """.utf8)

    private func transfer(
        _ method: HTTPRequest.Method, _ source: URL, to destination: URL, overwrite: Bool,
        headers conditions: HTTPFields = [:]
    ) throws {
        guard serves(destination) else { throw Self.error(EXDEV, url: destination, writing: true) }
        var headers = conditions
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
                    throw Self.error(
                        ENOENT, url: source, writing: method != .copy, reason: "HTTP \(status) for \(method.rawValue)")
                }
                if (try? metadata(at: destination.deletingLastPathComponent()))?.kind != .directory {
                    throw Self.error(
                        ENOENT, url: destination, writing: true, reason: "HTTP \(status) for \(method.rawValue)")
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
        // A collection's ETag follows its folder's date, which changes with every item added
        // inside: it is no identity. A file's changes with its content. The weakness mark is
        // left out: Apache marks a file's ETag weak in the second it was written, and the same
        // tag strong afterwards.
        let tag = resource.isCollection ? 0 : resource.etag.map(identifier(ofETag:)) ?? 0
        return FileMetadata(
            kind: resource.isCollection ? .directory : .file,
            size: resource.size,
            modificationDate: resource.modified,
            permissions: resource.isCollection ? 0o755 : 0o644,
            fileIdentifier: tag,
            contentTag: tag)
    }

    /// A file's ``FileMetadata/fileIdentifier`` for its ETag: the hash of the tag without its
    /// weakness mark.
    static func identifier(ofETag etag: String) -> UInt64 {
        fnv1a(etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag)
    }

    /// Keeps the ETag ``metadata(at:)`` read for a file, for ``moveItem(at:to:ifStill:)``; the
    /// last 1,024 files at most.
    private func remember(_ etag: String, for url: URL) {
        let key = path(url, collection: false)
        recentETags.withLock { tags in
            if tags.count >= 1024, tags[key] == nil { tags.removeAll(keepingCapacity: true) }
            tags[key] = etag
        }
    }

    private func rememberedETag(for url: URL) -> String? {
        let key = path(url, collection: false)
        return recentETags.withLock { $0[key] }
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
