public import Foundation
public import Seams

/// A `FileAccessorProviding` for tests: files in a dictionary, configurable errors, and a
/// record of every call. Free of data races: all state sits behind one lock (`LockedValue`), so a test may
/// share it with any number of tasks and threads.
///
/// ```swift
/// let mock = MockFileAccessor()
/// mock.files[url] = Data("{}".utf8)
/// mock.readError = CocoaError(.fileReadCorruptFile)
/// let manager = SyncManager(fileAccessor: mock)
/// await #expect(throws: SyncError.self) { try await manager.sync() }
/// #expect(mock.calls == [.read(url)])
/// ```
///
/// A read of a missing file throws what Foundation throws (`.fileReadNoSuchFile`, ENOENT).
/// Each property access is atomic; to change several things as one step use ``withState(_:)``.
public final class MockFileAccessor: FileAccessorProviding {
    /// One call the mock received.
    public enum Call: Hashable, Sendable {
        /// `read(from:)`.
        case read(URL)
        /// `write(_:to:)`, with the bytes written.
        case write(Data, URL)
        /// `fileExists(at:)`.
        case fileExists(URL)
    }

    /// Everything the mock holds; ``withState(_:)`` hands it out under the lock.
    public struct State: Sendable {
        /// The files, by URL.
        public var files: [URL: Data] = [:]
        /// When set, every `read(from:)` throws it.
        public var readError: (any Error)?
        /// When set, every `write(_:to:)` throws it.
        public var writeError: (any Error)?
        /// Every call, in order.
        public var calls: [Call] = []
    }

    private let state: LockedValue<State>

    /// Creates a mock holding `files`.
    ///
    /// - Parameter files: The initial files.
    public init(files: [URL: Data] = [:]) {
        state = LockedValue(State(files: files))
    }

    /// The files, by URL.
    public var files: [URL: Data] {
        get { state.withLock { $0.files } }
        set { state.withLock { $0.files = newValue } }
    }

    /// When set, every `read(from:)` throws it.
    public var readError: (any Error)? {
        get { state.withLock { $0.readError } }
        set { state.withLock { $0.readError = newValue } }
    }

    /// When set, every `write(_:to:)` throws it.
    public var writeError: (any Error)? {
        get { state.withLock { $0.writeError } }
        set { state.withLock { $0.writeError = newValue } }
    }

    /// Every call received, in order.
    public var calls: [Call] {
        state.withLock { $0.calls }
    }

    /// Runs `body` with the state under the lock, so several changes land as one.
    ///
    /// - Parameter body: Reads or changes the state.
    /// - Returns: What `body` returns.
    public func withState<T: Sendable>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }

    /// Forgets the calls, keeping files and errors.
    public func resetCalls() {
        state.withLock { $0.calls.removeAll() }
    }

    /// The stored bytes, or ``readError``, or Foundation's missing-file error.
    public func read(from url: URL) throws -> Data {
        try state.withLock { state in
            state.calls.append(.read(url))
            if let error = state.readError { throw error }
            guard let data = state.files[url] else {
                throw CocoaError.fileSystemError(errno: ENOENT, path: url.path, writing: false)
            }
            return data
        }
    }

    /// Stores the bytes, or throws ``writeError``.
    public func write(_ data: Data, to url: URL) throws {
        try state.withLock { state in
            state.calls.append(.write(data, url))
            if let error = state.writeError { throw error }
            state.files[url] = data
        }
    }

    /// Whether a file is stored at `url`.
    public func fileExists(at url: URL) -> Bool {
        state.withLock { state in
            state.calls.append(.fileExists(url))
            return state.files[url] != nil
        }
    }
}
