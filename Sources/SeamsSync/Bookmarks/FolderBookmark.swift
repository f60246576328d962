public import Foundation
public import SeamsCore

/// The Linux bookmark of a folder: its path and its identity (device and inode numbers).
///
/// A folder that was replaced or moved has another identity at the same path, so it reads as
/// stale (``SyncError/staleLocalFolder(_:)``), never as an empty folder whose files were deleted.
///
/// ```swift
/// let bookmark = try FolderBookmark(folder: url, directories: DefaultDirectoryAccessor())
/// try storage.saveBookmark(try bookmark.encoded(), for: FolderBookmark.localFolderKey)
/// ```
public struct FolderBookmark: Hashable, Sendable, Codable {
    /// The bookmark storage key of the local folder `SyncManager` syncs.
    public static let localFolderKey = "seams-sync.local-folder"

    /// The format version.
    public var version = 1
    /// The folder's absolute path.
    public var path: String
    /// The folder's inode number.
    public var fileIdentifier: UInt64
    /// The folder's device number.
    public var volumeIdentifier: UInt64

    /// Records the folder at `folder` as it is now.
    ///
    /// - Parameters:
    ///   - folder: An existing folder.
    ///   - directories: The boundary that reads its metadata.
    /// - Throws: ``SyncError/folderNotAvailable(_:)`` when it is missing or not a folder.
    public init(folder: URL, directories: any DirectoryAccessorProviding) throws(SyncError) {
        guard let metadata = try? directories.metadata(at: folder), metadata.kind == .directory else {
            throw .folderNotAvailable(folder)
        }
        self.path = folder.path
        self.fileIdentifier = metadata.fileIdentifier
        self.volumeIdentifier = metadata.volumeIdentifier
    }

    /// Reads a bookmark saved with ``encoded()``.
    ///
    /// - Parameter data: The saved bytes.
    /// - Throws: ``SyncError/localFolderNotChosen`` when they are not a bookmark.
    public init(data: Data) throws(SyncError) {
        guard let bookmark = try? JSONDecoder().decode(FolderBookmark.self, from: data) else {
            throw .localFolderNotChosen
        }
        self = bookmark
    }

    /// The bytes to save.
    public func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }

    /// The folder, checked to be the one recorded.
    ///
    /// - Parameter directories: The boundary that reads its metadata.
    /// - Returns: The folder's URL.
    /// - Throws: ``SyncError/folderNotAvailable(_:)`` when nothing is there,
    ///   ``SyncError/staleLocalFolder(_:)`` when another item is.
    public func resolve(directories: any DirectoryAccessorProviding) throws(SyncError) -> URL {
        let url = URL(filePath: path, directoryHint: .isDirectory)
        guard let metadata = try? directories.metadata(at: url) else { throw .folderNotAvailable(url) }
        guard metadata.kind == .directory, metadata.fileIdentifier == fileIdentifier,
            metadata.volumeIdentifier == volumeIdentifier
        else { throw .staleLocalFolder(url) }
        return url
    }
}
