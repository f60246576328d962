public import Foundation
import SeamsCore

extension S3Accessor {
    /// Lists the tree under the folder `url` ahead, in flat listings (`ListObjectsV2` without a
    /// delimiter: one request per 1,000 objects, however many folders hold them), so that each
    /// folder's ``contentsOfDirectory(at:)`` is answered from memory, once, instead of by one
    /// request per folder.
    ///
    /// The folder itself is listed with `delimiter=/` (one request), then each folder in it that
    /// `skipping` does not name is listed flat: a folder skipped (a trash of old versions) is
    /// neither fetched nor answered from memory. What is fetched is given out once per folder,
    /// and dropped by any write through this accessor and by ``endTreeListing()``, so a listing
    /// is never older than the last write this accessor made.
    ///
    /// - Parameters:
    ///   - url: A folder of this accessor.
    ///   - skipping: Whether a folder directly in `url` is left to be listed when asked.
    /// - Throws: The listing's errors, as the file system's (nothing is kept then).
    @available(*, noasync, message: "it blocks its thread")
    public func beginTreeListing(at url: URL, skipping: (String) -> Bool = { _ in false }) throws {
        endTreeListing()
        let generation = listingGeneration.withLock { $0 }
        let top = try contentsOfDirectory(at: url)
        var listings: [[UInt8]: [DirectoryEntry]] = [Array(folderPrefix(url).utf8): top]
        for entry in top where entry.metadata.kind == .directory && !skipping(entry.name) {
            let folder = url.appending(path: entry.name, directoryHint: .isDirectory)
            let prefix = folderPrefix(folder)
            listings.merge(Self.listings(of: try objects(under: prefix, url: folder), under: prefix)) { $1 }
        }
        prefetched.withLock { kept in
            // A write since the listing began makes it older than that write: keep nothing.
            if listingGeneration.withLock({ $0 }) == generation { kept = listings }
        }
    }

    /// Drops what ``beginTreeListing(at:skipping:)`` fetched and no folder's listing took.
    public func endTreeListing() {
        prefetched.withLock { $0 = [:] }
    }

    /// The listing fetched ahead for the folder `prefix`, taken (given out once), or `nil`.
    func takePrefetchedListing(_ prefix: String) -> [DirectoryEntry]? {
        prefetched.withLock { $0.removeValue(forKey: Array(prefix.utf8)) }
    }

    /// Called before every write: what was fetched ahead may be older than it now.
    func forgetListings() {
        listingGeneration.withLock { $0 &+= 1 }
        prefetched.withLock { if !$0.isEmpty { $0 = [:] } }
    }

    /// Each folder's entries under `prefix` from a flat listing, as ``contentsOfDirectory(at:)``
    /// gives them: sorted by the bytes of their names, folders as folders (also where a key is a
    /// file and a folder's prefix at once), markers not listed, and a key with an empty component
    /// (`a//b`, which a listing by folder never reaches) left out.
    static func listings(of objects: [S3Object], under prefix: String) -> [[UInt8]: [DirectoryEntry]] {
        let slash = UInt8(ascii: "/")
        let root = Array(prefix.utf8)
        var files: [[UInt8]: [[UInt8]: S3Object]] = [root: [:]]
        var folders: [[UInt8]: Set<[UInt8]>] = [root: []]
        keys: for object in objects {
            let rest = Array(object.key.utf8.dropFirst(root.count))
            let parts = rest.split(separator: slash, omittingEmptySubsequences: false)
            var parent = root
            for part in parts.dropLast() {
                if part.isEmpty { continue keys }
                folders[parent, default: []].insert(Array(part))
                parent += part + [slash]
                if folders[parent] == nil { folders[parent] = [] }
                if files[parent] == nil { files[parent] = [:] }
            }
            guard let name = parts.last, !name.isEmpty else { continue }  // a folder's marker
            files[parent, default: [:]][Array(name)] = object
        }
        var listings: [[UInt8]: [DirectoryEntry]] = [:]
        for (folder, names) in folders {
            var entries = names.map { DirectoryEntry(name: String(decoding: $0, as: UTF8.self), metadata: Self.folder) }
            for (name, object) in files[folder] ?? [:] where !names.contains(name) {
                entries.append(
                    DirectoryEntry(name: String(decoding: name, as: UTF8.self), metadata: Self.metadata(object)))
            }
            entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            listings[folder] = entries
        }
        return listings
    }
}
