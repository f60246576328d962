import Foundation
import SeamsCore

/// The journal behind ``PowerLossSelection``: what changed since each item's last flush, one
/// entry per call, and the cut that keeps a chosen part of it.
struct MemoryJournal: Sendable {
    /// One name of one folder after a call: what it named (`nil`: removed).
    struct NameChange: Sendable {
        var folder: UInt64
        var name: MemoryName
        var inode: UInt64?
    }

    /// Each call's changes of folder names not yet flushed, oldest first; a call's changes are
    /// kept or lost together (a rename, even between two folders, is atomic).
    var calls: [[NameChange]] = []
    /// Per file or link, its states since its last flush, oldest first.
    var files: [UInt64: [MemoryNode.Durable]] = [:]
    /// What each item looked like when the journal last looked (the end of the last call).
    var seen: [UInt64: MemoryNode.Durable] = [:]
    /// Folders flushed during the current call.
    var flushedFolders: Set<UInt64> = []
}

extension MemoryNode.Durable: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.content == rhs.content && lhs.children == rhs.children && lhs.permissions == rhs.permissions
            && lhs.modified == rhs.modified
    }
}

extension MemoryNode {
    /// The state a flush would make durable now.
    var current: Durable { Durable(content: content, children: children, permissions: permissions, modified: modified) }
}

extension MemoryTree {
    /// Adds what the last call changed to the journal (called after every call while a
    /// selection other than ``PowerLossSelection/flushedOnly`` is set).
    mutating func recordJournal() {
        guard var journal else { return }
        var call: [MemoryJournal.NameChange] = []
        let flushed = journal.flushedFolders
        journal.flushedFolders = []
        for (inode, node) in nodes {
            let now = node.current
            if node.isDirectory ? flushed.contains(inode) : now == node.durable {
                // Flushed (or a file never changed): nothing of it can be lost any more. A folder
                // whose names only came back to their durable state is not: the change back is
                // journaled like any other, or a commit of the earlier change would stand alone
                // (a name moved out and back, then a flush elsewhere, would lose the item).
                if !node.isDirectory { journal.files[inode] = nil }
                journal.seen[inode] = now
                continue
            }
            let before = journal.seen[inode] ?? node.durable
            guard now != before else { continue }
            if node.isDirectory {
                for (name, child) in now.children where before.children[name] != child {
                    call.append(.init(folder: inode, name: name, inode: child))
                }
                for name in before.children.keys where now.children[name] == nil {
                    call.append(.init(folder: inode, name: name, inode: nil))
                }
            } else {
                journal.files[inode, default: []].append(now)
            }
            journal.seen[inode] = now
        }
        if !flushed.isEmpty, powerLossModel == .perItem {
            // A folder's flush makes its own names durable and nothing else: what the journal
            // held of it is history now, and a cut keeping an older change must not undo it.
            journal.calls = journal.calls.map { $0.filter { !flushed.contains($0.folder) } }.filter { !$0.isEmpty }
        } else if !flushed.isEmpty,
            let last = journal.calls.lastIndex(where: { $0.contains { flushed.contains($0.folder) } })
        {
            // A folder's flush commits the journal up to its last change, as a journaling file
            // system's commit does: every earlier call's changes are durable too, whole.
            for change in journal.calls[...last] {
                for name in change where !flushed.contains(name.folder) && nodes[name.folder] != nil {
                    nodes[name.folder]!.durable.children[name.name] = name.inode
                }
            }
            journal.calls.removeSubrange(...last)
        }
        if !call.isEmpty {
            call.sort { $0.folder != $1.folder ? $0.folder < $1.folder : $0.name.lexicographicallyPrecedes($1.name) }
            journal.calls.append(call)
        }
        self.journal = journal
    }

    /// Keeps the part of the journal `selection` picks, as the durable state of every item.
    ///
    /// - Returns: What the cut could have kept and what it kept.
    mutating func applyJournal(_ selection: PowerLossSelection) -> PowerCutReport {
        let journal = self.journal ?? MemoryJournal()
        var generator = SplitMix64(seed: { if case .seeded(let seed) = selection { seed } else { 0 } }())
        var index: Int = { if case .combination(let index) = selection { index } else { 0 } }()
        var report = PowerCutReport(unflushedChanges: 0, keptChanges: 0, combinations: 1)
        func multiply(_ radix: Int) {
            let (product, overflow) = report.combinations.multipliedReportingOverflow(by: radix)
            report.combinations = overflow ? Int.max : product
        }
        // Folder names: each call's changes kept or lost whole, applied in order.
        for change in journal.calls {
            report.unflushedChanges += 1
            multiply(2)
            let keep: Bool
            switch selection {
            case .flushedOnly: keep = false
            case .everything: keep = true
            case .seeded: keep = generator.next() & 1 == 1
            case .combination:
                keep = index & 1 == 1
                index >>= 1
            }
            guard keep else { continue }
            report.keptChanges += 1
            report.keptNameChanges += 1
            for name in change where nodes[name.folder] != nil {
                nodes[name.folder]!.durable.children[name.name] = name.inode
            }
        }
        // Files: a prefix of each one's states.
        for inode in journal.files.keys.sorted() {
            guard let states = journal.files[inode], !states.isEmpty, nodes[inode] != nil else { continue }
            report.unflushedChanges += states.count
            let radix = states.count + 1
            multiply(radix)
            let kept: Int
            switch selection {
            case .flushedOnly: kept = 0
            case .everything: kept = states.count
            case .seeded: kept = Int(generator.next() % UInt64(radix))
            case .combination:
                kept = index % radix
                index /= radix
            }
            report.keptChanges += kept
            if kept > 0 {
                var durable = states[kept - 1]
                durable.children = nodes[inode]!.durable.children
                nodes[inode]!.durable = durable
            }
        }
        self.journal = MemoryJournal()
        return report
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the same seed gives the
/// same sequence on every platform, so a randomized test sees the same cases in every run.
///
/// ```swift
/// var random = SplitMix64(seed: 7)
/// let size = Int.random(in: 0..<100, using: &random)   // the same number every run
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var base: SeededGenerator

    /// Creates the generator of `seed`'s sequence.
    public init(seed: UInt64) { base = SeededGenerator(seed: seed) }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 { base.next() }
}
