#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The walks behind ``DefaultDirectoryAccessor``: creating parents, removing and copying trees.
extension DefaultDirectoryAccessor {
    static func makeDirectory(_ path: String, intermediates: Bool) throws(Errno) {
        do {
            try Syscalls.mkdir(path, 0o777)
        } catch let error where intermediates && error.rawValue == EEXIST {
            // An existing folder is fine; an existing file is not (Foundation: 516, EEXIST).
            let info = try Syscalls.lstat(path)
            if info.st_mode & S_IFMT != S_IFDIR { throw error }
        } catch let error where intermediates && error.rawValue == ENOENT {
            let parent = parentPath(path)
            guard parent != path else { throw error }
            try makeDirectory(parent, intermediates: true)
            do {
                try Syscalls.mkdir(path, 0o777)
            } catch let error where error.rawValue == EEXIST {
                let info = try Syscalls.lstat(path)
                if info.st_mode & S_IFMT != S_IFDIR { throw error }
            }
        }
    }

    static func remove(_ path: String, recursively: Bool) throws(Errno) {
        let info = try Syscalls.lstat(path)
        guard info.st_mode & S_IFMT == S_IFDIR else {
            try Syscalls.unlink(path)
            return
        }
        if recursively {
            for entry in try DirectoryReader.entries(of: path) {
                try remove(path + "/" + entry.name, recursively: true)
            }
        }
        try Syscalls.rmdir(path)
    }

    /// Copies the tree at `source`; the top call checks the destination's folder, refuses an
    /// existing destination, and refuses a folder copied into itself (EINVAL, as `rename` does).
    static func copyTree(_ source: String, _ destination: String) throws(Errno) {
        let info = try Syscalls.lstat(source)
        let parent = try Syscalls.lstat(parentPath(destination))
        if parent.st_mode & S_IFMT != S_IFDIR { throw Errno(ENOTDIR) }
        // A file's copy is created with O_EXCL, which refuses an existing name by itself.
        if info.st_mode & S_IFMT == S_IFREG { return try copyFile(source, destination, info: info) }
        if exists(destination) { throw Errno(EEXIST) }
        if info.st_mode & S_IFMT == S_IFDIR {
            var folder = parentPath(destination)
            while true {
                if let ancestor = try? Syscalls.lstat(folder), ancestor.st_ino == info.st_ino,
                    ancestor.st_dev == info.st_dev
                {
                    throw Errno(EINVAL)
                }
                let up = parentPath(folder)
                if up == folder { break }
                folder = up
            }
        }
        try copy(source, destination, info: info)
    }

    /// Copies one item, and a folder's contents, to `destination`, which must not exist.
    ///
    /// - Parameter info: The source's `lstat`, when the caller has just read it and checked that
    ///   `destination` does not exist (the top of ``copyTree(_:_:)``); else both are read here.
    static func copy(_ source: String, _ destination: String, info known: stat? = nil) throws(Errno) {
        let info: stat
        if let known {
            info = known
        } else {
            info = try Syscalls.lstat(source)
            if exists(destination) { throw Errno(EEXIST) }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            try Syscalls.mkdir(destination, 0o700)
            for entry in try DirectoryReader.entries(of: source) {
                try copy(source + "/" + entry.name, destination + "/" + entry.name)
            }
            try Syscalls.chmod(destination, info.st_mode & 0o7777)
            try Syscalls.setModificationTime(destination, info.modificationTime)
        case S_IFLNK:
            try Syscalls.symlink(try Syscalls.readlink(source), destination)
            try Syscalls.setModificationTime(destination, info.modificationTime)
        case S_IFREG:
            try copyFile(source, destination, info: info)
        default:
            throw Errno(ENOTSUP)
        }
    }

    /// Copies the regular file at `source` as ``copyTree(_:_:)`` does, reading both files with
    /// `fstat` once the copy is made; `nil`, with nothing done, when `source` is not a regular
    /// file (a link, which is not followed, a folder, anything else) or on Apple platforms.
    ///
    /// - Returns: The source's `stat` after the copy and the copy's.
    static func copyRegularFile(_ source: String, _ destination: String) throws(Errno) -> (stat, stat)? {
        #if canImport(Darwin)
            return nil
        #else
            let parent = try Syscalls.lstat(parentPath(destination))
            if parent.st_mode & S_IFMT != S_IFDIR { throw Errno(ENOTDIR) }
            let input: Int32
            do {
                // O_NONBLOCK: a FIFO's open would wait for a writer; it changes nothing for a file.
                input = try Syscalls.open(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
            } catch let error where error.rawValue == ELOOP {
                return nil
            }
            defer { Syscalls.close(input) }
            let info = try Syscalls.fstat(input)
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            let output = try Syscalls.open(destination, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            defer { Syscalls.close(output) }
            do {
                try copyContent(from: input, to: output, size: Int(info.st_size))
                try Syscalls.fchmod(output, info.st_mode & 0o7777)
                try Syscalls.setTimes(output, access: info.accessTime, modification: info.modificationTime)
                return (try Syscalls.fstat(input), try Syscalls.fstat(output))
            } catch {
                try? Syscalls.unlink(destination)
                throw error
            }
        #endif
    }

    private static func copyFile(_ source: String, _ destination: String, info: stat) throws(Errno) {
        if try Syscalls.cloneFile(source, destination) { return }  // Apple platforms, where the volume can
        let input = try Syscalls.open(source, O_RDONLY)
        defer { Syscalls.close(input) }
        let output = try Syscalls.open(destination, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        defer { Syscalls.close(output) }
        try copyContent(from: input, to: output, size: Int(info.st_size))
        try Syscalls.fchmod(output, info.st_mode & 0o7777)
        try Syscalls.setTimes(output, access: info.accessTime, modification: info.modificationTime)
    }

    /// `copy_file_range`, else `sendfile`, else a `read`/`write` loop, until end of file.
    private static func copyContent(from input: Int32, to output: Int32, size: Int) throws(Errno) {
        let chunk = 1 << 30
        var kernelCopy = true
        while kernelCopy {
            do {
                guard let copied = try Syscalls.copyFileRange(input, output, chunk) else { break }
                if copied == 0 { return }
            } catch let error where [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EPERM].contains(error.rawValue) {
                kernelCopy = false
            }
        }
        do {
            while let sent = try Syscalls.sendfile(input, output, chunk) {
                if sent == 0 { return }
            }
        } catch let error where [EINVAL, ENOSYS].contains(error.rawValue) {
            // Fall through to the portable loop.
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try Syscalls.read(input, buffer)
            if count == 0 { return }
            var written = 0
            while written < count {
                written += try Syscalls.write(output, UnsafeRawBufferPointer(rebasing: buffer[written..<count]))
            }
        }
    }

    static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
