public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DefaultFileAccessor {
    /// Creates the file with `open(O_CREAT | O_EXCL)`, writes `data`, flushes it, and closes it. A
    /// failed write removes the half-made file.
    ///
    /// - Parameters:
    ///   - data: The content.
    ///   - url: A file URL whose parent folder exists.
    /// - Throws: `CocoaError` `.fileWriteFileExists` (EEXIST) when anything is at `url`, and the
    ///   codes of ``FileAccessorProviding/write(_:to:)`` otherwise.
    public func createFile(_ data: Data, at url: URL) throws {
        var given = false
        try makeNewFile(at: url, flush: true) {
            defer { given = true }
            return given ? nil : data
        }
    }

    /// Creates the file with `open(O_CREAT | O_EXCL)` and writes each piece as `nextPiece`
    /// returns it; a failure removes the half-made file. Not flushed.
    ///
    /// - Parameters:
    ///   - url: A file URL whose parent folder exists and where nothing is.
    ///   - nextPiece: The next piece, or `nil` after the last.
    /// - Throws: `CocoaError` `.fileWriteFileExists` (EEXIST) when anything is at `url`, the codes
    ///   of ``FileAccessorProviding/write(_:to:)`` for a failed write, and what `nextPiece` throws.
    public func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        try makeNewFile(at: url, flush: false, pieces: nextPiece)
    }

    /// Both creates: `open(O_CREAT | O_EXCL)`, each piece written whole, an `fsync` when asked,
    /// and the half-made file removed on any failure.
    private func makeNewFile(at url: URL, flush: Bool, pieces nextPiece: () throws -> Data?) throws {
        let path = url.path
        let descriptor: Int32
        do {
            descriptor = try Syscalls.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        } catch {
            throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: true)
        }
        var complete = false
        defer {
            Syscalls.close(descriptor)
            if !complete { try? Syscalls.unlink(path) }
        }
        while let piece = try nextPiece() {
            do throws(Errno) {
                try Self.writeAll(piece, to: descriptor)
            } catch {
                throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: true)
            }
        }
        if flush {
            do {
                try Syscalls.fsync(descriptor)
            } catch {
                throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: true)
            }
        }
        complete = true
    }

    /// Writes all of `data` at the descriptor's offset, however many `write` calls it takes.
    static func writeAll(_ data: Data, to descriptor: Int32) throws(Errno) {
        let failure = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Errno? in
            do throws(Errno) {
                var written = 0
                while written < bytes.count {
                    written += try Syscalls.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[written...]))
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// `true`: the URLs are this machine's paths.
    public var usesThisMachinesFileSystem: Bool { true }
}
