import Foundation
import SeamsCore

/// Hard links where the file system has them, and what stands in for them where it does not.
///
/// FAT and exFAT (most USB sticks and SD cards) and some network shares answer `link` with EPERM.
/// A run there keeps every guarantee at some cost: a replaced version is copied into the trash
/// and flushed before its path is replaced, and the lock is placed with an exclusive create.
enum HardLinks {
    /// Whether `error` is a file system saying it has no hard links (EPERM from `link`; a
    /// permission problem is EACCES).
    static func unsupported(_ error: any Error) -> Bool {
        (error as? CocoaError)?.posixCode == .EPERM
    }

    /// Puts the finished file `temp`, which holds `data`, at `url` unless something is there:
    /// `link` where hard links exist (whole content at once), else an exclusive create of `data`
    /// (`O_CREAT | O_EXCL`, atomic on FAT and exFAT too, where a no-replace rename is not).
    /// `temp` stays either way.
    ///
    /// - Throws: `.fileWriteFileExists` when `url` exists; the boundary's other errors.
    static func place(
        _ temp: URL, holding data: Data, at url: URL, directories: any DirectoryAccessorProviding,
        files: any FileAccessorProviding
    ) throws {
        do {
            try directories.linkItem(at: temp, to: url)
        } catch let error where unsupported(error) {
            try files.createFile(data, at: url)
        }
    }

    /// Keeps the version at `url` under the new name `trash` as well, durably: a hard link, or
    /// where there are none, a copy that is flushed before this returns.
    /// A symbolic link is copied as a link and not flushed (opening it would follow it): its target
    /// text is written with it, durable with the trash folder's flush.
    static func preserve(_ url: URL, as trash: URL, kind: FileMetadata.Kind = .file, in replica: any Replica) throws {
        do {
            try replica.directories.linkItem(at: url, to: trash)
        } catch let error where unsupported(error) {
            try replica.directories.copyItem(at: url, to: trash)
            if kind != .symbolicLink { try replica.flush(file: trash) }
        }
    }
}
