import Foundation
import SeamsCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileHandle {
    /// Opens `url` for reading, close-on-exec.
    ///
    /// `FileHandle(forReadingFrom:)` opens without `O_CLOEXEC` on Linux, so a process started
    /// meanwhile by any thread keeps the file open for as long as it lives.
    ///
    /// - Throws: The `CocoaError` of a failed read (`.fileReadNoSuchFile` for ENOENT, and so on).
    static func forReadingCloseOnExec(_ url: URL) throws -> FileHandle {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError.fileSystemError(errno: errno, path: url.path, writing: false) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
