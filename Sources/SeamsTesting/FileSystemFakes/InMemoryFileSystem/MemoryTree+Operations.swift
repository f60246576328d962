import Foundation
import Seams

/// The calls of the file-system protocols, on the tree: each checks in the kernel's order and
/// throws the `errno` Linux returns (the Foundation wrapping happens in ``InMemoryFileSystem``).
extension MemoryTree {
    func read(_ path: MemoryPath) throws(MemoryFailure) -> Data {
        let node = nodes[try lookup(path, following: true)]!
        guard !node.isDirectory else { throw MemoryFailure(EISDIR, path.text) }
        guard allows(node, 4) else { throw MemoryFailure(EACCES, path.text) }
        return node.content
    }

    /// `Data.write(to:options: .atomic)`: a new inode renamed over the name. Foundation first
    /// makes a temporary file in the folder, so a folder that is missing, is a file, cannot be
    /// searched (its own bits or a parent's), or has a name that is too long on the way all read
    /// as ENOENT; then the rename over the target meets the limits of the target's name.
    mutating func writeAtomically(_ data: Data, to path: MemoryPath) throws(MemoryFailure) {
        let folderPath = path.folder
        let folderBytes = folderPath.text.utf8.count
        if folderBytes >= MemoryPath.maximumLength { throw MemoryFailure(ENAMETOOLONG, path.text) }
        guard let given = path.lastName else { throw MemoryFailure(EISDIR, path.text) }
        let folder: UInt64
        do {
            folder = try lookup(resolve(folderPath).names, path: path.text)
        } catch {
            throw MemoryFailure(ENOENT, path.text)  // a folder it may not search too
        }
        guard nodes[folder]!.isDirectory, allows(nodes[folder]!, 1) else { throw MemoryFailure(ENOENT, path.text) }
        if MemoryPath.isDot(given) { throw MemoryFailure(EISDIR, path.text) }
        if given.count > MemoryPath.maximumNameLength || path.text.utf8.count >= MemoryPath.maximumLength {
            throw MemoryFailure(ENAMETOOLONG, path.text)
        }
        let name = entryName(given, in: folder)
        if let existing = nodes[folder]!.children[name], nodes[existing]!.isDirectory {
            throw MemoryFailure(EISDIR, path.text)
        }
        try requireWritable(folder, path: path.text)
        let inode = makeNode(.file, content: data)
        // Replacing an item through another case of its name (a rename over it) leaves the new name.
        if name != given { removeEntry(name, in: folder) }
        setEntry(given, in: folder, to: inode)
    }

    /// Foundation's atomic write (`Data.write(to:options: .atomic)`): the bytes go to a temp file
    /// beside the target, `.dat.nosync<hex>.<serial>` as on Linux, which is renamed over it.
    ///
    /// Only a power cut that keeps part of the unflushed changes can tell this from one step, so
    /// only while such a cut is armed (a journal is kept) is the temp's creation a change of its
    /// own: a cut may then keep the temp file, with its bytes or without, and lose the rename, as
    /// a real machine may. Everything else sees one atomic replacement.
    mutating func writeThroughTemporary(_ data: Data, to path: MemoryPath) throws(MemoryFailure) {
        guard journal != nil else { return try writeAtomically(data, to: path) }
        let name =
            ".dat.nosync" + String(nextInode & 0xFFFF, radix: 16, uppercase: true) + "." + String(nextInode, radix: 36)
        let folder = path.folder.text
        let temp = MemoryPath(folder.hasSuffix("/") ? folder + name : folder + "/" + name)
        do {
            try writeAtomically(data, to: temp)
        } catch {
            return try writeAtomically(data, to: path)  // the target's own refusal
        }
        recordJournal()
        do {
            try move(temp, to: path, replacing: true)
        } catch {
            try? remove(temp, recursively: false)
            throw error
        }
    }

    /// `stat` (not `lstat`): a dangling link is not there, as `FileManager.fileExists` says.
    func exists(_ path: MemoryPath) -> Bool {
        (try? lookup(path, following: true)) != nil
    }

    func list(_ path: MemoryPath) throws(MemoryFailure) -> [DirectoryEntry] {
        let node = nodes[try lookup(path, following: true)]!
        guard node.isDirectory else { throw MemoryFailure(ENOTDIR, path.text) }
        guard allows(node, 4) else { throw MemoryFailure(EACCES, path.text) }
        // Each entry's metadata is read with fstatat, which needs search permission on the folder.
        if !node.children.isEmpty && !allows(node, 1) { throw MemoryFailure(EACCES, path.text) }
        return node.children
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map { DirectoryEntry(name: String(decoding: $0.key, as: UTF8.self), metadata: metadata(of: $0.value)) }
    }

    mutating func createDirectory(_ path: MemoryPath, intermediates: Bool) throws(MemoryFailure) {
        guard intermediates else {
            let (folder, name) = try parent(of: path, dot: EEXIST)
            if nodes[folder]!.children[name] != nil { throw MemoryFailure(EEXIST, path.text) }
            try requireWritable(folder, path: path.text)
            setEntry(name, in: folder, to: makeNode(.directory))
            return
        }
        try createDirectories(path)
    }

    mutating func remove(_ path: MemoryPath, recursively: Bool) throws(MemoryFailure) {
        let (folder, name) = try parent(of: path, dot: EINVAL, dotDot: ENOTEMPTY)
        guard let inode = nodes[folder]!.children[name] else { throw MemoryFailure(ENOENT, path.text) }
        try removeWalk(name, inode, in: folder, recursively: recursively, path: path.text)
    }

    /// The live walk: a folder's items first (it must be readable, and searchable when it has
    /// items), in the order of their names' bytes, then the item itself (`unlink` or `rmdir`: write
    /// and search on its folder, then ENOTEMPTY). A failure leaves what was removed before it
    /// removed, as the live walk does (which goes in the order `readdir` gives).
    private mutating func removeWalk(
        _ name: MemoryName, _ inode: UInt64, in folder: UInt64, recursively: Bool, path: String
    ) throws(MemoryFailure) {
        let node = nodes[inode]!
        if node.isDirectory && recursively {
            guard allows(node, 4) else { throw MemoryFailure(EACCES, path) }
            if !node.children.isEmpty && !allows(node, 1) { throw MemoryFailure(EACCES, path) }
            for (childName, child) in node.children.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                try removeWalk(childName, child, in: inode, recursively: true, path: path)
            }
        }
        try requireWritable(folder, path: path)
        if node.isDirectory && !nodes[inode]!.children.isEmpty { throw MemoryFailure(ENOTEMPTY, path) }
        removeEntry(name, in: folder)
    }

    /// `rename(2)` (or `renameat2(RENAME_NOREPLACE)`), checking in the kernel's order: both
    /// parents, the source, a refused destination, a folder into itself, a destination that
    /// holds the source, two names of one file, permissions, then the kinds.
    mutating func move(_ source: MemoryPath, to destination: MemoryPath, replacing: Bool) throws(MemoryFailure) {
        let source = try resolve(source)
        let destination = try resolve(destination)
        let (fromFolder, fromName) = try parent(of: source)
        let (toFolder, toName) = try parent(of: destination)
        guard let inode = nodes[fromFolder]!.children[fromName] else { throw MemoryFailure(ENOENT, source.text) }
        let existing = nodes[toFolder]!.children[toName]
        if existing != nil && !replacing { throw MemoryFailure(EEXIST, destination.text) }
        let moving = nodes[inode]!
        if moving.isDirectory && isOnPath(inode, to: destination.parentNames) {
            throw MemoryFailure(EINVAL, destination.text)
        }
        if let existing, isOnPath(existing, to: source.parentNames) {
            throw MemoryFailure(ENOTEMPTY, destination.text)
        }
        if existing == inode {
            // On a folder that folds case, a new case of the item's own name renames it.
            if fromFolder == toFolder, toName == fromName, let given = destination.lastName, given != fromName {
                try requireWritable(fromFolder, path: source.text)
                removeEntry(fromName, in: fromFolder, release: false)
                setEntry(given, in: toFolder, to: inode)
            }
            return  // two names of one file: rename does nothing
        }
        try requireWritable(fromFolder, path: source.text)
        try requireWritable(toFolder, path: destination.text)
        if let existing {
            let target = nodes[existing]!
            switch (moving.isDirectory, target.isDirectory) {
            case (false, true): throw MemoryFailure(EISDIR, destination.text)
            case (true, false): throw MemoryFailure(ENOTDIR, destination.text)
            case (true, true) where !target.children.isEmpty: throw MemoryFailure(ENOTEMPTY, destination.text)
            default: break
            }
        }
        removeEntry(fromName, in: fromFolder, release: false)
        // Replacing an item through another case of its name leaves the name the move gave.
        if existing != nil, let given = destination.lastName, given != toName {
            removeEntry(toName, in: toFolder)
            setEntry(given, in: toFolder, to: inode)
        } else {
            setEntry(toName, in: toFolder, to: inode)
        }
    }

    /// `renameat2(RENAME_EXCHANGE)`: both names must exist; each then names the other's item, in
    /// one step. A folder cannot be swapped into its own subtree (EINVAL).
    ///
    /// - Returns: `false`, changing nothing, where the file system cannot swap (see ``exchangesItems``).
    mutating func exchange(_ first: MemoryPath, _ second: MemoryPath) throws(MemoryFailure) -> Bool {
        let first = try resolve(first)
        let second = try resolve(second)
        let (firstFolder, firstName) = try parent(of: first)
        let (secondFolder, secondName) = try parent(of: second)
        guard let firstInode = nodes[firstFolder]!.children[firstName] else { throw MemoryFailure(ENOENT, first.text) }
        guard let secondInode = nodes[secondFolder]!.children[secondName] else {
            throw MemoryFailure(ENOENT, second.text)
        }
        guard exchangesItems, !nodes[firstFolder]!.foldsNames, !nodes[secondFolder]!.foldsNames else { return false }
        if firstInode == secondInode { return true }
        if nodes[firstInode]!.isDirectory && isOnPath(firstInode, to: second.parentNames)
            || nodes[secondInode]!.isDirectory && isOnPath(secondInode, to: first.parentNames)
        {
            throw MemoryFailure(EINVAL, second.text)
        }
        try requireWritable(firstFolder, path: first.text)
        try requireWritable(secondFolder, path: second.text)
        nodes[firstFolder]!.children[firstName] = secondInode
        nodes[firstFolder]!.modified = now
        nodes[secondFolder]!.children[secondName] = firstInode
        nodes[secondFolder]!.modified = now
        return true
    }

    /// The live copy: the source (`lstat`), the destination's folder (`lstat`: ENOTDIR), an
    /// existing destination (EEXIST, when the folder can be searched), a folder into itself
    /// (EINVAL), then the walk.
    mutating func copy(_ source: MemoryPath, to destination: MemoryPath) throws(MemoryFailure) {
        let original: UInt64
        do {
            original = try lookup(source)
        } catch let failure where failure.errno == ENOENT {
            throw MemoryFailure(ENOENT, source.text, asRead: true)
        }
        let destination = try resolve(destination)
        if destination.finalDot != nil { throw MemoryFailure(EEXIST, destination.text) }
        guard let name = destination.lastName else { throw MemoryFailure(EEXIST, destination.text) }
        let folder = try lookup(destination.parentNames, path: destination.text)
        guard nodes[folder]!.isDirectory else { throw MemoryFailure(ENOTDIR, destination.text) }
        if allows(nodes[folder]!, 1) && nodes[folder]!.children[entryName(name, in: folder)] != nil {
            throw MemoryFailure(EEXIST, destination.text)
        }
        if nodes[original]!.isDirectory && isOnPath(original, to: destination.parentNames) {
            throw MemoryFailure(EINVAL, destination.text)
        }
        try copyWalk(original, as: name, into: folder, path: destination.text)
    }

    /// A new inode for every item (the copy shares nothing with the original), made as the live
    /// walk makes it: a folder is created (mode 0700), read (read permission, and search when it
    /// has items), filled in the order of the names' bytes, then given the original's mode and
    /// date; a file is opened for reading (read permission) before its copy is created. A failure
    /// leaves what was copied before it.
    private mutating func copyWalk(
        _ inode: UInt64, as name: MemoryName, into folder: UInt64, path: String
    ) throws(MemoryFailure) {
        let node = nodes[inode]!
        guard allows(nodes[folder]!, 1) else { throw MemoryFailure(EACCES, path) }
        if nodes[folder]!.children[name] != nil { throw MemoryFailure(EEXIST, path) }
        if node.isDirectory {
            try requireWritable(folder, path: path)
            let copy = makeNode(.directory, permissions: 0o700)
            setEntry(name, in: folder, to: copy)
            guard allows(node, 4) else { throw MemoryFailure(EACCES, path) }
            if !node.children.isEmpty && !allows(node, 1) { throw MemoryFailure(EACCES, path) }
            for (childName, child) in node.children.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                try copyWalk(child, as: childName, into: copy, path: path)
            }
            nodes[copy]!.permissions = node.permissions
            nodes[copy]!.modified = node.modified
        } else {
            guard allows(node, 4) else { throw MemoryFailure(EACCES, path) }
            try requireWritable(folder, path: path)
            let copy = makeNode(node.kind, content: node.content, permissions: node.permissions)
            nodes[copy]!.modified = node.modified
            setEntry(name, in: folder, to: copy)
        }
    }

    mutating func link(_ source: MemoryPath, to destination: MemoryPath) throws(MemoryFailure) {
        let inode = try lookup(source)
        let (folder, name) = try parent(of: destination, dot: EEXIST)
        if nodes[folder]!.children[name] != nil { throw MemoryFailure(EEXIST, destination.text) }
        if nodes[inode]!.isDirectory { throw MemoryFailure(EPERM, source.text) }
        try requireWritable(folder, path: destination.text)
        nodes[inode]!.linkCount += 1
        setEntry(name, in: folder, to: inode)
    }

    /// `open(O_RDONLY)` then `fsync`: needs read permission on a file.
    mutating func flush(_ path: MemoryPath, directoryOnly: Bool) throws(MemoryFailure) {
        let inode = try lookup(path, following: true)
        let node = nodes[inode]!
        if directoryOnly && !node.isDirectory { throw MemoryFailure(ENOTDIR, path.text) }
        guard allows(node, 4) else { throw MemoryFailure(EACCES, path.text) }
        nodes[inode]!.flush()
        if node.isDirectory { journal?.flushedFolders.insert(inode) }
    }

    /// `chmod`, which follows a final link (a link's own bits never change on Linux).
    mutating func setPermissions(_ permissions: UInt16, at path: MemoryPath) throws(MemoryFailure) {
        let inode = try lookup(path, following: true)
        nodes[inode]!.permissions = permissions & 0o7777
    }

    /// `utimensat(AT_SYMLINK_NOFOLLOW)`: a final link's own date.
    mutating func setModified(_ date: Date, at path: MemoryPath) throws(MemoryFailure) {
        let inode = try lookup(path)
        nodes[inode]!.modified = FileTimestamp.quantized(date)
    }

    /// `symlink`: the target text stored as given; an empty one is ENOENT, then the parent's
    /// checks, an existing name (EEXIST, even a dangling link), write permission.
    mutating func makeSymbolicLink(to target: String, at path: MemoryPath) throws(MemoryFailure) {
        if target.isEmpty { throw MemoryFailure(ENOENT, path.text) }
        if target.utf8.count >= MemoryPath.maximumLength { throw MemoryFailure(ENAMETOOLONG, path.text) }
        let (folder, name) = try parent(of: path, dot: EEXIST)
        if nodes[folder]!.children[name] != nil { throw MemoryFailure(EEXIST, path.text) }
        try requireWritable(folder, path: path.text)
        setEntry(name, in: folder, to: makeNode(.symbolicLink, content: Data(target.utf8)))
    }

    /// `readlink`: the target text of a final link, never followed; EINVAL for anything else.
    func destinationOfLink(_ path: MemoryPath) throws(MemoryFailure) -> String {
        let node = nodes[try lookup(path)]!
        guard node.isSymbolicLink else { throw MemoryFailure(EINVAL, path.text) }
        return String(decoding: node.content, as: UTF8.self)
    }
}
