public import Foundation
public import Seams

/// A `BookmarkStorageProviding` for tests: bookmarks in a dictionary, configurable errors and a
/// record of every call, all behind a lock (`LockedValue`).
///
/// ```swift
/// let storage = MockBookmarkStorage()
/// storage.saveError = CocoaError(.fileWriteOutOfSpace)
/// #expect(throws: CocoaError.self) { try storage.saveBookmark(data, for: "folder") }
/// #expect(storage.calls == [.save(data, key: "folder")])
/// ```
public final class MockBookmarkStorage: BookmarkStorageProviding {
    /// One call the mock received.
    public enum Call: Hashable, Sendable {
        /// `saveBookmark(_:for:)`.
        case save(Data, key: String)
        /// `loadBookmark(for:)`.
        case load(key: String)
    }

    private struct State {
        var bookmarks: [String: Data]
        var saveError: (any Error)?
        var loadError: (any Error)?
        var calls: [Call] = []
    }

    private let state: LockedValue<State>

    /// Creates a mock holding `bookmarks`.
    ///
    /// - Parameter bookmarks: The initial bookmarks, by key.
    public init(bookmarks: [String: Data] = [:]) {
        state = LockedValue(State(bookmarks: bookmarks))
    }

    /// The stored bookmarks, by key.
    public var bookmarks: [String: Data] {
        get { state.withLock { $0.bookmarks } }
        set { state.withLock { $0.bookmarks = newValue } }
    }

    /// When set, every save throws it and stores nothing.
    public var saveError: (any Error)? {
        get { state.withLock { $0.saveError } }
        set { state.withLock { $0.saveError = newValue } }
    }

    /// When set, every load throws it.
    public var loadError: (any Error)? {
        get { state.withLock { $0.loadError } }
        set { state.withLock { $0.loadError = newValue } }
    }

    /// Every call received, in order.
    public var calls: [Call] {
        state.withLock { $0.calls }
    }

    /// Stores the bookmark, or throws ``saveError``.
    public func saveBookmark(_ data: Data, for key: String) throws {
        try state.withLock { state in
            state.calls.append(.save(data, key: key))
            if let error = state.saveError { throw error }
            state.bookmarks[key] = data
        }
    }

    /// The stored bookmark, or `nil`, or throws ``loadError``.
    public func loadBookmark(for key: String) throws -> Data? {
        try state.withLock { state in
            state.calls.append(.load(key: key))
            if let error = state.loadError { throw error }
            return state.bookmarks[key]
        }
    }
}
