import Foundation
import Seams

/// The inodes of ``InMemoryFileSystem`` and the path walk every call starts with. Every function
/// checks what the kernel checks, in the kernel's order, and throws the same `errno`.
struct MemoryTree: Sendable {
    static let rootInode: UInt64 = 1

    var nodes: [UInt64: MemoryNode]
    var nextInode: UInt64 = 2
    var now: Date
    var enforcesPermissions: Bool
    var umask: UInt16 = 0o022
    /// Inodes dropped since the last sweep; a sweep frees those no name (current or durable) holds.
    var droppedSinceSweep = 0
    /// Whether a symbolic link was ever made here; until then every path is walked by the fast
    /// lookup, which meets no link to follow.
    var hasLinks = false
    /// The changes since each item's last flush, kept while a power cut may keep part of them.
    var journal: MemoryJournal?
    /// What the next power cut keeps of the unflushed changes.
    var powerLossSelection = PowerLossSelection.flushedOnly {
        didSet { updateJournal() }
    }
    /// What a folder's flush commits besides that folder's own names.
    var powerLossModel = PowerLossModel.perItem {
        didSet { updateJournal() }
    }
    /// Whether `exchange` swaps two names (`renameat2(RENAME_EXCHANGE)`); folders that fold case
    /// never do, as FAT and exFAT answer EINVAL.
    var exchangesItems = true
    /// What the last power cut could have kept and kept.
    var lastPowerCut: PowerCutReport?
    /// Linux's `MAXSYMLINKS`: a walk that follows more links than this fails with ELOOP.
    static let maximumLinkFollows = 40

    init(now: Date, enforcesPermissions: Bool) {
        self.now = FileTimestamp.quantized(now)
        self.enforcesPermissions = enforcesPermissions
        var root = MemoryNode(kind: .directory, permissions: 0o755, modified: self.now, durable: true)
        root.linkCount = 2
        nodes = [Self.rootInode: root]
    }

    /// Keeps a journal unless nothing needs one: a cut that keeps nothing unflushed under the
    /// per-item model is every item's last flush, which the nodes hold already.
    private mutating func updateJournal() {
        let needed = powerLossSelection != .flushedOnly || powerLossModel == .journaling
        journal = needed ? (journal ?? MemoryJournal()) : nil
    }

    // MARK: - Walking paths

    /// The inode at `names`, requiring search permission on every folder on the way.
    func lookup(_ names: some Collection<MemoryName>, path: String) throws(MemoryFailure) -> UInt64 {
        var current = Self.rootInode
        for name in names {
            let node = nodes[current]!
            guard node.isDirectory else { throw MemoryFailure(ENOTDIR, path) }
            guard allows(node, 1) else { throw MemoryFailure(EACCES, path) }
            guard let child = node.children[entryName(name, in: node)] else { throw MemoryFailure(ENOENT, path) }
            current = child
        }
        return current
    }

    /// The inode at `path`; links before the last name are followed, the last name's link only
    /// when `following` (`stat`, `open`, `opendir`, `chmod`), never otherwise (`lstat`).
    func lookup(_ path: MemoryPath, following: Bool = false) throws(MemoryFailure) -> UInt64 {
        let path = try resolve(path, followingFinal: following)
        return try lookup(path.names, path: path.text)
    }

    /// The folder that holds the last name of `path`, and that name.
    ///
    /// - Parameters:
    ///   - dot: What the call throws when the last component is `.` (which no call may create,
    ///     remove or rename: mkdir and link say EEXIST, rmdir EINVAL, rename EBUSY).
    ///   - dotDot: The same for `..`, when it differs (rmdir says ENOTEMPTY).
    func parent(
        of path: MemoryPath, dot: Int32 = EBUSY, dotDot: Int32? = nil
    ) throws(MemoryFailure) -> (inode: UInt64, name: MemoryName) {
        let path = try resolve(path)
        if let finalDot = path.finalDot {
            throw MemoryFailure(finalDot == MemoryPath.dot ? dot : (dotDot ?? dot), path.text)
        }
        guard let name = path.lastName else { throw MemoryFailure(EBUSY, path.text) }
        let parent = try lookup(path.parentNames, path: path.text)
        let node = nodes[parent]!
        guard node.isDirectory else { throw MemoryFailure(ENOTDIR, path.text) }
        guard allows(node, 1) else { throw MemoryFailure(EACCES, path.text) }
        return (parent, entryName(name, in: node))
    }

    /// The name `name` reaches in `folder`: `name` itself, or in a folder whose names fold case
    /// the entry that differs from it only in case (`A.txt` reaches `a.txt`, which keeps its name).
    func entryName(_ name: MemoryName, in folder: UInt64) -> MemoryName {
        entryName(name, in: nodes[folder]!)
    }

    /// The same, for a folder node at hand: no second lookup of the node on the hot path, where
    /// most folders do not fold case.
    func entryName(_ name: MemoryName, in node: MemoryNode) -> MemoryName {
        guard node.foldsNames, node.children[name] == nil else { return name }
        let key = Self.folded(name)
        return node.children.keys.first { Self.folded($0) == key } ?? name
    }

    /// A name as a case-folding file system compares it: each Unicode scalar by its simple
    /// uppercase mapping, as exFAT's up-case table does; no change of Unicode form.
    static func folded(_ name: MemoryName) -> [UInt32] {
        String(decoding: name, as: UTF8.self).unicodeScalars.map { scalar in
            let upper = scalar.properties.uppercaseMapping.unicodeScalars
            return upper.count == 1 ? upper.first!.value : scalar.value
        }
    }

    func allows(_ node: MemoryNode, _ access: UInt16) -> Bool {
        !enforcesPermissions || node.allows(access)
    }

    /// Requires write and search permission on a folder whose names change.
    func requireWritable(_ inode: UInt64, path: String) throws(MemoryFailure) {
        if !allows(nodes[inode]!, 3) { throw MemoryFailure(EACCES, path) }
    }

    // MARK: - Changing names

    mutating func makeNode(_ kind: MemoryNode.Kind, content: Data = Data(), permissions: UInt16? = nil) -> UInt64 {
        let inode = nextInode
        nextInode += 1
        let mode = kind == .symbolicLink ? 0o777 : permissions ?? ((kind == .directory ? 0o777 : 0o666) & ~umask)
        nodes[inode] = MemoryNode(
            kind: kind, content: content, permissions: mode, modified: now, durable: kind == .symbolicLink)
        if kind == .symbolicLink { hasLinks = true }
        return inode
    }

    /// Points `name` in `folder` at `inode`, dropping what it named before.
    mutating func setEntry(_ name: MemoryName, in folder: UInt64, to inode: UInt64) {
        if let old = nodes[folder]!.children.updateValue(inode, forKey: name), old != inode {
            release(old)
        }
        if nodes[folder]!.foldsNames, nodes[inode]!.isDirectory { nodes[inode]!.foldsNames = true }
        nodes[folder]!.modified = now
    }

    mutating func removeEntry(_ name: MemoryName, in folder: UInt64, release: Bool = true) {
        if let old = nodes[folder]!.children.removeValue(forKey: name), release {
            self.release(old)
        }
        nodes[folder]!.modified = now
    }

    /// One name fewer for `inode`.
    mutating func release(_ inode: UInt64) {
        guard var node = nodes[inode] else { return }
        if !node.isDirectory {
            node.linkCount -= 1
            nodes[inode] = node
        }
        droppedSinceSweep += 1
        if droppedSinceSweep >= 4096 { sweep() }
    }

    /// How many names a node has: files count their links, folders 2 plus their subfolders.
    func linkCount(of node: MemoryNode) -> Int {
        guard node.isDirectory else { return node.linkCount }
        return 2 + node.children.values.reduce(0) { $0 + (nodes[$1]?.isDirectory == true ? 1 : 0) }
    }

    func metadata(of inode: UInt64) -> FileMetadata {
        let node = nodes[inode]!
        let kind: FileMetadata.Kind =
            switch node.kind {
            case .file: .file
            case .directory: .directory
            case .symbolicLink: .symbolicLink
            }
        return FileMetadata(
            kind: kind,
            size: node.isDirectory ? 0 : Int64(node.content.count),
            modificationDate: node.modified,
            permissions: node.permissions,
            fileIdentifier: inode,
            volumeIdentifier: 1,
            linkCount: linkCount(of: node)
        )
    }

    /// Whether the folder `ancestor` is on the way to `names` (a move may not put a folder
    /// inside itself).
    func isOnPath(_ ancestor: UInt64, to names: some Collection<MemoryName>) -> Bool {
        var current = Self.rootInode
        if current == ancestor { return true }
        for name in names {
            guard nodes[current] != nil, let next = nodes[current]!.children[entryName(name, in: current)] else {
                return false
            }
            if next == ancestor { return true }
            current = next
        }
        return false
    }
}
