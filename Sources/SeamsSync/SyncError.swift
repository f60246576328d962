public import Foundation
public import Seams

/// Why a sync did not happen or did not finish; a value a test can compare.
///
/// ```swift
/// await #expect(throws: SyncError.containerNotAvailable) { try await manager.sync() }
/// ```
public enum SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sync container is not available (signed out of iCloud, an unmounted folder).
    case containerNotAvailable
    /// A file could not be read; the boundary's error is kept.
    case readFailed(URL, UnderlyingError)
    /// A file could not be written; the boundary's error is kept.
    case writeFailed(URL, UnderlyingError)
    /// `data.json` in the container is not valid JSON.
    case corruptData(URL)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .containerNotAvailable:
            "The sync container is not available."
        case .readFailed(let url, let underlying):
            "Could not read \(url.path): \(underlying)"
        case .writeFailed(let url, let underlying):
            "Could not write \(url.path): \(underlying)"
        case .corruptData(let url):
            "\(url.path) is not valid JSON."
        }
    }
}
