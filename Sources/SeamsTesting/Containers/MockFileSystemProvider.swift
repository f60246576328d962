public import Foundation
public import Seams

/// A `FileSystemProviding` for tests that answers with a configured container (or `nil`) and
/// records each purpose it was asked for. Race-free: its state is behind a lock (`LockedValue`).
///
/// ```swift
/// let manager = SyncManager(fileSystem: MockFileSystemProvider(containerURL: nil))
/// await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
/// ```
public final class MockFileSystemProvider: FileSystemProviding {
    private struct State {
        var containerURLs: [Purpose: URL] = [:]
        var fallback: URL?
        var requestedPurposes: [Purpose] = []
    }

    private let state: LockedValue<State>

    /// Creates a mock that answers `containerURL` for every purpose.
    ///
    /// - Parameter containerURL: The container, or `nil` for "not available".
    public init(containerURL: URL?) {
        state = LockedValue(State(fallback: containerURL))
    }

    /// The container answered for purposes without their own entry; `nil` means "not available".
    public var containerURL: URL? {
        get { state.withLock { $0.fallback } }
        set { state.withLock { $0.fallback = newValue } }
    }

    /// Sets the container for one purpose only.
    ///
    /// - Parameters:
    ///   - url: The container, or `nil` to fall back to ``containerURL``.
    ///   - purpose: The purpose it answers.
    public func setContainerURL(_ url: URL?, for purpose: Purpose) {
        state.withLock { $0.containerURLs[purpose] = url }
    }

    /// Every purpose asked for, in order.
    public var requestedPurposes: [Purpose] {
        state.withLock { $0.requestedPurposes }
    }

    /// The configured container for `purpose`.
    public func containerURL(for purpose: Purpose) -> URL? {
        state.withLock { state in
            state.requestedPurposes.append(purpose)
            return state.containerURLs[purpose] ?? state.fallback
        }
    }
}
