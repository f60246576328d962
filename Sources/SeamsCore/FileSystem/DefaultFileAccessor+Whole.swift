#if !canImport(Darwin)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Whole-file reads and atomic writes as swift-foundation makes them on Linux, call for call and
    /// error for error, with every descriptor opened `O_CLOEXEC`.
    ///
    /// Foundation opens both without it. A child process started by another thread while such a file
    /// is open inherits the descriptor and holds the file open until it exits: the file's space is
    /// not freed when it is replaced, and a FUSE driver that frees a replaced file at once (exfat-fuse
    /// does, and aborts when the file is still open) dies.
    extension DefaultFileAccessor {
        static func readWhole(_ path: String) throws -> Data {
            let descriptor: Int32
            do {
                descriptor = try Syscalls.open(path, O_RDONLY | O_NONBLOCK)
            } catch {
                throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: false)
            }
            defer { Syscalls.close(descriptor) }
            do throws(Errno) {
                let info = try Syscalls.fstat(descriptor)
                if info.st_mode & S_IFMT == S_IFDIR { throw Errno(EISDIR) }
                // The size is a hint: a file that grows or shrinks meanwhile is read to its end. One
                // byte more than the size lets the read that finds the end fit, with no buffer twice
                // the file's size made only to learn that nothing follows.
                var data = Data(count: max(Int(info.st_size), 0) + 1)
                var filled = 0
                while true {
                    if filled == data.count { data.count += max(data.count, 4096) }
                    let start = filled
                    let result = data.withUnsafeMutableBytes {
                        (bytes: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> in
                        do throws(Errno) {
                            return .success(
                                try Syscalls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: bytes[start...])))
                        } catch {
                            return .failure(error)
                        }
                    }
                    let count = try result.get()
                    if count == 0 { break }
                    filled += count
                }
                data.count = filled
                return data
            } catch {
                throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: false)
            }
        }

        static func writeAtomically(_ data: Data, to path: String) throws {
            func failure(_ code: Int32) -> CocoaError {
                CocoaError.fileSystemError(errno: code, path: path, writing: true)
            }
            let folder = (path as NSString).deletingLastPathComponent
            let prefix =
                (folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/") + ".dat.nosync"
                + String(getpid(), radix: 16, uppercase: true) + "."
            var temp = ""
            var descriptor: Int32 = -1
            while descriptor < 0 {
                temp = prefix + Self.randomSuffix()
                // A folder that cannot be reached (missing, a file, not searchable, a name too long)
                // fails here, and Foundation calls every such failure ENOENT.
                do {
                    _ = try Syscalls.lstat(temp)
                    continue  // taken: another name
                } catch {
                    if error.rawValue != ENOENT { throw failure(ENOENT) }
                }
                do {
                    descriptor = try Syscalls.open(temp, O_RDWR | O_CREAT | O_EXCL, 0o666)
                } catch {
                    if error.rawValue != EEXIST { throw failure(error.rawValue) }
                }
            }
            var placed = false
            defer {
                Syscalls.close(descriptor)
                if !placed { try? Syscalls.unlink(temp) }
            }
            do throws(Errno) {
                try Self.writeAll(data, to: descriptor)
                try Syscalls.fsync(descriptor)
                try Syscalls.rename(temp, path)
                placed = true
            } catch let error where error.rawValue == EBUSY {
                // Nothing can be renamed over the target (a mount point, `.` or `..`): as Foundation
                // does, the temp file goes and the target itself is written.
                try? Syscalls.unlink(temp)
                placed = true
                try writeInPlace(data, to: path)
            } catch {
                throw failure(error.rawValue)
            }
        }

        /// Foundation's fallback where no rename can replace the target: `open(O_TRUNC)` and write.
        private static func writeInPlace(_ data: Data, to path: String) throws {
            do throws(Errno) {
                let descriptor = try Syscalls.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
                defer { Syscalls.close(descriptor) }
                try writeAll(data, to: descriptor)
                try Syscalls.fsync(descriptor)
            } catch {
                throw CocoaError.fileSystemError(errno: error.rawValue, path: path, writing: true)
            }
        }

        /// Six letters and digits, as Foundation's temporary names end.
        private static func randomSuffix() -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
            var generator = SystemRandomNumberGenerator()
            return String(decoding: (0..<6).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
        }
    }
#endif
