public import Foundation

extension DefaultDirectoryAccessor {
    /// Swaps two items with `renameat2(RENAME_EXCHANGE)` (Linux) or `renamex_np(RENAME_SWAP)`
    /// (Apple platforms); `false` where the C library or the file system cannot (FAT, exFAT and
    /// most FUSE file systems answer EINVAL), having changed nothing.
    ///
    /// - Parameters:
    ///   - first: An existing item.
    ///   - second: Another existing item.
    /// - Returns: Whether the two were swapped.
    /// - Throws: The codes of ``moveItem(at:to:replacingExisting:)``, ENOENT when either is missing.
    public func exchangeItems(at first: URL, and second: URL) throws -> Bool {
        do throws(Errno) {
            return try Syscalls.exchange(first.path, second.path)
        } catch {
            throw Self.moveError(error, source: first.path, destination: second.path)
        }
    }
}
