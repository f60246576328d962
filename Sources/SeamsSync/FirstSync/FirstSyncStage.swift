import Foundation
import SeamsCore

/// A first sync of two folders (no state yet) in passes, so that a million files take the memory
/// of one pass, not of a million plan entries.
///
/// Each side is walked in path order (``TreeWalker``). A pass takes the next paths of either
/// side, up to ``passItems``, and runs them through the stages a whole run uses: the sides
/// settled (``ScanStage/settle(_:_:learned:)``), planned and applied. A path is in one pass on
/// both sides, so a pass sees each path whole. The entries each pass records are added to the new
/// state in path order as the passes go, and the state is committed once, by the caller, after
/// the last. A run that stops early commits what its passes did: a path the state leaves out is
/// new on both sides to the next run, as it was to this one, and is compared by content there.
///
/// With no state there is nothing to delete and nothing moved: a pass needs no other pass's paths.
struct FirstSyncStage {
    /// The paths a pass takes at most: a few MiB of plan, snapshots and copy queue.
    static let passItems = 10_000

    let run: SyncRun
    let scan: ScanStage
    let apply: ApplyStage
    let progress: @Sendable (SyncProgress) -> Void
    var passItems = Self.passItems

    /// What the passes did.
    struct Done {
        var archive: Archive
        var report: SyncReport
        var commitNeeded: Bool
        /// The passes' paths with the tool's own names, sorted.
        var reserved: [SyncPath]
        /// The paths the rules left out, sorted.
        var ignored: [SyncPath]
    }

    /// Runs the passes from `archive`, which has no entries.
    @available(*, noasync, message: "blocks its thread for the whole run")
    func callAsFunction(from archive: Archive, mustCommit: Bool) throws -> Done {
        precondition(archive.entries.isEmpty, "a first sync starts without a state")
        let rules = try IgnoreRules(defaults: run.options.defaultExcludes, excludes: run.options.excludes)
        var walkers = try Side.allCases.map { side in
            let replica = run.replica(side)
            do {
                return try TreeWalker(
                    root: replica.root, directories: replica.directories, files: replica.files, rules: rules)
            } catch let error as SyncError {
                throw error
            } catch {
                throw SyncError.folderNotAvailable(replica.root)
            }
        }
        var done = Done(archive: archive, report: SyncReport(), commitNeeded: mustCommit, reserved: [], ignored: [])
        var state = StateInPathOrder(of: archive, replica: apply.prepared.check.next)
        // Progress counts on over the passes: the items found while the first pass is read, then
        // the paths and bytes done of those planned so far.
        var (pathsBefore, bytesBefore): (Int, Int64) = (0, 0)
        var firstPass = true
        while true {
            if run.shouldStop() {
                // Before anything was done, as a scan stops; after a pass, with what the passes did.
                guard !firstPass else { throw SyncError.interrupted }
                done.report.interruption = .init(done: pathsBefore, total: pathsBefore)
                break
            }
            var sides = [Snapshot(), Snapshot()]
            var taken = 0
            var next: SyncPath?
            while true {
                let items = [walkers[0].peek(), walkers[1].peek()]
                guard let first = items.compactMap({ $0?.path }).min() else { break }
                if taken >= passItems {
                    next = first
                    break
                }
                for index in items.indices where items[index]?.path == first {
                    sides[index].items[first] = items[index]!.item
                    try walkers[index].take()
                }
                taken += 1
                if firstPass, taken % 256 == 0 {
                    progress(
                        .init(phase: .scanning, completed: walkers[0].listedCount + walkers[1].listedCount, total: 0))
                }
            }
            if firstPass {
                progress(.init(phase: .scanning, completed: walkers[0].listedCount + walkers[1].listedCount, total: 0))
                firstPass = false
            }
            for index in sides.indices {
                let noted = walkers[index].takeNoted(before: next)
                sides[index].rules = noted.rules
                sides[index].leftovers = noted.leftovers
                sides[index].reserved = noted.reserved
                sides[index].ignored = noted.ignored
                sides[index].unreadableFolders = noted.unreadableFolders
            }
            let scanned = try scan.settle(sides[0], sides[1], learned: [])
            let plan = try PlanStage(
                options: run.options, containerDatedByServer: run.can(.container, [.contentTags, .datedByServer]))(
                    archive: archive, scanned: scanned)
            var apply = self.apply
            let (progress, paths, bytes) = (self.progress, pathsBefore, bytesBefore)
            apply.progress = { pass in
                progress(
                    .init(
                        phase: .applying, completed: paths + pass.completed, total: paths + pass.total,
                        bytesCompleted: bytes + pass.bytesCompleted, bytesTotal: bytes + pass.bytesTotal))
            }
            let applied = try apply(plan, archive: archive, mustCommit: done.commitNeeded)
            done.commitNeeded = done.commitNeeded || applied.commitNeeded
            done.report.add(applied.report)
            if let stopped = applied.report.interruption {
                done.report.interruption = .init(done: pathsBefore + stopped.done, total: pathsBefore + stopped.total)
            }
            pathsBefore += plan.pathCount
            bytesBefore += plan.entries.reduce(0) { $0 + Applier.plannedBytes($1) }
            done.reserved += scanned.reserved
            done.ignored += scanned.ignored
            for (path, entry) in applied.archive.entries { state.add(entry, at: path, before: next) }
            if applied.report.interruption != nil || next == nil { break }
        }
        done.archive.entries = state.finish()
        return done
    }
}

/// The new state as the passes make it: entries in path order appended to the state file's
/// bytes as they come (``ArchiveCodec/StreamedEncoding``), and the few outside their pass's range
/// held apart until the end (a conflict copy, whose name sorts before its file's, or after the
/// items of the folder it stands beside).
private struct StateInPathOrder: ~Copyable {
    private var encoding: ArchiveCodec.StreamedEncoding
    private var last: SyncPath?
    private var apart: [SyncPath: Archive.Entry] = [:]

    /// A state for `archive`'s roots and `replica`.
    init(of archive: Archive, replica: ReplicaIdentity) {
        var archive = archive
        archive.replica = replica
        encoding = ArchiveCodec.StreamedEncoding(of: archive)
    }

    /// Adds the entry a pass recorded; `next` is where the next pass starts (`nil` after the last).
    mutating func add(_ entry: Archive.Entry, at path: SyncPath, before next: SyncPath?) {
        if let last, path <= last {
            apart[path] = entry
        } else if let next, path >= next {
            apart[path] = entry
        } else {
            encoding.append(path, entry)
            last = path
        }
    }

    consuming func finish() -> ArchiveEntries {
        var entries = ArchiveEntries(table: encoding.finish())
        for (path, entry) in apart { entries[path] = entry }
        return entries
    }
}

extension SyncReport {
    /// Adds what another part of the same run did.
    mutating func add(_ part: SyncReport) {
        copiedToLocal += part.copiedToLocal
        copiedToContainer += part.copiedToContainer
        foldersCreated += part.foldersCreated
        deletedLocal += part.deletedLocal
        deletedContainer += part.deletedContainer
        inSync += part.inSync
        moves += part.moves
        rulesChanged = Array(Set(rulesChanged + part.rulesChanged)).sorted()
        conflicts += part.conflicts
        failures += part.failures
        skipped += part.skipped
        planned += part.planned
        interruption = part.interruption
    }
}
