public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live ``BookmarkStorageProviding``: one JSON file holding every key.
///
/// By default the file is `$XDG_CONFIG_HOME/seams/bookmarks.json` (`~/.config/...` when unset) on
/// Linux and `Application Support/Seams/bookmarks.json` on Apple platforms. Keys are entries in the
/// file, never paths, so a key such as `../../x` cannot escape the store. Each save rewrites the
/// file atomically under an advisory lock, so two processes saving at once both keep their
/// bookmark. A damaged file throws ``BookmarkStorageError`` and is never overwritten.
///
/// ```swift
/// let storage = DefaultBookmarkStorage()
/// try storage.saveBookmark(data, for: "local-folder")
/// ```
public struct DefaultBookmarkStorage: BookmarkStorageProviding {
    /// The store file.
    public let storeURL: URL

    /// Creates the storage on the default store file.
    ///
    /// - Parameter environment: The environment the default location is read from.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(storeURL: Self.defaultStoreURL(environment: environment))
    }

    /// Creates the storage on a given store file; its folder is created on the first save.
    ///
    /// - Parameter storeURL: The JSON file that holds the bookmarks.
    public init(storeURL: URL) {
        self.storeURL = storeURL
    }

    /// The default store file for this platform.
    ///
    /// - Parameter environment: The environment to read `XDG_CONFIG_HOME` and `HOME` from.
    /// - Returns: The store file's URL.
    public static func defaultStoreURL(environment: [String: String]) -> URL {
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return base.appending(path: "Seams/bookmarks.json")
        #else
            let base =
                XDGDirectory.config.url(environment: environment)
                ?? FileManager.default.temporaryDirectory
            return base.appending(path: "seams/bookmarks.json")
        #endif
    }

    /// Saves `data` under `key`, keeping every other key.
    ///
    /// - Parameters:
    ///   - data: The bookmark's bytes.
    ///   - key: Any string.
    /// - Throws: ``BookmarkStorageError`` when the existing store is damaged; Foundation's
    ///   `CocoaError` when the folder or file cannot be written.
    public func saveBookmark(_ data: Data, for key: String) throws {
        try withStoreLock(exclusive: true) {
            var store = try readStore() ?? Store()
            store.bookmarks[key] = data
            try writeStore(store)
        }
    }

    /// The bookmark saved under `key`, or `nil`.
    ///
    /// - Parameter key: Any string.
    /// - Returns: The saved bytes, or `nil` when the key or the whole store is absent.
    /// - Throws: ``BookmarkStorageError`` when the store is damaged; Foundation's `CocoaError`
    ///   when it cannot be read.
    public func loadBookmark(for key: String) throws -> Data? {
        try withStoreLock(exclusive: false) {
            try readStore()?.bookmarks[key]
        }
    }

    /// Removes the bookmark saved under `key`, if any.
    ///
    /// - Parameter key: Any string.
    /// - Throws: As ``saveBookmark(_:for:)``.
    public func removeBookmark(for key: String) throws {
        try withStoreLock(exclusive: true) {
            guard var store = try readStore(), store.bookmarks.removeValue(forKey: key) != nil
            else { return }
            try writeStore(store)
        }
    }

    // MARK: - File format

    private struct Store: Codable {
        static let currentVersion = 1
        var version = Store.currentVersion
        var bookmarks: [String: Data] = [:]
    }

    private struct VersionProbe: Decodable {
        var version: Int
    }

    private func readStore() throws -> Store? {
        let data: Data
        do {
            // Through the live accessor: the same calls and errors, close-on-exec on Linux.
            data = try DefaultFileAccessor().read(from: storeURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        }
        let decoder = JSONDecoder()
        let probe: VersionProbe
        do {
            probe = try decoder.decode(VersionProbe.self, from: data)
        } catch {
            throw BookmarkStorageError.corruptStore(
                storeURL, reason: "not a bookmark store: \(Self.summary(of: error))")
        }
        guard probe.version <= Store.currentVersion else {
            throw BookmarkStorageError.unsupportedVersion(storeURL, version: probe.version)
        }
        do {
            return try decoder.decode(Store.self, from: data)
        } catch {
            throw BookmarkStorageError.corruptStore(storeURL, reason: Self.summary(of: error))
        }
    }

    private func writeStore(_ store: Store) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(store)
        try DefaultFileAccessor().write(data, to: storeURL)
    }

    private static func summary(of error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context): context.debugDescription
        case DecodingError.valueNotFound(_, let context): context.debugDescription
        default: String(describing: error)
        }
    }

    // MARK: - Locking

    /// Runs `body` holding an advisory `flock` on a lock file beside the store, so that two
    /// read-modify-write cycles never interleave. Each call opens the lock file anew, and `flock`
    /// locks belong to the open file, so this guards threads of one process as well as processes.
    private func withStoreLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        do {
            let folder = storeURL.deletingLastPathComponent()
            if exclusive {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let lockPath = storeURL.path + ".lock"
            let descriptor = open(lockPath, exclusive ? (O_RDWR | O_CREAT | O_CLOEXEC) : (O_RDONLY | O_CLOEXEC), 0o600)
            guard descriptor >= 0 else {
                // A reader finds no lock file when nothing was ever saved: nothing to guard.
                if !exclusive { return try body() }
                throw CocoaError.fileSystemError(errno: errno, path: lockPath, writing: true)
            }
            defer { close(descriptor) }
            while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
                guard errno == EINTR else {
                    throw CocoaError.fileSystemError(errno: errno, path: lockPath, writing: exclusive)
                }
            }
            defer { flock(descriptor, LOCK_UN) }
            return try body()
        }
    }
}
