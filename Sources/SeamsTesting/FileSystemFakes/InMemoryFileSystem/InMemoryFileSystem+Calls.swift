public import Foundation
public import Seams
import Synchronization

/// The one door every call goes through: counting, the power-cut schedule, the record, and the
/// translation of the tree's `errno` into Foundation's error.
extension InMemoryFileSystem {
    func perform<T: Sendable>(
        _ operation: FileSystemOperation,
        _ url: URL?,
        _ destination: URL? = nil,
        _ body: (inout MemoryTree) throws(MemoryFailure) -> T
    ) throws -> T {
        let result: Result<T, any Error> = state.withLock { state in
            let result: Result<T, any Error>
            if let stopped = state.countdown.countCall() {
                if stopped.isNew { state.tree.cutPower() }
                result = .failure(stopped.stop)
            } else {
                do throws(MemoryFailure) {
                    result = .success(try body(&state.tree))
                } catch {
                    result = .failure(error.cocoa(writing: operation.isWriting))
                }
                if state.tree.journal != nil { state.tree.recordJournal() }
            }
            if state.recordsCalls {
                let outcome: FileSystemCall.Outcome
                switch result {
                case .success: outcome = .success
                case .failure(let error): outcome = .failure(UnderlyingError(error))
                }
                state.calls.append(
                    FileSystemCall(operation: operation, url: url, destination: destination, outcome: outcome))
            }
            return result
        }
        return try result.get()
    }
}

extension InMemoryFileSystem: FileAccessorProviding {
    /// The file's bytes; errors as `Data(contentsOf:)` throws them.
    public func read(from url: URL) throws -> Data {
        try perform(.read, url) { tree throws(MemoryFailure) in try tree.read(MemoryPath(url)) }
    }

    /// Replaces the file atomically with a new inode (mode `0o644`), as
    /// `Data.write(to:options: .atomic)` does; errors as Foundation throws them.
    ///
    /// As Foundation does, it writes a temp file beside the target (`.dat.nosync…`) and renames
    /// it over the target: a power cut that keeps part of the unflushed changes
    /// (``powerLossSelection``) may leave that temp file where the target was to be replaced.
    public func write(_ data: Data, to url: URL) throws {
        try perform(.write, url) { tree throws(MemoryFailure) in
            try tree.writeThroughTemporary(data, to: MemoryPath(url))
        }
    }

    /// Whether a file or folder exists at `url` (`false` while the power is off).
    public func fileExists(at url: URL) -> Bool {
        (try? perform(.fileExists, url) { tree throws(MemoryFailure) in tree.exists(MemoryPath(url)) }) ?? false
    }
}

extension InMemoryFileSystem: FileSystemProviding {
    /// The configured container while it exists here as a folder, otherwise `nil`.
    public func containerURL(for purpose: Purpose) -> URL? {
        let candidate = state.withLock { $0.containers[purpose] ?? $0.container }
        guard let candidate else { return nil }
        let isFolder =
            (try? perform(.containerURL, candidate) { tree throws(MemoryFailure) in
                tree.nodes[try tree.lookup(MemoryPath(candidate))]!.isDirectory
            }) ?? false
        return isFolder ? candidate : nil
    }
}

extension InMemoryFileSystem: BookmarkStorageProviding {
    /// Keeps the bytes in memory under `key`.
    public func saveBookmark(_ data: Data, for key: String) throws {
        try perform(.saveBookmark, Self.bookmarkURL(key)) { _ throws(MemoryFailure) in () }
        state.withLock { $0.bookmarks[key] = data }
    }

    /// The bytes saved under `key`, or `nil`.
    public func loadBookmark(for key: String) throws -> Data? {
        try perform(.loadBookmark, Self.bookmarkURL(key)) { _ throws(MemoryFailure) in () }
        return state.withLock { $0.bookmarks[key] }
    }

    /// How a bookmark key appears in ``calls``: `bookmark:<key>`.
    static func bookmarkURL(_ key: String) -> URL? {
        var components = URLComponents()
        components.scheme = "bookmark"
        components.path = key
        return components.url
    }
}
