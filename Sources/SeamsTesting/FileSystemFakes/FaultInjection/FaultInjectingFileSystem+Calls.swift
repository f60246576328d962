public import Foundation
public import Seams
import Synchronization

/// The door every call goes through: crash, rules, then the wrapped call, then the record.
extension FaultInjectingFileSystem {
    func perform<T>(
        _ operation: FileSystemOperation, _ url: URL?, _ destination: URL? = nil, _ body: () throws -> T
    ) throws -> T {
        let due = state.withLock {
            $0.actions.isEmpty ? [] : $0.actions.removeValue(forKey: $0.countdown.count + 1) ?? []
        }
        for action in due { action() }
        if let failure = state.withLock({ Self.failure(for: operation, url, destination, in: &$0) }) {
            record(operation, url, destination, .failure(UnderlyingError(failure)))
            throw failure
        }
        do {
            let result = try body()
            record(operation, url, destination, .success)
            return result
        } catch {
            record(operation, url, destination, .failure(UnderlyingError(error)))
            throw error
        }
    }

    private func record(
        _ operation: FileSystemOperation, _ url: URL?, _ destination: URL?, _ outcome: FileSystemCall.Outcome
    ) {
        let call = FileSystemCall(operation: operation, url: url, destination: destination, outcome: outcome)
        state.withLock { $0.calls.append(call) }
    }

    /// Counts the call and decides whether it fails, under the lock.
    private static func failure(
        for operation: FileSystemOperation, _ url: URL?, _ destination: URL?, in state: inout State
    ) -> (any Error)? {
        if let stopped = state.countdown.countCall() { return stopped.stop }
        for index in state.rules.indices {
            let rule = state.rules[index].rule
            let matching = rule.matches(operation, url) || (destination.map { rule.matches(operation, $0) } ?? false)
            guard matching else { continue }
            state.rules[index].matched += 1
            if let occurrence = rule.occurrence, state.rules[index].matched != occurrence { continue }
            if let times = rule.times, state.rules[index].fired >= times { continue }
            state.rules[index].fired += 1
            return rule.fault.error(for: operation, at: url)
        }
        return nil
    }
}

extension FaultInjectingFileSystem: FileAccessorProviding {
    /// The wrapped read, unless failed.
    public func read(from url: URL) throws -> Data {
        try perform(.read, url) { try files.read(from: url) }
    }

    /// The wrapped write, unless failed.
    public func write(_ data: Data, to url: URL) throws {
        try perform(.write, url) { try files.write(data, to: url) }
    }

    /// The wrapped answer, or `false` when the call is failed.
    public func fileExists(at url: URL) -> Bool {
        (try? perform(.fileExists, url) { files.fileExists(at: url) }) ?? false
    }
}

extension FaultInjectingFileSystem: FileSystemProviding {
    /// The wrapped answer, or `nil` when failed or when no provider was given.
    public func containerURL(for purpose: Purpose) -> URL? {
        (try? perform(.containerURL, nil) { containers?.containerURL(for: purpose) }) ?? nil
    }
}

extension FaultInjectingFileSystem: BookmarkStorageProviding {
    /// The wrapped save, unless failed.
    public func saveBookmark(_ data: Data, for key: String) throws {
        try perform(.saveBookmark, InMemoryFileSystem.bookmarkURL(key)) { try bookmarks?.saveBookmark(data, for: key) }
    }

    /// The wrapped load, unless failed.
    public func loadBookmark(for key: String) throws -> Data? {
        try perform(.loadBookmark, InMemoryFileSystem.bookmarkURL(key)) { try bookmarks?.loadBookmark(for: key) ?? nil }
    }
}
