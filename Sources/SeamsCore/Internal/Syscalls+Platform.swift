// swift-format-ignore-file: AlwaysUseLowerCamelCase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Every difference between the platforms the live file-system code meets, in one place. Linux is
// built and tested; the Darwin branches are written against Apple's documented names and are not
// built in CI (no Apple machine here), so each stays a line or two.

extension stat {
    /// The modification time: `st_mtim` in glibc, `st_mtimespec` on Apple platforms.
    var modificationTime: timespec {
        #if canImport(Darwin)
            st_mtimespec
        #else
            st_mtim
        #endif
    }

    /// The access time: `st_atim` in glibc, `st_atimespec` on Apple platforms.
    var accessTime: timespec {
        #if canImport(Darwin)
            st_atimespec
        #else
            st_atim
        #endif
    }

    /// The device, as an unsigned number (`dev_t` is signed 32-bit on Apple platforms).
    var deviceIdentifier: UInt64 {
        UInt64(truncatingIfNeeded: st_dev)
    }
}

/// The `tv_nsec` that tells `utimensat` to leave a time alone: `UTIME_OMIT`, which is
/// `(1 << 30) - 2` on Linux and `-2` on Apple platforms.
let system_timeOmitted: Int = {
    #if canImport(Darwin)
        -2
    #else
        (1 << 30) - 2
    #endif
}()

/// A flush that reaches the disk: `fsync` on Linux; on Apple platforms `fsync` leaves the data in
/// the drive's cache, so `fcntl(F_FULLFSYNC)` first, and `fsync` where the file system refuses it.
func system_fsync(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
    #endif
    return fsync(descriptor)
}

/// A rename that refuses an existing destination (EEXIST): `renameat2(RENAME_NOREPLACE)` on
/// Linux, looked up by name; `renamex_np(RENAME_EXCL)` on Apple platforms. `nil` when the C
/// library has no such call.
func system_renameNoReplace(_ source: String, _ destination: String) -> Int32? {
    #if canImport(Darwin)
        return renamex_np(source, destination, UInt32(RENAME_EXCL))
    #else
        guard let renameat2 = LinuxExtras.renameat2 else { return nil }
        let noReplace: UInt32 = 1  // RENAME_NOREPLACE
        return renameat2(AT_FDCWD, source, AT_FDCWD, destination, noReplace)
    #endif
}

/// Swaps two names atomically: `renameat2(RENAME_EXCHANGE)` on Linux, looked up by name;
/// `renamex_np(RENAME_SWAP)` on Apple platforms. `nil` when the C library has no such call.
func system_exchange(_ first: String, _ second: String) -> Int32? {
    #if canImport(Darwin)
        return renamex_np(first, second, UInt32(RENAME_SWAP))
    #else
        guard let renameat2 = LinuxExtras.renameat2 else { return nil }
        let exchange: UInt32 = 2  // RENAME_EXCHANGE
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, exchange)
    #endif
}

/// A copy-on-write clone of a file with its mode and dates (`clonefile`, Apple platforms only;
/// `nil` elsewhere, where `copy_file_range` shares extents itself on file systems that can).
func system_clonefile(_ source: String, _ destination: String) -> Int32? {
    #if canImport(Darwin)
        return clonefile(source, destination, UInt32(CLONE_NOFOLLOW))
    #else
        return nil
    #endif
}

/// `sendfile` from one file to another (Linux only; Apple's `sendfile` sends to sockets only).
func system_sendfile(_ destination: Int32, _ source: Int32, _ count: Int) -> Int? {
    #if os(Linux)
        return sendfile(destination, source, nil, count)
    #else
        return nil
    #endif
}

/// Linux calls that the C library has but Swift's module map hides (they need `_GNU_SOURCE`),
/// looked up once by name; all `nil` on other platforms.
enum LinuxExtras {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    typealias CopyFileRange =
        @convention(c) (
            Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
        ) -> Int
    typealias SyncFS = @convention(c) (Int32) -> Int32

    static let renameat2: RenameAt2? = symbol("renameat2", as: RenameAt2.self)
    static let copyFileRange: CopyFileRange? = symbol("copy_file_range", as: CopyFileRange.self)
    static let syncfs: SyncFS? = symbol("syncfs", as: SyncFS.self)
    typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>?) -> Int32
    typealias GetThreadName = @convention(c) (pthread_t, UnsafeMutablePointer<CChar>?, Int) -> Int32
    static let setThreadName: SetThreadName? = symbol("pthread_setname_np", as: SetThreadName.self)
    static let getThreadName: GetThreadName? = symbol("pthread_getname_np", as: GetThreadName.self)

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        #if os(Linux)
            guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(pointer, to: type)
        #else
            return nil
        #endif
    }
}

/// The calling thread's name as the system keeps it (debuggers, crash logs, `/proc`), at most
/// 15 bytes on Linux; `Thread.name` is not passed on to the system there.
package enum SystemThreadName {
    /// Names the calling thread.
    package static func set(_ name: String) {
        #if os(Linux)
            _ = LinuxExtras.setThreadName?(pthread_self(), name)
        #elseif canImport(Darwin)
            _ = pthread_setname_np(name)
        #endif
    }

    /// The calling thread's name, or `nil` where it cannot be read.
    package static func current() -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        #if os(Linux)
            guard let get = LinuxExtras.getThreadName, get(pthread_self(), &buffer, buffer.count) == 0 else {
                return nil
            }
        #elseif canImport(Darwin)
            guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return nil }
        #endif
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
