public import Foundation

/// Works on the tree of files and folders: list, inspect, create, remove, move, copy, link, flush.
///
/// It is the boundary a sync engine needs beside ``FileAccessorProviding``, shaped so the engine
/// makes few calls: a listing returns each entry's metadata in the same call, and a copy is one
/// call the live side does with the kernel's fast paths.
///
/// Production code takes the live `DefaultDirectoryAccessor`; tests inject `InMemoryFileSystem`
/// (a fake with real semantics and a power-loss model) or a fault-injecting wrapper from
/// `SeamsTesting`.
///
/// Errors are Foundation's: a `CocoaError` with the `POSIXError` in `NSUnderlyingErrorKey`, the
/// codes `FileManager` uses for the same failure (see `CocoaError.fileSystemError(errno:path:writing:)`).
/// No call creates a missing parent folder unless asked, and none follows a final symbolic link.
public protocol DirectoryAccessorProviding: Sendable {
    /// The items of the folder at `url`, each with its metadata, sorted by name.
    ///
    /// - Parameter url: A folder.
    /// - Returns: One entry per item, `.` and `..` excluded.
    /// - Throws: `.fileReadNoSuchFile` (ENOENT) when missing, `.fileReadUnknown` (ENOTDIR) when
    ///   it is a file, `.fileReadNoPermission` (EACCES).
    func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry]

    /// The metadata of the item at `url`; a final symbolic link is described, not followed.
    ///
    /// - Parameter url: Any path.
    /// - Returns: The item's metadata.
    /// - Throws: `.fileReadNoSuchFile` (ENOENT) when nothing is there.
    func metadata(at url: URL) throws -> FileMetadata

    /// Creates a folder.
    ///
    /// - Parameters:
    ///   - url: The new folder.
    ///   - withIntermediateDirectories: Whether missing parents are created too; when `true`, an
    ///     existing folder at `url` is not an error.
    /// - Throws: `.fileWriteFileExists` (EEXIST), `.fileNoSuchFile` (ENOENT) for a missing parent,
    ///   `.fileWriteUnknown` (ENOTDIR) through a file.
    func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws

    /// Removes a file, a link, or a folder.
    ///
    /// - Parameters:
    ///   - url: The item to remove.
    ///   - recursively: Whether a non-empty folder is removed with everything in it; when `false`
    ///     a non-empty folder is refused.
    /// - Throws: `.fileNoSuchFile` (ENOENT) when missing, `.fileWriteUnknown` (ENOTEMPTY) for a
    ///   non-empty folder removed without `recursively`, `.fileWriteNoPermission` (EACCES).
    func removeItem(at url: URL, recursively: Bool) throws

    /// Renames an item, atomically when both paths are on one volume.
    ///
    /// - Parameters:
    ///   - source: The item to move.
    ///   - destination: Its new path; the parent must exist.
    ///   - replacingExisting: Whether an existing file at `destination` is atomically replaced;
    ///     when `false` an existing item is refused.
    /// - Throws: `.fileWriteFileExists` (EEXIST) when refusing, `.fileNoSuchFile` (ENOENT) when
    ///   the source or the destination's parent is missing.
    func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws

    /// Copies a file, or a folder with everything in it, to a new path; the copy shares nothing
    /// with the original. Permissions and modification date are kept. A symbolic link is copied
    /// as a link with the same target text, never followed (at the top or inside a folder).
    ///
    /// - Parameters:
    ///   - source: The item to copy.
    ///   - destination: A path where nothing exists; the parent must exist.
    /// - Throws: `.fileWriteFileExists` (EEXIST) when the destination exists, `.fileReadNoSuchFile`
    ///   (ENOENT) when the source is missing (as `FileManager.copyItem` reports it), `.fileNoSuchFile`
    ///   (ENOENT) when the destination's parent is missing, `.fileWriteUnknown` (EINVAL) for a
    ///   folder copied into itself.
    func copyItem(at source: URL, to destination: URL) throws

    /// ``copyItem(at:to:)``, then the source's metadata and the copy's, read once the copy is made:
    /// what a caller needs to check that what it copied is the item it expected, unchanged while
    /// it was copied.
    ///
    /// The default implementation is exactly that: ``copyItem(at:to:)``, then
    /// ``metadata(at:)`` of the destination, then of the source. A live file system may read both
    /// from the files it holds open for a regular file's copy, with no lookup by path (the source
    /// read is then the file that was copied, even if another took its name since).
    ///
    /// - Parameters:
    ///   - source: The item to copy.
    ///   - destination: A path where nothing exists; the parent must exist.
    /// - Returns: The source's metadata after the copy, and the copy's.
    /// - Throws: What ``copyItem(at:to:)`` and ``metadata(at:)`` throw.
    func copyItemReadingMetadata(at source: URL, to destination: URL) throws -> (
        source: FileMetadata, copy: FileMetadata
    )

    /// Gives a file a second name (a hard link): both names share one content.
    ///
    /// - Parameters:
    ///   - source: An existing file.
    ///   - destination: The new name; nothing may exist there.
    /// - Throws: `.fileWriteFileExists` (EEXIST), `.fileNoSuchFile` (ENOENT).
    func linkItem(at source: URL, to destination: URL) throws

    /// The target text of the symbolic link at `url`, exactly as stored: relative or absolute,
    /// existing or not, never resolved (`readlink`).
    ///
    /// - Parameter url: A symbolic link; the final link is read, not followed.
    /// - Returns: The target string.
    /// - Throws: `.fileReadNoSuchFile` (ENOENT) when nothing is there, `.fileReadUnknown` (EINVAL)
    ///   when the item is not a link, as `FileManager.destinationOfSymbolicLink(atPath:)` reports them.
    func destinationOfSymbolicLink(at url: URL) throws -> String

    /// Creates a symbolic link whose target is `destination`, stored verbatim (`symlink`).
    ///
    /// - Parameters:
    ///   - url: The new link; nothing may exist there, and its parent must exist.
    ///   - destination: The target text; it need not exist and is never resolved.
    /// - Throws: `.fileWriteFileExists` (EEXIST) when a name exists, `.fileNoSuchFile` (ENOENT)
    ///   when the parent is missing or `destination` is empty, `.fileWriteNoPermission` (EPERM)
    ///   or `.fileWriteUnknown` with ENOTSUP on a file system without links (FAT, exFAT).
    func createSymbolicLink(at url: URL, withDestination destination: String) throws

    /// Flushes a file's content and metadata to stable storage (`fsync`).
    ///
    /// - Parameter url: A file.
    /// - Throws: `.fileReadNoSuchFile` (ENOENT) when missing; the write codes when the device fails.
    func synchronizeFile(at url: URL) throws

    /// Flushes a folder's entries to stable storage (`fsync` on the folder), so that renames
    /// and new names inside it survive a power cut.
    ///
    /// - Parameter url: A folder.
    /// - Throws: `.fileReadNoSuchFile` (ENOENT) when missing.
    func synchronizeDirectory(at url: URL) throws

    /// Flushes many items as one batch: every file's content and every folder's entries are
    /// durable when it returns, as if each had been passed to ``synchronizeFile(at:)`` or
    /// ``synchronizeDirectory(at:)``.
    ///
    /// The default implementation does exactly that, one item after another. The live accessor
    /// flushes each file system once (`syncfs` on Linux) after checking every item, which costs
    /// one device flush instead of one per item: a sync that writes a hundred files waits for the
    /// disk twice, not two hundred times.
    ///
    /// ```swift
    /// try directories.synchronize(files: temporaryCopies, directories: [])
    /// ```
    ///
    /// - Parameters:
    ///   - files: Files whose content must be durable.
    ///   - directories: Folders whose entries must be durable.
    /// - Throws: What the one-item calls throw for the first item that fails; a missing item is
    ///   `.fileReadNoSuchFile` (ENOENT).
    func synchronize(files: [URL], directories: [URL]) throws

    /// Sets an item's POSIX permission bits.
    ///
    /// - Parameters:
    ///   - permissions: The bits, such as `0o644`.
    ///   - url: The item.
    /// - Throws: `.fileNoSuchFile` (ENOENT) when missing, `.fileWriteNoPermission` (EPERM).
    func setPermissions(_ permissions: UInt16, at url: URL) throws

    /// Sets an item's modification date.
    ///
    /// - Parameters:
    ///   - date: The new date.
    ///   - url: The item.
    /// - Throws: `.fileNoSuchFile` (ENOENT) when missing.
    func setModificationDate(_ date: Date, at url: URL) throws

    /// Swaps the items at two paths in one atomic step, where the platform and the file system
    /// can (`renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np(RENAME_SWAP)` on Apple platforms):
    /// no moment exists at which either name is missing or names something else.
    ///
    /// - Parameters:
    ///   - first: An existing item.
    ///   - second: Another existing item.
    /// - Returns: `true` when swapped; `false` when this implementation or file system cannot
    ///   swap (nothing changed; the caller falls back to a plain rename).
    /// - Throws: `.fileNoSuchFile` (ENOENT) when either is missing; the rename codes otherwise.
    func exchangeItems(at first: URL, and second: URL) throws -> Bool
}

extension DirectoryAccessorProviding {
    /// Has no links: throws `.fileReadUnknown` with ENOTSUP. Accessors written before links were
    /// requirements keep compiling.
    public func destinationOfSymbolicLink(at url: URL) throws -> String {
        throw CocoaError.fileSystemError(errno: ENOTSUP, path: url.path, writing: false)
    }

    /// Cannot make links: throws `.fileWriteUnknown` with ENOTSUP, as on a file system without them.
    public func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        throw CocoaError.fileSystemError(errno: ENOTSUP, path: url.path, writing: true)
    }

    /// Cannot swap: answers `false` and changes nothing, so callers use their plain-rename path.
    public func exchangeItems(at first: URL, and second: URL) throws -> Bool {
        false
    }

    /// ``copyItem(at:to:)``, then ``metadata(at:)`` of the copy, then of the source.
    public func copyItemReadingMetadata(at source: URL, to destination: URL) throws -> (
        source: FileMetadata, copy: FileMetadata
    ) {
        try copyItem(at: source, to: destination)
        let copy = try metadata(at: destination)
        return (try metadata(at: source), copy)
    }

    /// Flushes each file, then each folder, one call per item.
    public func synchronize(files: [URL], directories: [URL]) throws {
        for file in files { try synchronizeFile(at: file) }
        for folder in directories { try synchronizeDirectory(at: folder) }
    }
}
