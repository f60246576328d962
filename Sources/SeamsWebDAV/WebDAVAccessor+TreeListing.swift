public import Foundation
import HTTPTypes
import SeamsCore

extension WebDAVAccessor {
    /// The most items a tree's ``beginTreeListing(at:expecting:skipping:)`` asks for in one
    /// answer: 200,000, about 64 MB of XML from `rclone serve webdav` at 320 bytes an item (an
    /// `AsyncHTTPClientTransport` accepts 64 MiB by default; longer names make a longer answer,
    /// which the transport refuses, and the tree listing is then given up). A larger tree is
    /// listed by folder.
    public static let treeListingLimit = 200_000

    /// Lists the tree under the collection `url` ahead, in one `PROPFIND` with `Depth: infinity`,
    /// so that each folder's ``contentsOfDirectory(at:)`` is answered from memory, once, instead
    /// of by one `PROPFIND` per folder: a poll of 100,000 files in 1,000 folders is one exchange,
    /// not 1,001.
    ///
    /// Nothing is asked when the tree's size is unknown (`expecting` is 0: a first sync) or
    /// expected to be over ``treeListingLimit`` items (its answer is held whole), or once such a
    /// request to this server failed, for a reason other than the server being out of reach: refused (RFC
    /// 4918, §9.1, lets a server refuse it with 403, and Apache `mod_dav` does unless
    /// `DavDepthInfinity` is on; `rclone serve webdav` answers it), failed after its retries (an
    /// answer over the transport's limit among them), or answered with what cannot be trusted
    /// whole (a resource it could not describe, an item whose folder is not in the answer). The
    /// folders are then listed one by one, as ``contentsOfDirectory(at:)`` lists them.
    ///
    /// A folder the answer names with nothing in it is not taken as empty: a server may answer
    /// with fewer levels than asked and say nothing of it (SabreDAV lists one level where
    /// `Depth: infinity` is turned off), so such a folder is listed by itself when asked. A
    /// folder directly in `url` that `skipping` names (a trash of old versions) is listed by the
    /// server too, and dropped here: asked for, it is listed anew. What is fetched is given out
    /// once per folder, and dropped by any write through this accessor (as the write is sent and
    /// again once it is answered) and by ``endTreeListing()``, so a listing is never older than
    /// the last write this accessor made.
    ///
    /// - Parameters:
    ///   - url: A collection of this accessor.
    ///   - expecting: How many items the tree held when last seen (0 when unknown: nothing is
    ///     asked).
    ///   - skipping: Whether a folder directly in `url` is left to be listed when asked.
    /// - Returns: Whether the tree was fetched ahead.
    /// - Throws: The listing's errors, as the file system's (nothing is kept then).
    @available(*, noasync, message: "it blocks its thread")
    @discardableResult
    public func beginTreeListing(
        at url: URL, expecting: Int, skipping: (String) -> Bool = { _ in false }
    ) throws -> Bool {
        endTreeListing()
        guard expecting > 0, expecting <= Self.treeListingLimit, !treeListingGivenUp.withLock({ $0 }) else {
            return false
        }
        let generation = listingGeneration.withLock { $0 }
        let listings: [[UInt8]: [DirectoryEntry]]
        do {
            guard let fetched = try fetchTree(at: url, skipping: skipping) else {
                treeListingGivenUp.withLock { $0 = true }
                return false
            }
            listings = fetched
        } catch {
            // Too large for the transport, cut off, unreadable: the folders are listed one by
            // one from now on, as on a server that refuses. A server out of reach (the outage
            // `send` records) is asked again once it is back.
            if !isInOutage { treeListingGivenUp.withLock { $0 = true } }
            throw error
        }
        return prefetched.withLock { kept in
            // A write since the listing began makes it older than that write: keep nothing.
            guard listingGeneration.withLock({ $0 }) == generation else { return false }
            kept = listings
            return true
        }
    }

    /// The tree under `url` in one `PROPFIND` with `Depth: infinity`, as
    /// `listings(of:under:skipping:)` makes it; `nil` when the server refuses such a request
    /// (403) or its answer cannot be trusted whole.
    private func fetchTree(at url: URL, skipping: (String) -> Bool) throws -> [[UInt8]: [DirectoryEntry]]? {
        var headers = HTTPFields()
        headers[.depth] = "infinity"
        headers[.contentType] = "application/xml; charset=utf-8"
        var (response, body) = try send(.propfind, url, collection: true, headers: headers, body: Self.propfindBody)
        switch response.status.code {
        case 207:
            break
        case 403:
            // Refused: RFC 4918 names the reason (`propfind-finite-depth`); Apache 2.4 says it in
            // prose. A folder the user may not list meets its own 403 when listed by itself.
            return nil
        default:
            throw failure(response, url: url, writing: false, method: .propfind)
        }
        let resources: [WebDAVResource]
        do {
            resources = try WebDAVMultistatus.parse(body)
            body = Data()  // the answer (about 320 bytes an item) is let go before the listings are made
        } catch {
            throw Self.error(
                EIO, url: url, writing: false, reason: "the server's PROPFIND answer could not be read: \(error.reason)"
            )
        }
        return Self.listings(of: resources, under: decodedPath(url), skipping: skipping)
    }

    /// Drops what ``beginTreeListing(at:expecting:skipping:)`` fetched and no folder's listing took.
    public func endTreeListing() {
        prefetched.withLock { $0 = [:] }
    }

    /// The listing fetched ahead for the collection at the decoded path `path`, taken (given out
    /// once), or `nil`.
    func takePrefetchedListing(_ path: String) -> [DirectoryEntry]? {
        prefetched.withLock { $0.isEmpty ? nil : $0.removeValue(forKey: Array(path.utf8)) }
    }

    /// Called before every request that may change the server: what was fetched ahead may be
    /// older than it now.
    func forgetListings() {
        listingGeneration.withLock { $0 &+= 1 }
        prefetched.withLock { if !$0.isEmpty { $0 = [:] } }
    }

    /// Each collection's entries under `root` (a decoded path, as a `PROPFIND` answer names it)
    /// from a `Depth: infinity` answer, by the bytes of the collection's decoded path, as
    /// ``contentsOfDirectory(at:)`` gives them: sorted by the bytes of their names, and the
    /// subtrees of the folders in `root` that `skipping` names left out.
    ///
    /// A collection with nothing in it in the answer has no listing here (it is listed by itself
    /// when asked): a server that answers fewer levels than asked, and does not say so, names the
    /// folders of its last level with nothing in them.
    ///
    /// `nil` when the answer cannot be trusted whole: `root` missing or not a collection, an item
    /// outside `root`, an item whose folder the answer does not hold, or an item without its
    /// properties (a server may cut such an answer short, naming the collections it left out
    /// with 507, RFC 4918 §9.1). A folder the answer left out would otherwise read as emptied,
    /// its files as deleted.
    static func listings(
        of resources: [WebDAVResource], under root: String, skipping: (String) -> Bool
    ) -> [[UInt8]: [DirectoryEntry]]? {
        let slash = UInt8(ascii: "/")
        let rootBytes = Array(root.utf8)
        let prefix = root == "/" ? rootBytes : rootBytes + [slash]
        // Each path's bytes under the root (names are compared as bytes, as the server's are:
        // two names that differ only in Unicode normalization are two items); `nil` for the root.
        var paths: [ArraySlice<UInt8>?] = []
        paths.reserveCapacity(resources.count)
        var rootFound = false
        for resource in resources {
            guard resource.isComplete else { return nil }
            let path = Array(resource.path.utf8)
            if path == rootBytes || (path.count == prefix.count && path.starts(with: prefix)) {
                guard resource.isCollection else { return nil }
                rootFound = true
                paths.append(nil)
                continue
            }
            guard path.count > prefix.count, path.starts(with: prefix) else { return nil }  // outside the root
            paths.append(path[prefix.count...])
        }
        guard rootFound else { return nil }
        var skipped: Set<ArraySlice<UInt8>> = []
        var folders: Set<ArraySlice<UInt8>> = [[]]
        for (resource, rest) in zip(resources, paths) where resource.isCollection {
            guard let rest else { continue }
            if !rest.contains(slash), skipping(String(decoding: rest, as: UTF8.self)) { skipped.insert(rest) }
            folders.insert(rest)
        }
        /// Whether `rest` is a skipped folder or inside one.
        func isSkipped(_ rest: ArraySlice<UInt8>) -> Bool {
            !skipped.isEmpty && skipped.contains(rest.prefix { $0 != slash })
        }
        func key(_ folder: ArraySlice<UInt8>) -> [UInt8] { folder.isEmpty ? rootBytes : prefix + folder }
        var listings: [[UInt8]: [DirectoryEntry]] = [:]
        for folder in folders where folder.isEmpty || !isSkipped(folder) { listings[key(folder)] = [] }
        // A folder's items usually come together: they are gathered, and looked up once a run.
        var current: ArraySlice<UInt8>?
        var entries: [DirectoryEntry] = []
        for (resource, rest) in zip(resources, paths) {
            guard let rest else { continue }
            let cut = rest.lastIndex(of: slash)
            if cut != nil, isSkipped(rest) { continue }  // inside a skipped folder
            let folder = cut.map { rest[..<$0] } ?? rest[rest.startIndex..<rest.startIndex]
            if current.map({ $0.elementsEqual(folder) }) != true {
                if let current { listings[key(current)]!.append(contentsOf: entries) }
                entries.removeAll(keepingCapacity: true)
                guard folders.contains(folder) else { return nil }  // a folder the answer does not hold
                current = folder
            }
            let name = cut.map { rest[($0 + 1)...] } ?? rest
            entries.append(DirectoryEntry(name: String(decoding: name, as: UTF8.self), metadata: metadata(resource)))
        }
        if let current { listings[key(current)]!.append(contentsOf: entries) }
        // Not known to be empty: perhaps a level the server did not list.
        listings = listings.filter { !$0.value.isEmpty }
        for key in listings.keys {
            listings[key]!.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
        return listings
    }
}
