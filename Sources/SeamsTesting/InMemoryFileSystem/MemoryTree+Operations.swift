import Foundation
import Seams

/// The calls of the file-system protocols, on the tree: each checks in the kernel's order and
/// throws the `errno` Linux returns (the Foundation wrapping happens in ``InMemoryFileSystem``).
extension MemoryTree {
    func read(_ path: MemoryPath) throws(MemoryFailure) -> Data {
        let node = nodes[try lookup(path)]!
        guard !node.isDirectory else { throw MemoryFailure(EISDIR, path.text) }
        guard allows(node, 4) else { throw MemoryFailure(EACCES, path.text) }
        return node.content
    }

    /// `Data.write(to:options: .atomic)`: a new inode renamed over the name. Foundation first
    /// makes a temporary file in the folder, so a folder that is missing, is a file, has a name
    /// that is too long on the way, or leaves no room in `PATH_MAX` for the temporary name all
    /// read as ENOENT; then the rename over the target meets the limits of the target's name.
    mutating func writeAtomically(_ data: Data, to path: MemoryPath) throws(MemoryFailure) {
        let folderPath = path.folder
        let folderBytes = folderPath.text.utf8.count
        if folderBytes >= MemoryPath.maximumLength { throw MemoryFailure(ENAMETOOLONG, path.text) }
        if folderBytes + 1 + MemoryPath.atomicTemporaryNameLength >= MemoryPath.maximumLength {
            throw MemoryFailure(ENOENT, path.text)
        }
        guard let name = path.lastName else { throw MemoryFailure(EISDIR, path.text) }
        let folder: UInt64
        do {
            folder = try lookup(resolve(folderPath).names, path: path.text)
        } catch let failure where failure.errno != EACCES {
            throw MemoryFailure(ENOENT, path.text)
        }
        guard nodes[folder]!.isDirectory else { throw MemoryFailure(ENOENT, path.text) }
        guard allows(nodes[folder]!, 1) else { throw MemoryFailure(EACCES, path.text) }
        if MemoryPath.isDot(name) { throw MemoryFailure(EISDIR, path.text) }
        if name.count > MemoryPath.maximumNameLength || path.text.utf8.count >= MemoryPath.maximumLength {
            throw MemoryFailure(ENAMETOOLONG, path.text)
        }
        if let existing = nodes[folder]!.children[name], nodes[existing]!.isDirectory {
            throw MemoryFailure(EISDIR, path.text)
        }
        try requireWritable(folder, path: path.text)
        let inode = makeNode(.file, content: data)
        setEntry(name, in: folder, to: inode)
    }

    func exists(_ path: MemoryPath) -> Bool {
        (try? lookup(path)) != nil
    }

    func list(_ path: MemoryPath) throws(MemoryFailure) -> [DirectoryEntry] {
        let node = nodes[try lookup(path)]!
        guard node.isDirectory else { throw MemoryFailure(ENOTDIR, path.text) }
        guard allows(node, 4) else { throw MemoryFailure(EACCES, path.text) }
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
        let node = nodes[inode]!
        if node.isDirectory && !node.children.isEmpty {
            guard recursively else { throw MemoryFailure(ENOTEMPTY, path.text) }
            try requireRemovable(inode, path: path.text)
        }
        try requireWritable(folder, path: path.text)
        removeEntry(name, in: folder)
    }

    /// Emptying a folder needs read, write and search on it and on every folder inside.
    private func requireRemovable(_ inode: UInt64, path: String) throws(MemoryFailure) {
        let node = nodes[inode]!
        guard node.isDirectory, !node.children.isEmpty else { return }
        guard allows(node, 7) else { throw MemoryFailure(EACCES, path) }
        for child in node.children.values { try requireRemovable(child, path: path) }
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
        if existing == inode { return }  // two names of one file: rename does nothing
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
        setEntry(toName, in: toFolder, to: inode)
    }

    mutating func copy(_ source: MemoryPath, to destination: MemoryPath) throws(MemoryFailure) {
        let original: UInt64
        do {
            original = try lookup(source)
        } catch let failure where failure.errno == ENOENT {
            throw MemoryFailure(ENOENT, source.text, asRead: true)
        }
        let destination = try resolve(destination)
        let (folder, name) = try parent(of: destination, dot: EEXIST)
        if nodes[folder]!.children[name] != nil { throw MemoryFailure(EEXIST, destination.text) }
        if nodes[original]!.isDirectory && isOnPath(original, to: destination.parentNames) {
            throw MemoryFailure(EINVAL, destination.text)
        }
        try requireCopyable(original, path: source.text)
        try requireWritable(folder, path: destination.text)
        setEntry(name, in: folder, to: deepCopy(original))
    }

    private func requireCopyable(_ inode: UInt64, path: String) throws(MemoryFailure) {
        let node = nodes[inode]!
        guard allows(node, node.isDirectory ? 5 : 4) else { throw MemoryFailure(EACCES, path) }
        for child in node.children.values { try requireCopyable(child, path: path) }
    }

    /// A new inode for every item: the copy shares nothing with the original.
    private mutating func deepCopy(_ inode: UInt64) -> UInt64 {
        let node = nodes[inode]!
        let copy = makeNode(node.kind, content: node.content, permissions: node.permissions)
        for (name, child) in node.children {
            nodes[copy]!.children[name] = deepCopy(child)
        }
        nodes[copy]!.modified = node.modified
        return copy
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
        let inode = try lookup(path)
        let node = nodes[inode]!
        if directoryOnly && !node.isDirectory { throw MemoryFailure(ENOTDIR, path.text) }
        guard allows(node, 4) else { throw MemoryFailure(EACCES, path.text) }
        nodes[inode]!.flush()
    }

    mutating func setPermissions(_ permissions: UInt16, at path: MemoryPath) throws(MemoryFailure) {
        let inode = try lookup(path)
        nodes[inode]!.permissions = permissions & 0o7777
    }

    mutating func setModified(_ date: Date, at path: MemoryPath) throws(MemoryFailure) {
        let inode = try lookup(path)
        nodes[inode]!.modified = FileTimestamp.quantized(date)
    }
}
