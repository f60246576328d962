#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A C error number from a failed system call.
struct Errno: Error, Hashable, Sendable {
    /// The raw `errno` value, such as `ENOENT`.
    var rawValue: Int32

    init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The current thread's `errno`.
    static var current: Errno { Errno(errno) }
}

/// The one place this package calls the file-system part of the C library.
///
/// Every function retries on `EINTR`, turns `-1` into a thrown ``Errno`` and does nothing else,
/// as swift-system's `Syscalls.swift` does; the live implementations build their behaviour on top.
enum Syscalls {
    /// Runs `call` until it stops failing with `EINTR`.
    @inline(__always)
    private static func retrying<T: BinaryInteger>(_ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = Errno.current
            if error.rawValue != EINTR { throw error }
        }
    }

    static func lstat(_ path: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { system_lstat(path, &info) }
        return info
    }

    /// `stat`: a final symbolic link is followed, as `open` follows it.
    static func statFollowingLinks(_ path: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { system_stat(path, &info) }
        return info
    }

    static func fstatat(_ directory: Int32, _ name: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { system_fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    static func fstat(_ descriptor: Int32) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { system_fstat(descriptor, &info) }
        return info
    }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(Errno) -> Int32 {
        try retrying { system_open(path, flags | O_CLOEXEC, mode) }
    }

    static func close(_ descriptor: Int32) {
        _ = system_close(descriptor)
    }

    static func mkdir(_ path: String, _ mode: mode_t) throws(Errno) {
        _ = try retrying { system_mkdir(path, mode) }
    }

    static func rmdir(_ path: String) throws(Errno) {
        _ = try retrying { system_rmdir(path) }
    }

    static func unlink(_ path: String) throws(Errno) {
        _ = try retrying { system_unlink(path) }
    }

    static func rename(_ source: String, _ destination: String) throws(Errno) {
        _ = try retrying { system_rename(source, destination) }
    }

    /// `renameat2(RENAME_NOREPLACE)`; `false` when the C library lacks it or the file system does
    /// not take the flag (EINVAL while both paths are otherwise fine), so the caller falls back.
    static func renameNoReplace(_ source: String, _ destination: String) throws(Errno) -> Bool {
        while true {
            guard let result = system_renameNoReplace(source, destination) else { return false }
            if result == 0 { return true }
            let error = Errno.current
            if error.rawValue == EINTR { continue }
            // Also the answer to moving a folder into itself: the plain rename says so again.
            if error.rawValue == EINVAL { return false }
            throw error
        }
    }

    /// Swaps two names atomically; `false` when the C library lacks the call or the file system
    /// refuses it (EINVAL, ENOSYS, ENOTSUP: FAT and most FUSE file systems), so the caller falls back.
    static func exchange(_ first: String, _ second: String) throws(Errno) -> Bool {
        while true {
            guard let result = system_exchange(first, second) else { return false }
            if result == 0 { return true }
            let error = Errno.current
            if error.rawValue == EINTR { continue }
            if [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(error.rawValue) { return false }
            throw error
        }
    }

    static func link(_ source: String, _ destination: String) throws(Errno) {
        _ = try retrying { system_link(source, destination) }
    }

    static func symlink(_ target: String, _ path: String) throws(Errno) {
        _ = try retrying { system_symlink(target, path) }
    }

    static func readlink(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retrying { system_readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func fsync(_ descriptor: Int32) throws(Errno) {
        _ = try retrying { system_fsync(descriptor) }
    }

    static func chmod(_ path: String, _ mode: mode_t) throws(Errno) {
        _ = try retrying { system_chmod(path, mode) }
    }

    static func fchmod(_ descriptor: Int32, _ mode: mode_t) throws(Errno) {
        _ = try retrying { system_fchmod(descriptor, mode) }
    }

    /// Sets the modification time, leaving the access time alone; a final link is not followed.
    static func setModificationTime(_ path: String, _ time: timespec) throws(Errno) {
        var times = [timespec(tv_sec: 0, tv_nsec: system_timeOmitted), time]
        _ = try retrying { system_utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) }
    }

    static func setTimes(_ descriptor: Int32, access: timespec, modification: timespec) throws(Errno) {
        var times = [access, modification]
        _ = try retrying { system_futimens(descriptor, &times) }
    }

    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { system_read(descriptor, buffer.baseAddress, buffer.count) }
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying { system_write(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// `copy_file_range` (in-kernel, reflinks where the file system can); `nil` when unavailable.
    static func copyFileRange(_ source: Int32, _ destination: Int32, _ count: Int) throws(Errno) -> Int? {
        guard let copy = LinuxExtras.copyFileRange else { return nil }
        return try retrying { copy(source, nil, destination, nil, count, 0) }
    }

    /// `sendfile` between two files; `nil` where the platform has no such call (Apple platforms).
    static func sendfile(_ source: Int32, _ destination: Int32, _ count: Int) throws(Errno) -> Int? {
        while true {
            guard let sent = system_sendfile(destination, source, count) else { return nil }
            if sent >= 0 { return sent }
            let error = Errno.current
            if error.rawValue != EINTR { throw error }
        }
    }

    /// `clonefile`: `true` when the clone was made; `false` where the platform or the file system
    /// cannot clone (then the caller copies the bytes).
    static func cloneFile(_ source: String, _ destination: String) throws(Errno) -> Bool {
        guard let result = system_clonefile(source, destination) else { return false }
        if result == 0 { return true }
        let error = Errno.current
        if [ENOTSUP, EXDEV].contains(error.rawValue) { return false }
        throw error
    }
}
