// swift-format-ignore-file: AlwaysUseLowerCamelCase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// File-scope names for the C functions, so `Syscalls`' members of the same name can call them.

func system_lstat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 { lstat(path, info) }
func system_stat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 { stat(path, info) }
func system_fstatat(_ directory: Int32, _ name: String, _ info: UnsafeMutablePointer<stat>, _ flags: Int32) -> Int32 {
    fstatat(directory, name, info, flags)
}
func system_fstat(_ descriptor: Int32, _ info: UnsafeMutablePointer<stat>) -> Int32 { fstat(descriptor, info) }
func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
func system_close(_ descriptor: Int32) -> Int32 { close(descriptor) }
func system_mkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
func system_rmdir(_ path: String) -> Int32 { rmdir(path) }
func system_unlink(_ path: String) -> Int32 { unlink(path) }
func system_rename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
// `linkat` without AT_SYMLINK_FOLLOW: a symbolic link gets a second name itself, on every platform
// (plain `link` follows it on Darwin).
func system_link(_ source: String, _ destination: String) -> Int32 {
    linkat(AT_FDCWD, source, AT_FDCWD, destination, 0)
}
func system_symlink(_ target: String, _ path: String) -> Int32 { symlink(target, path) }
func system_readlink(_ path: String, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
    readlink(path, buffer, size)
}
func system_chmod(_ path: String, _ mode: mode_t) -> Int32 { chmod(path, mode) }
func system_fchmod(_ descriptor: Int32, _ mode: mode_t) -> Int32 { fchmod(descriptor, mode) }
func system_utimensat(_ directory: Int32, _ path: String, _ times: UnsafePointer<timespec>, _ flags: Int32) -> Int32 {
    utimensat(directory, path, times, flags)
}
func system_futimens(_ descriptor: Int32, _ times: UnsafePointer<timespec>) -> Int32 { futimens(descriptor, times) }
func system_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
func system_write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
/// Reads a folder's names with `opendir`/`readdir` and each item's `lstat` with `fstatat` on
/// the open folder, so a listing costs one open per folder.
enum DirectoryReader {
    static func entries(of path: String) throws(Errno) -> [(name: String, info: stat)] {
        try entries(of: path) { name, info, _ in (name, info) }
    }

    /// Each entry made into a `T` as it is read, so no list of `stat` buffers is built.
    ///
    /// The `stat` is read with the name's own bytes. `make` gets the name as a `String` and whether
    /// that string is the name: a name that is not valid UTF-8 (Linux allows any bytes but `/` and
    /// NUL) comes with each bad byte replaced by U+FFFD, and cannot name the item again.
    static func entries<T>(of path: String, _ make: (String, stat, Bool) -> T) throws(Errno) -> [T] {
        guard let stream = opendir(path) else { throw Errno.current }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var result: [T] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw Errno.current }
                break
            }
            let dots = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw[0] == 0x2E && (raw[1] == 0 || (raw[1] == 0x2E && raw[2] == 0))
            }
            if dots { continue }  // `.` and `..`: not read
            var info = stat()
            let (name, valid, status) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: CChar.self).baseAddress!
                let valid = String(validatingCString: bytes)
                return (
                    valid ?? String(cString: bytes), valid != nil,
                    fstatat(descriptor, bytes, &info, AT_SYMLINK_NOFOLLOW)
                )
            }
            if status != 0 {
                if errno == ENOENT { continue }  // removed while we listed
                throw Errno.current
            }
            result.append(make(name, info, valid))
        }
        return result
    }
}
