public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live ``DirectoryAccessorProviding``, on POSIX system calls.
///
/// A listing is one `opendir`/`readdir` pass with an `fstatat` per entry; a copy runs in the
/// kernel (`copy_file_range`, then `sendfile`, then `read`/`write`); the refusing move is
/// `renameat2(RENAME_NOREPLACE)`. Errors are the `CocoaError` values `FileManager` throws for the
/// same failure, with the `POSIXError` in `NSUnderlyingErrorKey`.
///
/// ```swift
/// let directories: any DirectoryAccessorProviding = .live
/// for entry in try directories.contentsOfDirectory(at: folder) where entry.metadata.kind == .file {
///     print(entry.name, entry.metadata.size)
/// }
/// ```
public struct DefaultDirectoryAccessor: DirectoryAccessorProviding {
    /// Creates the live accessor.
    public init() {}

    /// Lists the folder with one `opendir` and an `fstatat` per entry, sorted by the names' bytes.
    ///
    /// A name that is not valid UTF-8 is listed with each bad byte replaced by U+FFFD and kind
    /// ``FileMetadata/Kind/other``: the item is there, but that string does not name it.
    public func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] {
        let path = url.path
        do {
            let entries = try DirectoryReader.entries(of: path) { name, info, nameIsUTF8 in
                var metadata = Self.metadata(from: info)
                // Its String is not its name (bad bytes became U+FFFD): nothing can reach it by that.
                if !nameIsUTF8 { metadata.kind = .other }
                return DirectoryEntry(name: name, metadata: metadata)
            }
            return Self.sortedByBytes(entries)
        } catch {
            throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: false)
        }
    }

    /// `entries` sorted by their names' UTF-8 bytes, as ``bytesPrecede(_:_:)`` orders them.
    ///
    /// Most names of a folder differ within their first eight bytes, so each name's first eight
    /// bytes are read once into an integer that orders them, and two names are compared byte by
    /// byte only when those are the same: a listing's sort was 7% of a no-change run's time when
    /// every comparison called `memcmp`.
    static func sortedByBytes(_ entries: [DirectoryEntry]) -> [DirectoryEntry] {
        var keyed = entries.map { (key: prefixKey($0.name), entry: $0) }
        keyed.sort { a, b in a.key != b.key ? a.key < b.key : bytesPrecede(a.entry.name, b.entry.name) }
        return keyed.map(\.entry)
    }

    /// The first eight UTF-8 bytes of `name` as a big-endian integer, zero-padded: a name that
    /// is a proper prefix of another gets a key no greater than the other's (names hold no NUL),
    /// so keys that differ order two names as their bytes do.
    static func prefixKey(_ name: String) -> UInt64 {
        var key: UInt64 = 0
        var count = 0
        for byte in name.utf8 {
            key = key << 8 | UInt64(byte)
            count += 1
            if count == 8 { return key }
        }
        return key << (8 * UInt64(8 - count))
    }

    /// Whether `lhs` sorts before `rhs` by their UTF-8 bytes (`memcmp`, the shorter first).
    static func bytesPrecede(_ lhs: String, _ rhs: String) -> Bool {
        let order = lhs.utf8.withContiguousStorageIfAvailable { a in
            rhs.utf8.withContiguousStorageIfAvailable { b in
                let common = min(a.count, b.count)
                let result = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return result != 0 ? result < 0 : a.count < b.count
            }
        }
        return (order ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// `lstat`.
    public func metadata(at url: URL) throws -> FileMetadata {
        try Self.metadata(from: Self.run(url.path, writing: false) { path throws(Errno) in try Syscalls.lstat(path) })
    }

    /// `mkdir`, walking up for missing parents when asked.
    public func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        let path = url.path
        try Self.run(path, writing: true) { path throws(Errno) in
            try Self.makeDirectory(path, intermediates: withIntermediateDirectories)
        }
    }

    /// `unlink`, `rmdir`, or a depth-first walk when `recursively`.
    public func removeItem(at url: URL, recursively: Bool) throws {
        try Self.run(url.path, writing: true) { path throws(Errno) in
            try Self.remove(path, recursively: recursively)
        }
    }

    /// `rename`, or `renameat2(RENAME_NOREPLACE)` when refusing an existing destination.
    ///
    /// Where the C library lacks `renameat2` or the file system refuses its flag (EINVAL from FUSE
    /// file systems such as exFAT), an existing destination is refused by a check just before a
    /// plain `rename`: not atomic against a second process creating it in between.
    public func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        let from = source.path
        let to = destination.path
        do throws(Errno) {
            if replacingExisting {
                try Syscalls.rename(from, to)
            } else if try !Syscalls.renameNoReplace(from, to) {
                _ = try Syscalls.lstat(from)
                if Self.exists(to) { throw Errno(EEXIST) }
                try Syscalls.rename(from, to)
            }
        } catch {
            throw Self.moveError(error, source: from, destination: to)
        }
    }

    /// A new tree with the same bytes, permissions and modification dates: `copy_file_range`
    /// (else `sendfile`, else reads and writes) per file, `clonefile` where Apple's volumes can.
    public func copyItem(at source: URL, to destination: URL) throws {
        let from = source.path
        let to = destination.path
        do {
            try Self.copyTree(from, to)
        } catch {
            throw Self.copyError(error, source: from, destination: to)
        }
    }

    /// ``copyItem(at:to:)`` with the metadata read from the open files where the source is a
    /// regular file: it is opened (a link is never followed), copied into a new file made with
    /// `O_EXCL`, and both are read with `fstat` before they are closed, so no path is looked up
    /// again. Anything else, and every file on Apple platforms (where `clonefile` takes paths), is
    /// copied by ``copyItem(at:to:)`` and read by path.
    public func copyItemReadingMetadata(at source: URL, to destination: URL) throws -> (
        source: FileMetadata, copy: FileMetadata
    ) {
        let from = source.path
        let to = destination.path
        do {
            if let (source, copy) = try Self.copyRegularFile(from, to) {
                return (Self.metadata(from: source), Self.metadata(from: copy))
            }
        } catch {
            throw Self.copyError(error, source: from, destination: to)
        }
        try copyItem(at: source, to: destination)
        let copy = try metadata(at: destination)
        return (try metadata(at: source), copy)
    }

    /// A failed copy's error as `FileManager.copyItem` reports it: a missing source as a read
    /// error (260), the rest as a move's.
    private static func copyError(_ error: Errno, source: String, destination: String) -> CocoaError {
        if error.rawValue == ENOENT && !exists(source) {
            return CocoaError.fileSystemError(errno: ENOENT, path: source, writing: false)
        }
        return moveError(error, source: source, destination: destination)
    }

    /// `linkat` without `AT_SYMLINK_FOLLOW`: a symbolic link is linked itself, not its target.
    public func linkItem(at source: URL, to destination: URL) throws {
        let from = source.path
        let to = destination.path
        do {
            try Syscalls.link(from, to)
        } catch {
            throw Self.moveError(error, source: from, destination: to)
        }
    }

    /// The target string of the symbolic link at `url`, verbatim and not resolved (`readlink`).
    ///
    /// - Parameter url: A symbolic link; a final link is read, never followed.
    /// - Returns: The target exactly as stored, relative or absolute, existing or not.
    /// - Throws: `.fileReadNoSuchFile` (ENOENT) when missing, `.fileReadUnknown` (EINVAL) when the
    ///   item is not a link, as `FileManager.destinationOfSymbolicLink(atPath:)` reports them.
    public func destinationOfSymbolicLink(at url: URL) throws -> String {
        try Self.run(url.path, writing: false) { path throws(Errno) in try Syscalls.readlink(path) }
    }

    /// Creates a symbolic link at `url` whose target is `destination`, stored verbatim (`symlink`).
    ///
    /// - Parameters:
    ///   - url: The new link; nothing may exist there, and the parent must exist.
    ///   - destination: The target string; it need not exist and is never resolved.
    /// - Throws: `.fileWriteFileExists` (EEXIST) when a name exists, `.fileNoSuchFile` (ENOENT)
    ///   when the parent is missing, as `FileManager.createSymbolicLink` reports them.
    public func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        try Self.run(url.path, writing: true) { path throws(Errno) in try Syscalls.symlink(destination, path) }
    }

    /// `open` and `fsync`.
    public func synchronizeFile(at url: URL) throws {
        try Self.flush(url.path, flags: O_RDONLY)
    }

    /// `open(O_DIRECTORY)` and `fsync`.
    public func synchronizeDirectory(at url: URL) throws {
        try Self.flush(url.path, flags: O_RDONLY | O_DIRECTORY)
    }

    /// Looks at every item (`stat`: a missing one throws as ``synchronizeFile(at:)`` would, a
    /// folder that is not one throws ENOTDIR), then one `syncfs` per file system they are on,
    /// through a descriptor of the first item met there; `fsync` per item where `syncfs` is
    /// unavailable.
    public func synchronize(files: [URL], directories: [URL]) throws {
        guard let syncfs = LinuxExtras.syncfs else {
            for file in files { try synchronizeFile(at: file) }
            for folder in directories { try synchronizeDirectory(at: folder) }
            return
        }
        // One descriptor per file system, and no other: a batch of thousands of files must not
        // run into the open-file limit, nor pay an open and a close for each.
        var devices: [UInt64: (descriptor: Int32, path: String)] = [:]
        defer { for device in devices.values { Syscalls.close(device.descriptor) } }
        let items = files.map { ($0.path, O_RDONLY) } + directories.map { ($0.path, O_RDONLY | O_DIRECTORY) }
        for (path, flags) in items {
            let device = try Self.run(path, writing: false) { path throws(Errno) in
                let info = try Syscalls.statFollowingLinks(path)
                if flags & O_DIRECTORY != 0, info.st_mode & S_IFMT != S_IFDIR { throw Errno(ENOTDIR) }
                return info.deviceIdentifier
            }
            if devices[device] == nil {
                let descriptor = try Self.run(path, writing: false) { path throws(Errno) in
                    try Syscalls.open(path, flags)
                }
                devices[device] = (descriptor, path)
            }
        }
        for (descriptor, path) in devices.values {
            try Self.run(path, writing: true) { _ throws(Errno) in
                if syncfs(descriptor) != 0 { throw Errno.current }
            }
        }
    }

    /// `chmod`.
    public func setPermissions(_ permissions: UInt16, at url: URL) throws {
        try Self.run(url.path, writing: true) { path throws(Errno) in
            try Syscalls.chmod(path, mode_t(permissions))
        }
    }

    /// `utimensat`, with nanosecond precision, not following a final link.
    public func setModificationDate(_ date: Date, at url: URL) throws {
        let (seconds, nanoseconds) = FileTimestamp.split(date)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
        try Self.run(url.path, writing: true) { path throws(Errno) in
            try Syscalls.setModificationTime(path, time)
        }
    }

    // MARK: - Helpers

    static func run<T>(_ path: String, writing: Bool, _ body: (String) throws(Errno) -> T) throws -> T {
        do {
            return try body(path)
        } catch {
            throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: writing)
        }
    }

    /// Names the path Foundation would: the source when it is missing, else the destination.
    static func moveError(_ error: Errno, source: String, destination: String) -> CocoaError {
        let sourceMissing = error.rawValue == ENOENT && !exists(source)
        return CocoaError.fileSystemError(
            errno: error.rawValue, path: sourceMissing ? source : destination, writing: true)
    }

    static func exists(_ path: String) -> Bool {
        do {
            _ = try Syscalls.lstat(path)
            return true
        } catch {
            return false
        }
    }

    static func flush(_ path: String, flags: Int32) throws {
        let descriptor = try run(path, writing: false) { path throws(Errno) in try Syscalls.open(path, flags) }
        defer { Syscalls.close(descriptor) }
        try run(path, writing: true) { _ throws(Errno) in try Syscalls.fsync(descriptor) }
    }

    static func metadata(from info: stat) -> FileMetadata {
        let kind: FileMetadata.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return FileMetadata(
            kind: kind,
            size: kind == .directory ? 0 : Int64(info.st_size),
            modificationDate: FileTimestamp.date(
                seconds: Int64(info.modificationTime.tv_sec), nanoseconds: Int64(info.modificationTime.tv_nsec)),
            permissions: UInt16(info.st_mode & 0o7777),
            fileIdentifier: UInt64(info.st_ino),
            volumeIdentifier: info.deviceIdentifier,
            linkCount: Int(info.st_nlink)
        )
    }
}

extension DirectoryAccessorProviding where Self == DefaultDirectoryAccessor {
    /// The live accessor on the real file system.
    ///
    /// ```swift
    /// let engine = Engine(directories: .live)
    /// ```
    public static var live: DefaultDirectoryAccessor { DefaultDirectoryAccessor() }
}
