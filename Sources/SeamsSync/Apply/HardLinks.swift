import Foundation
import SeamsCore

/// Hard links where the file system has them, and what stands in for them where it does not.
///
/// FAT and exFAT (most USB sticks and SD cards) and some network shares answer `link` with EPERM.
/// A run there keeps every guarantee at some cost: a replaced version is copied into the trash
/// and flushed before its path is replaced, and the lock is placed with a no-replace rename.
enum HardLinks {
    /// Whether `error` is a file system saying it has no hard links (EPERM from `link`; a
    /// permission problem is EACCES).
    static func unsupported(_ error: any Error) -> Bool {
        (error as? CocoaError)?.posixCode == .EPERM
    }

    /// Puts the finished file `temp` at `url` unless something is there: `link` where hard links
    /// exist (`temp` stays), else a no-replace rename (`temp` is gone).
    ///
    /// - Throws: `.fileWriteFileExists` when `url` exists; the boundary's other errors.
    static func place(_ temp: URL, at url: URL, directories: any DirectoryAccessorProviding) throws {
        do {
            try directories.linkItem(at: temp, to: url)
        } catch where unsupported(error) {
            try directories.moveItem(at: temp, to: url, replacingExisting: false)
        }
    }

    /// Keeps the version at `url` under the new name `trash` as well, durably: a hard link, or
    /// where there are none, a copy that is flushed before this returns.
    static func preserve(_ url: URL, as trash: URL, directories: any DirectoryAccessorProviding) throws {
        do {
            try directories.linkItem(at: url, to: trash)
        } catch where unsupported(error) {
            try directories.copyItem(at: url, to: trash)
            try directories.synchronizeFile(at: trash)
        }
    }
}
