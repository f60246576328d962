import Foundation

/// How the kernel walks a path, for the paths that need it: one component at a time, so that
/// `..` leaves the folder the walk actually reached (never a lexical shortening), and the limits
/// on the length of paths and names fail where Linux fails them.
extension MemoryTree {
    /// `path` with every `.` and `..` applied and every symbolic link before the last name
    /// followed, as the walk meets them, or the walk's error.
    ///
    /// In the kernel's order: a path of `PATH_MAX` (4,096) bytes or more fails at once with
    /// ENAMETOOLONG; then for each component the folder reached so far must be a folder (ENOTDIR,
    /// also for `file/.` and `file/..`) and searchable (EACCES); `.` stays, `..` goes up (at the
    /// root it stays at the root); a name longer than `NAME_MAX` (255 bytes) fails with
    /// ENAMETOOLONG; a name before the last must exist (ENOENT, so `a/missing/../b` fails even
    /// when `a/b` exists); a link before the last name is followed (an absolute target from the
    /// root, a relative one from the link's folder; `..` then leaves the folder the link reached;
    /// a dangling one is ENOENT, more than 40 links ELOOP). The last name need not exist, and its
    /// link is followed only when `followingFinal`.
    ///
    /// - Returns: The path as plain names of real folders (and the last name); `finalDot` keeps
    ///   a last `.` or `..`.
    func resolve(_ path: MemoryPath, followingFinal: Bool = false) throws(MemoryFailure) -> MemoryPath {
        guard path.needsWalk || hasLinks else { return path }
        if path.text.utf8.count >= MemoryPath.maximumLength { throw MemoryFailure(ENAMETOOLONG, path.text) }
        var folders: [UInt64] = [Self.rootInode]
        var names: [MemoryName] = []
        var budget = Self.maximumLinkFollows
        if let last = try walk(
            path.names[...], folders: &folders, names: &names, resolvingLast: followingFinal, budget: &budget,
            text: path.text)
        {
            names.append(last)
        }
        return MemoryPath(resolved: names, text: path.text, finalDot: path.finalDot)
    }

    /// Walks `components` on from `folders` (the inodes reached, root first) and `names` (their
    /// names), following links. Returns the last name when it is left for the caller: not looked
    /// up (unless `resolvingLast`), or missing; `nil` when the walk ended on an item it reached.
    private func walk(
        _ components: ArraySlice<MemoryName>, folders: inout [UInt64], names: inout [MemoryName],
        resolvingLast: Bool, budget: inout Int, text: String
    ) throws(MemoryFailure) -> MemoryName? {
        var index = components.startIndex
        while index < components.endIndex {
            let name = components[index]
            index = components.index(after: index)
            let isLast = index == components.endIndex
            let node = nodes[folders[folders.count - 1]]!
            guard node.isDirectory else { throw MemoryFailure(ENOTDIR, text) }
            guard allows(node, 1) else { throw MemoryFailure(EACCES, text) }
            if name == MemoryPath.dot { continue }
            if name == MemoryPath.dotDot {
                if folders.count > 1 {
                    folders.removeLast()
                    names.removeLast()
                }
                continue
            }
            guard name.count <= MemoryPath.maximumNameLength else { throw MemoryFailure(ENAMETOOLONG, text) }
            if isLast && !resolvingLast { return name }
            guard let child = node.children[entryName(name, in: node)] else {
                if isLast { return name }
                throw MemoryFailure(ENOENT, text)
            }
            guard nodes[child]!.isSymbolicLink else {
                folders.append(child)
                names.append(name)
                continue
            }
            budget -= 1
            guard budget >= 0 else { throw MemoryFailure(ELOOP, text) }
            let target = MemoryPath(String(decoding: nodes[child]!.content, as: UTF8.self))
            if target.text.utf8.first == UInt8(ascii: "/") {
                folders = [Self.rootInode]
                names = []
            }
            if let missing = try walk(
                target.names[...], folders: &folders, names: &names, resolvingLast: true, budget: &budget, text: text)
            {
                if isLast { return missing }  // a dangling final link: the caller finds nothing there
                throw MemoryFailure(ENOENT, text)
            }
        }
        return nil
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
            if let child = node.children[entryName(name, in: node)] {
                let isLast = index == path.names.count - 1
                if isLast && !nodes[child]!.isDirectory { throw MemoryFailure(EEXIST, path.text) }
                if nodes[child]!.isSymbolicLink {
                    // Followed as `mkdir` follows it; a dangling one is where the live walk meets
                    // EEXIST (it cannot make the folder the link names, nor the link's own name).
                    var names = [MemoryName](repeating: [], count: folders.count - 1)
                    var budget = Self.maximumLinkFollows
                    if try walk(
                        [name][...], folders: &folders, names: &names, resolvingLast: true, budget: &budget,
                        text: path.text) != nil
                    {
                        throw MemoryFailure(EEXIST, path.text)
                    }
                    continue
                }
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
