import Foundation

/// The power-loss model: what a flush makes durable, what a power cut takes back, and the sweep
/// that frees inodes no name holds any more.
///
/// Each inode keeps the state of its last flush: a file its content, permissions and date
/// (`synchronizeFile`), a folder its names (`synchronizeDirectory`). A power cut returns every
/// inode to that state, so unflushed content is lost (a new file reads as empty, as on ext4
/// without `fsync`) and a name created, removed or renamed in an unflushed folder is undone.
/// This is the worst a POSIX file system may do; real disks often keep more, and
/// ``PowerLossSelection`` makes a cut keep a chosen part of the unflushed changes.
extension MemoryTree {
    /// Makes everything durable, as a `sync(2)` would.
    mutating func flushAll() {
        for inode in Array(nodes.keys) {
            nodes[inode]!.flush()
        }
        if journal != nil { journal = MemoryJournal() }
    }

    /// Returns every inode to its last flushed state and drops what no durable name reaches.
    mutating func cutPower() {
        if journal != nil {
            // What the selection keeps of the unflushed changes becomes durable first.
            recordJournal()
            lastPowerCut = applyJournal(powerLossSelection)
        } else {
            lastPowerCut = PowerCutReport(unflushedChanges: 0, keptChanges: 0, combinations: 1)
        }
        for inode in Array(nodes.keys) {
            var node = nodes[inode]!
            node.content = node.durable.content
            node.children = node.durable.children
            node.permissions = node.durable.permissions
            node.modified = node.durable.modified
            nodes[inode] = node
        }
        let reachable = reachableInodes(followingDurable: false)
        nodes = nodes.filter { reachable.contains($0.key) }
        var links: [UInt64: Int] = [:]
        for node in nodes.values {
            for child in node.children.values { links[child, default: 0] += 1 }
        }
        for (inode, count) in links where nodes[inode]?.isDirectory == false {
            nodes[inode]!.linkCount = count
        }
        droppedSinceSweep = 0
    }

    /// Frees inodes that neither a current nor a durable name reaches (both may come back).
    mutating func sweep() {
        let reachable = reachableInodes(followingDurable: true)
        if reachable.count < nodes.count {
            nodes = nodes.filter { reachable.contains($0.key) }
        }
        droppedSinceSweep = 0
    }

    private func reachableInodes(followingDurable: Bool) -> Set<UInt64> {
        var seen: Set<UInt64> = [Self.rootInode]
        var pending: [UInt64] = [Self.rootInode]
        while let inode = pending.popLast() {
            guard let node = nodes[inode] else { continue }
            var children = Array(node.children.values)
            if followingDurable {
                children += node.durable.children.values
                // A change a power cut may still keep can bring back what it named.
                if let journal {
                    for call in journal.calls { children += call.filter { $0.folder == inode }.compactMap(\.inode) }
                }
            }
            for child in children where seen.insert(child).inserted {
                pending.append(child)
            }
        }
        return seen
    }
}
