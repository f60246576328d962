public import Foundation
public import SeamsCore

extension S3Accessor: DirectoryAccessorProviding {
    /// The items of the folder at `url` (`ListObjectsV2` with `delimiter=/`, one request per
    /// 1,000 items), sorted by the bytes of their names. The folder's own marker is not listed; a
    /// key that is a file and a folder's prefix at once (`a` and `a/b`, which S3 allows and a file
    /// system does not) is listed as the folder.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        let prefix = folderPrefix(url)
        if let listed = takePrefetchedListing(prefix) { return listed }
        // By the bytes of their names: S3 keeps NFC and NFD names apart, Swift's `String` does not.
        var files: [[UInt8]: S3Object] = [:]
        var folders: Set<[UInt8]> = []
        var token: String?
        var marked = false
        repeat {
            let page = try request(url, writing: false) { () throws(S3Error) in
                try client.listObjects(prefix: prefix, delimiter: "/", continuationToken: token)
            }
            marked = marked || page.objects.contains { Self.same($0.key, prefix) }
            for object in page.objects where !Self.same(object.key, prefix) {
                files[Array(object.key.utf8.dropFirst(prefix.utf8.count))] = object
            }
            for folder in page.commonPrefixes where folder.utf8.count > prefix.utf8.count + 1 {
                folders.insert(Array(folder.utf8.dropFirst(prefix.utf8.count).dropLast()))
            }
            token = page.nextContinuationToken
        } while token != nil
        if files.isEmpty, folders.isEmpty, !marked, !Self.same(key(url), rootKey) {
            // No marker listed and nothing in it: look at what the name is (a folder listed by
            // its marker is one even where a file has the name without the slash, as its parent's
            // listing says).
            guard let found = try find(url) else { throw Self.error(ENOENT, url: url, writing: false) }
            if !found.isFolder { throw Self.error(ENOTDIR, url: url, writing: false) }
        }
        var entries = folders.map { DirectoryEntry(name: String(decoding: $0, as: UTF8.self), metadata: Self.folder) }
        for (name, object) in files where !folders.contains(name) && !name.isEmpty {
            entries.append(DirectoryEntry(name: String(decoding: name, as: UTF8.self), metadata: Self.metadata(object)))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entries
    }

    /// The item's metadata: a `HEAD` of its key, then, when no object has it, a listing of one
    /// item under it (a folder).
    public func metadata(at url: URL) throws -> FileMetadata {
        guard let found = try find(url) else { throw Self.error(ENOENT, url: url, writing: false) }
        return found.object.map(Self.metadata) ?? Self.folder
    }

    /// Makes a folder: its marker object `name/`, created only if absent (`If-None-Match: *`).
    /// Without `withIntermediateDirectories`, the parent must be a folder and nothing may be at
    /// `url`; with it, the missing parents get markers too, and an existing folder is no error.
    public func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        let key = key(url)
        guard !key.isEmpty else {
            if withIntermediateDirectories { return }
            throw Self.error(EEXIST, url: url, writing: true)
        }
        if let found = try find(url) {
            if found.isFolder && withIntermediateDirectories { return }
            throw Self.error(EEXIST, url: url, writing: true)
        }
        let parent = url.deletingLastPathComponent()
        if !self.key(parent).isEmpty {
            if withIntermediateDirectories {
                try createDirectory(at: parent, withIntermediateDirectories: true)
            } else {
                guard let above = try find(parent) else { throw Self.error(ENOENT, url: url, writing: true) }
                if !above.isFolder { throw Self.error(ENOTDIR, url: url, writing: true) }
            }
        }
        do {
            try request(url, writing: true) { () throws(S3Error) in
                try client.putObject(key + "/", body: Data(), condition: .ifAbsent)
            }
        } catch let error as CocoaError where error.posixCode == .EEXIST && withIntermediateDirectories {
            return  // made meanwhile
        }
    }

    /// Removes a file (`DeleteObject`), or a folder: without `recursively` only an empty one
    /// (ENOTEMPTY otherwise); with it, every object under it, its marker last, so a removal cut
    /// off midway leaves a folder that is still listed. The folder above keeps a marker, as it
    /// stays on a file system.
    public func removeItem(at url: URL, recursively: Bool) throws {
        guard let found = try find(url) else { throw Self.error(ENOENT, url: url, writing: true) }
        if let object = found.object {
            try request(url, writing: true) { () throws(S3Error) in try client.deleteObject(object.key) }
            try keepFolder(above: url)
            return
        }
        let prefix = folderPrefix(url)
        let inside = try objects(under: prefix, url: url)
        if !recursively, inside.contains(where: { !Self.same($0.key, prefix) }) {
            throw Self.error(ENOTEMPTY, url: url, writing: true)
        }
        for object in inside.sorted(by: { $0.key.utf8.count > $1.key.utf8.count }) {
            try request(url, writing: true) { () throws(S3Error) in try client.deleteObject(object.key) }
        }
        try keepFolder(above: url)
    }

    /// Gives the folder above `url` its marker, if it has none, once an item left it: a folder
    /// known only by the keys under it (made by another tool) would vanish with its last one,
    /// where a file system's stays.
    private func keepFolder(above url: URL) throws {
        let parent = url.deletingLastPathComponent()
        let key = self.key(parent)
        guard !Self.same(key, rootKey), !key.isEmpty else { return }
        do {
            try request(parent, writing: true) { () throws(S3Error) in
                try client.putObject(key + "/", body: Data(), condition: .ifAbsent)
            }
        } catch let error as CocoaError where error.posixCode == .EEXIST {}
    }

    /// Moves an item: each object copied on the server (`CopyObject`, only while it is the
    /// version listed; an object written in parts by part copies of its own parts' size, so the
    /// copy keeps its ETag), then deleted. Not atomic: cut off midway, the item is at both names,
    /// the copy known by its ETag and size.
    /// Without `replacingExisting` the destination is looked at first and a taken name refused
    /// (EEXIST); S3 cannot refuse it in the copy itself, so a name taken in the moment between
    /// is replaced.
    public func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        try transfer(source, to: destination, replacing: replacingExisting, deletingSource: true)
    }

    /// Copies an item on the server (`CopyObject` per object), refusing a taken name (EEXIST),
    /// with the same caveat as ``moveItem(at:to:replacingExisting:)``.
    public func copyItem(at source: URL, to destination: URL) throws {
        try transfer(source, to: destination, replacing: false, deletingSource: false)
    }

    /// Moves the file `source` over `destination` only while `destination` is still the file
    /// `expected` describes.
    ///
    /// A source of at most ``conditionalReplaceLimit`` bytes is read and written over
    /// `destination` with `PutObject` and `If-Match` on the ETag that `expected` describes
    /// (``replace(_:with:ifStill:)``): the server checks and writes in one step, so a version
    /// saved there at any moment since `expected` was seen stays and this returns `false`; then
    /// the source is deleted. A larger source is copied on the server in parts, completed with
    /// `If-Match` on that ETag (``S3Client/copyInParts(_:to:size:sourceETag:condition:partSize:)``),
    /// no byte passing through this machine: the same guarantee where the server honours
    /// `If-Match` on a completion (AWS S3 does; moto 5.2 and rclone 1.75 do not, and there a
    /// version saved in the moment between the look and the completion is replaced). On a
    /// server without `UploadPartCopy` (`rclone serve s3`), it is copied whole (`CopyObject`)
    /// after the look, with that same caveat.
    ///
    /// - Returns: `true` when moved; `false` when `destination` is no longer `expected`: nothing
    ///   was moved.
    public func moveItem(at source: URL, to destination: URL, ifStill expected: FileMetadata) throws -> Bool {
        // The destination's ETag as this accessor last saw it (the applier's look just before),
        // else looked at now: the server checks it either way.
        guard let etag = try knownETag(of: destination, identifier: expected.fileIdentifier) else { return false }
        // The temp file as this accessor created it, else looked at.
        guard let object = try createdObject(at: source) ?? find(source)?.object else {
            throw Self.error(ENOENT, url: source, writing: true)
        }
        guard object.size <= Int64(conditionalReplaceLimit) else {
            if copiesPartsUnsupported.withLock({ $0 }) {
                try transfer(source, to: destination, replacing: true, deletingSource: true)
                return true
            }
            return try copyInParts(object, from: source, over: destination, ifMatch: etag)
        }
        let sourceKey = key(source)
        let (read, data) = try request(source, writing: false) { () throws(S3Error) in
            try client.getObject(sourceKey)
        }
        guard try write(data, over: destination, ifMatch: etag, datedAs: read.lastModified) else {
            return false
        }
        _ = takeCreated(source)
        try delete(read, movedFrom: source)
        return true
    }

    /// The ETag of the object at `url` when it is the version `identifier` names: as last seen
    /// (``seenETag(of:identifier:)``), else looked at (`HEAD`); `nil` when it is gone or another.
    private func knownETag(of url: URL, identifier: UInt64) throws -> String? {
        if let etag = seenETag(of: url, identifier: identifier) { return etag }
        guard let object = try find(url)?.object, Self.identifier(ofETag: object.etag) == identifier else { return nil }
        return object.etag
    }

    /// Writes `data` over the file at `url` only while it is the version `expected` describes:
    /// `PutObject` with `If-Match` on its ETag, checked and written in one step by the server.
    ///
    /// - Returns: `false` when the file is gone or is another version: nothing was written.
    public func replace(_ url: URL, with data: Data, ifStill expected: FileMetadata) throws -> Bool {
        guard let etag = try knownETag(of: url, identifier: expected.fileIdentifier) else { return false }
        return try write(data, over: url, ifMatch: etag, datedAs: expected.modificationDate)
    }

    /// S3 has no hard links: throws EPERM, as a file system without them does.
    public func linkItem(at source: URL, to destination: URL) throws {
        throw Self.error(EPERM, url: destination, writing: true, reason: "S3 has no hard links")
    }

    /// Changes nothing: a write the server answered is durable.
    public func synchronizeFile(at url: URL) throws {}

    /// Changes nothing: a write the server answered is durable.
    public func synchronizeDirectory(at url: URL) throws {}

    /// Changes nothing: a write the server answered is durable.
    public func synchronize(files: [URL], directories: [URL]) throws {}

    /// Changes nothing: S3 keeps no permission bits.
    public func setPermissions(_ permissions: UInt16, at url: URL) throws {}

    /// Changes nothing: the server dates each object when it is written.
    public func setModificationDate(_ date: Date, at url: URL) throws {}

    // MARK: Helpers

    private func transfer(_ source: URL, to destination: URL, replacing: Bool, deletingSource: Bool) throws {
        guard serves(destination) else { throw Self.error(EXDEV, url: destination, writing: true) }
        // A file this accessor just created is known without a look (its ETag conditions the
        // copy and the delete, so a stale one only makes them fail).
        let created = deletingSource ? takeCreated(source) : nil
        guard let found = try created.map({ (object: Optional($0), isFolder: false) }) ?? find(source) else {
            throw Self.error(ENOENT, url: source, writing: !deletingSource)
        }
        let target = try find(destination)
        if let target {
            guard replacing, found.object != nil, target.object != nil else {
                throw Self.error(EEXIST, url: destination, writing: true)
            }
        }
        let parent = destination.deletingLastPathComponent()
        // A file moved within its folder: the folder is there (the file's key has its prefix),
        // and is not left empty.
        let sameFolder = found.object != nil && Self.same(key(source.deletingLastPathComponent()), key(parent))
        if !key(parent).isEmpty, !sameFolder {
            guard let above = try find(parent) else { throw Self.error(ENOENT, url: destination, writing: true) }
            if !above.isFolder { throw Self.error(ENOTDIR, url: destination, writing: true) }
        }
        if let object = found.object {
            try copyObject(object, to: key(destination), url: destination)
            if deletingSource {
                try delete(object, movedFrom: source)
                if !sameFolder { try keepFolder(above: source) }
            }
            return
        }
        // A folder: every object under it, the marker first so the new folder is there from the start.
        let from = folderPrefix(source)
        let to = folderPrefix(destination)
        let inside = try objects(under: from, url: source)
        if !inside.contains(where: { Self.same($0.key, from) }) {
            try request(destination, writing: true) { () throws(S3Error) in
                try client.putObject(to, body: Data(), condition: .ifAbsent)
            }
        }
        let ordered = inside.sorted { $0.key.utf8.count < $1.key.utf8.count }
        for object in ordered {
            let rest = String(decoding: object.key.utf8.dropFirst(from.utf8.count), as: UTF8.self)
            try copyObject(object, to: to + rest, url: destination)
        }
        guard deletingSource else { return }
        for object in ordered.reversed() { try delete(object, movedFrom: source) }
        try keepFolder(above: source)
    }

    /// Deletes a moved object only while it is the version copied (`If-Match`): one saved again
    /// since the copy stays, and the move fails with EAGAIN.
    private func delete(_ object: S3Object, movedFrom source: URL) throws {
        do throws(S3Error) {
            forgetListings()
            try guarded { () throws(S3Error) in try client.deleteObject(object.key, ifMatch: object.etag) }
        } catch let error where error.isPreconditionFailed {
            throw Self.error(
                EAGAIN, url: source, writing: true, reason: "it changed on the server while it was moved; both are kept"
            )
        } catch {
            throw Self.error(error, url: source, writing: true)
        }
    }

    /// Copies `object` (the file at `source`) over `destination` on the server in parts,
    /// completed with `If-Match: etag`, then deletes the source: `false` when the completion
    /// was refused (412, or 404 for a destination gone) and the source is still that version.
    /// A server without `UploadPartCopy` is noted, and the file copied whole instead.
    private func copyInParts(_ object: S3Object, from source: URL, over destination: URL, ifMatch etag: String)
        throws -> Bool
    {
        let key = key(destination)
        forgetListings()
        do throws(S3Error) {
            let written = try guarded { () throws(S3Error) in
                try client.copyInParts(
                    object.key, to: key, size: object.size, sourceETag: object.etag, condition: .ifMatch(etag))
            }
            if !written.isEmpty {
                remember(S3Object(key: key, size: object.size, etag: written, lastModified: object.lastModified))
                noteETag(written, of: key)
            }
        } catch .unsupported {
            copiesPartsUnsupported.withLock { $0 = true }
            try transfer(source, to: destination, replacing: true, deletingSource: true)
            return true
        } catch let error where error.isPreconditionFailed || error.isNotFound {
            // The source's part copy refused as well as the completion: which one, the source tells.
            guard let now = try find(source)?.object else { throw Self.error(ENOENT, url: source, writing: true) }
            guard now.etag == object.etag else {
                throw Self.error(
                    EAGAIN, url: source, writing: true, reason: "it changed on the server while it was moved")
            }
            return false
        } catch {
            throw Self.error(error, url: destination, writing: true)
        }
        _ = takeCreated(source)
        try delete(object, movedFrom: source)
        return true
    }

    /// `PutObject` with `If-Match: etag`; `false` on 412 or 404. The object written is
    /// remembered (``placedObject(at:)``), dated `date` until a listing tells its own date.
    private func write(_ data: Data, over url: URL, ifMatch etag: String, datedAs date: Date) throws -> Bool {
        let key = key(url)
        forgetListings()
        do throws(S3Error) {
            let written = try guarded { () throws(S3Error) in
                try client.putObject(key, body: data, condition: .ifMatch(etag))
            }
            if !written.isEmpty {
                remember(S3Object(key: key, size: Int64(data.count), etag: written, lastModified: date))
                noteETag(written, of: key)
            }
            return true
        } catch let error where error.isPreconditionFailed || error.isNotFound {
            return false
        } catch {
            throw Self.error(error, url: url, writing: true)
        }
    }

    private func copyObject(_ object: S3Object, to key: String, url: URL) throws {
        if let copied = try copyKeepingParts(object, to: key, url: url) {
            remember(copied)
            return
        }
        let copied = try request(url, writing: true) { () throws(S3Error) in
            try client.copy(object.key, to: key, sourceETag: object.etag)
        }
        remember(
            S3Object(
                key: key, size: object.size, etag: copied.etag.isEmpty ? object.etag : copied.etag,
                lastModified: copied.lastModified ?? object.lastModified))
    }

    /// Copies an object written in parts (its ETag `"…-N"`) in parts of the same sizes
    /// (`UploadPartCopy`), so that the copy has the source's ETag, as `CopyObject`'s copy of it
    /// would not (AWS and moto give that one the MD5 of its bytes): a move cut between its copy
    /// and its delete is then known to the next run as the same file, and finished.
    ///
    /// - Returns: The copy; `nil` when the object was written whole, its parts are not of one
    ///   size (`HEAD ?partNumber=1` says the first's and their count), or the server copies no
    ///   parts (noted): `CopyObject` copies it then.
    private func copyKeepingParts(_ object: S3Object, to key: String, url: URL) throws -> S3Object? {
        guard Self.isWrittenInParts(object.etag), !copiesPartsUnsupported.withLock({ $0 }) else { return nil }
        let layout = try request(url, writing: false) { () throws(S3Error) in
            try client.partLayout(of: object.key)
        }
        guard let layout, let partSize = Self.partSize(copying: object.size, as: layout) else { return nil }
        forgetListings()
        do throws(S3Error) {
            let etag = try guarded { () throws(S3Error) in
                try client.copyInParts(
                    object.key, to: key, size: object.size, sourceETag: object.etag, condition: .always,
                    partSize: partSize)
            }
            return S3Object(
                key: key, size: object.size, etag: etag.isEmpty ? object.etag : etag, lastModified: object.lastModified)
        } catch .unsupported {
            copiesPartsUnsupported.withLock { $0 = true }
            return nil
        } catch {
            throw Self.error(error, url: url, writing: true)
        }
    }

    /// Whether `etag` is that of an object written in parts: `"<hex>-<count>"`.
    static func isWrittenInParts(_ etag: String) -> Bool {
        let tag = etag.utf8.filter { $0 != UInt8(ascii: "\"") }
        guard let dash = tag.lastIndex(of: UInt8(ascii: "-")), dash > 0, dash < tag.count - 1 else { return false }
        return tag[(dash + 1)...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The part size that copies an object of `size` bytes in `layout`'s parts, or `nil` when
    /// parts of the first one's size would not cut it into that many (parts of several sizes).
    static func partSize(copying size: Int64, as layout: S3PartLayout) -> Int64? {
        let first = layout.firstPartSize
        guard first > 0, first <= S3Client.largestCopiedPart else { return nil }
        if layout.count == 1 { return first == size ? max(first, 5 << 20) : nil }
        // Parts but the last are at least 5 MiB on S3; the last holds what is left (1 byte or more).
        guard first >= 5 << 20, (size + first - 1) / first == Int64(layout.count) else { return nil }
        return first
    }
}
