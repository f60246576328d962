public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DefaultFileAccessor {
    /// The size of one chunk ``contentsEqual(_:_:)`` reads from each file.
    static let compareChunk = 1 << 20

    /// Compares two files a megabyte at a time: lengths first, then chunk by chunk, stopping at
    /// the first difference. Memory stays at two chunks whatever the files' size.
    ///
    /// - Parameters:
    ///   - first: A file URL.
    ///   - second: Another file URL.
    /// - Returns: `true` when both hold the same bytes.
    /// - Throws: Foundation's `CocoaError`, the one ``read(from:)`` throws for that file.
    public func contentsEqual(_ first: URL, _ second: URL) throws -> Bool {
        let a = try openForCompare(first)
        defer { Syscalls.close(a) }
        let b = try openForCompare(second)
        defer { Syscalls.close(b) }
        do {
            guard try Syscalls.fstat(a).st_size == Syscalls.fstat(b).st_size else { return false }
            let left = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.compareChunk, alignment: 16)
            defer { left.deallocate() }
            let right = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.compareChunk, alignment: 16)
            defer { right.deallocate() }
            while true {
                let count = try fill(left, from: a)
                guard try fill(right, from: b) == count else { return false }  // one changed meanwhile
                if count == 0 { return true }
                if memcmp(left.baseAddress!, right.baseAddress!, count) != 0 { return false }
            }
        } catch {
            throw CocoaError.fileSystemError(errno: error.rawValue, path: first.path, writing: false)
        }
    }

    /// Opens a file to read; where that fails, the error is the one `read(from:)` throws.
    private func openForCompare(_ url: URL) throws -> Int32 {
        // `Errno` is typed below; Foundation's errors from `read(from:)` pass through as they are.
        do {
            let descriptor = try Syscalls.open(url.path, O_RDONLY)
            if let info = try? Syscalls.fstat(descriptor), info.st_mode & S_IFMT == S_IFDIR {
                Syscalls.close(descriptor)
                _ = try read(from: url)  // a folder: Foundation's own error for reading one
                throw Errno(EISDIR)
            }
            return descriptor
        } catch let error as Errno {
            _ = try read(from: url)  // throws Foundation's own error for this path
            throw CocoaError.fileSystemError(errno: error.rawValue, path: url.path, writing: false)
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the count.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32) throws(Errno) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try Syscalls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
