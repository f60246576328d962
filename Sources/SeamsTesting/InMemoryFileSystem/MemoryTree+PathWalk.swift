import Foundation

/// How the kernel walks a path, for the paths that need it: one component at a time, so that
/// `..` leaves the folder the walk actually reached (never a lexical shortening), and the limits
/// on the length of paths and names fail where Linux fails them.
extension MemoryTree {
    /// `path` with every `.` and `..` applied as the walk meets them, or the walk's error.
    ///
    /// In the kernel's order: a path of `PATH_MAX` (4,096) bytes or more fails at once with
    /// ENAMETOOLONG; then for each component the folder reached so far must be a folder (ENOTDIR,
    /// also for `file/.` and `file/..`) and searchable (EACCES); `.` stays, `..` goes up (at the
    /// root it stays at the root); a name longer than `NAME_MAX` (255 bytes) fails with
    /// ENAMETOOLONG; a name before the last must exist (ENOENT, so `a/missing/../b` fails even
    /// when `a/b` exists). The last name need not exist.
    ///
    /// - Returns: The same path as plain names; `finalDot` keeps a last `.` or `..`.
    func resolve(_ path: MemoryPath) throws(MemoryFailure) -> MemoryPath {
        guard path.needsWalk else { return path }
        if path.text.utf8.count >= MemoryPath.maximumLength { throw MemoryFailure(ENAMETOOLONG, path.text) }
        var folders: [UInt64] = [Self.rootInode]
        var names: [MemoryName] = []
        for (index, name) in path.names.enumerated() {
            let node = nodes[folders[folders.count - 1]]!
            guard node.isDirectory else { throw MemoryFailure(ENOTDIR, path.text) }
            guard allows(node, 1) else { throw MemoryFailure(EACCES, path.text) }
            if name == MemoryPath.dot { continue }
            if name == MemoryPath.dotDot {
                if folders.count > 1 {
                    folders.removeLast()
                    names.removeLast()
                }
                continue
            }
            guard name.count <= MemoryPath.maximumNameLength else { throw MemoryFailure(ENAMETOOLONG, path.text) }
            names.append(name)
            if index == path.names.count - 1 { break }
            guard let child = node.children[name] else { throw MemoryFailure(ENOENT, path.text) }
            folders.append(child)
        }
        return MemoryPath(resolved: names, text: path.text, finalDot: path.finalDot)
    }

    /// `mkdir -p` as the live implementation does it (`mkdir`, and on ENOENT the parent first):
    /// each missing folder on the way is made, `..` leaves the folder just reached, an existing
    /// file on the way fails with ENOTDIR and as the last name with EEXIST.
    mutating func createDirectories(_ path: MemoryPath) throws(MemoryFailure) {
        if path.text.utf8.count >= MemoryPath.maximumLength { throw MemoryFailure(ENAMETOOLONG, path.text) }
        var folders: [UInt64] = [Self.rootInode]
        for (index, name) in path.names.enumerated() {
            let current = folders[folders.count - 1]
            let node = nodes[current]!
            guard node.isDirectory else { throw MemoryFailure(ENOTDIR, path.text) }
            guard allows(node, 1) else { throw MemoryFailure(EACCES, path.text) }
            if name == MemoryPath.dot { continue }
            if name == MemoryPath.dotDot {
                if folders.count > 1 { folders.removeLast() }
                continue
            }
            guard name.count <= MemoryPath.maximumNameLength else { throw MemoryFailure(ENAMETOOLONG, path.text) }
            if let child = node.children[name] {
                let isLast = index == path.names.count - 1
                if isLast && !nodes[child]!.isDirectory { throw MemoryFailure(EEXIST, path.text) }
                folders.append(child)
                continue
            }
            try requireWritable(current, path: path.text)
            let made = makeNode(.directory)
            setEntry(name, in: current, to: made)
            folders.append(made)
        }
    }
}
