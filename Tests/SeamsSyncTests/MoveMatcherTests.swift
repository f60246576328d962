import Foundation
import Seams
@testable import SeamsSync
import Testing

/// The move rules as plain values: which gone and new paths pair up, and which do not.
@Suite struct MoveMatcherTests {
    /// An archive where each path looked like `item` on both sides, with its identity on both.
    func archive(_ items: [String: FileMetadata]) -> Archive {
        var archive = Archive(localRoot: "/l", containerRoot: "/c")
        for (path, item) in items {
            archive.entries[SyncPath(path)] = Archive.Entry(synced: item, item)
        }
        return archive
    }

    func plan(archive: Archive, local: [String: FileMetadata], container: [String: FileMetadata]) -> SyncPlan {
        Reconciler().plan(archive: archive, local: Fixtures.snapshot(local), container: Fixtures.snapshot(container))
    }

    @Test("a file at a new path with the identity and stamp the archive recorded at a gone one is one move")
    func plainMove() {
        let a = Fixtures.file(5, at: 100, id: 41)
        let plan = plan(archive: archive(["a": a, "k": Fixtures.file(1, at: 1, id: 2)]), local: ["b": a, "k": Fixtures.file(1, at: 1, id: 2)],
                        container: ["a": a, "k": Fixtures.file(1, at: 1, id: 2)])
        #expect(plan.moves == [PlannedMove(madeOn: .container, from: SyncPath("a"), to: SyncPath("b"), item: a)])
        #expect(plan.entry(at: SyncPath("a")) == nil, "the old path's row became the new one's")
        #expect(plan.entry(at: SyncPath("b"))?.decision == .nothing)
        #expect(plan.container.items[SyncPath("b")] == a && plan.container.items[SyncPath("a")] == nil)
        #expect(plan.deletions(on: .container) == 0)
    }

    @Test("the same identity with another stamp is not the same file: deleted and copied")
    func stampDiffers() {
        let a = Fixtures.file(5, at: 100, id: 41)
        let plan = plan(archive: archive(["a": a, "k": Fixtures.file(1, at: 1, id: 2)]), local: ["b": Fixtures.file(6, at: 100, id: 41), "k": Fixtures.file(1, at: 1, id: 2)],
                        container: ["a": a, "k": Fixtures.file(1, at: 1, id: 2)])
        #expect(plan.moves.isEmpty)
        #expect(plan.entry(at: SyncPath("a"))?.decision == .propagate(from: .local))
        #expect(plan.entry(at: SyncPath("b"))?.decision == .propagate(from: .local))
    }

    @Test("two gone and two new with one identity pair by name; names that differ are not guessed")
    func ambiguous() {
        let x = Fixtures.file(5, at: 100, id: 41)
        let byName = plan(
            archive: archive(["F/x": x, "F/y": x]), local: ["G/x": x, "G/y": x, "G": Fixtures.folder(id: 77)],
            container: ["F/x": x, "F/y": x])
        #expect(Set(byName.moves.map(\.to)) == [SyncPath("G/x"), SyncPath("G/y")])
        let renamed = plan(
            archive: archive(["F/x": x, "F/y": x]), local: ["G/p": x, "G/q": x, "G": Fixtures.folder(id: 77)],
            container: ["F/x": x, "F/y": x])
        #expect(renamed.moves.isEmpty)
    }

    @Test("a folder moved with an edit inside on the other side: one move, and the edit decided at the new path")
    func folderWithEdit() throws {
        let folder = Fixtures.folder(id: 9)
        let x = Fixtures.file(5, at: 100, id: 41)
        let edited = Fixtures.file(8, at: 200, id: 41)
        let plan = plan(archive: archive(["F": folder, "F/x": x]), local: ["G": folder, "G/x": x], container: ["F": folder, "F/x": edited])
        #expect(plan.moves.map(\.to) == [SyncPath("G")])
        #expect(plan.entry(at: SyncPath("G/x"))?.decision == .propagate(from: .container))
        #expect(plan.entry(at: SyncPath("G/x"))?.container == edited)
    }

    @Test("no move into the moved item itself, by case only, or where the other side has the new name")
    func refused() {
        let folder = Fixtures.folder(id: 9)
        let a = Fixtures.file(5, at: 100, id: 41)
        let k = Fixtures.file(1, at: 1, id: 2)
        #expect(plan(archive: archive(["a": a, "k": k]), local: ["A": a, "k": k], container: ["a": a, "k": k]).moves.isEmpty)
        #expect(plan(archive: archive(["a": a, "k": k]), local: ["b": a, "k": k], container: ["a": a, "b": Fixtures.file(3, at: 9, id: 5), "k": k]).moves.isEmpty)
        #expect(plan(archive: archive(["F": folder, "k": k]), local: ["X": folder, "k": k], container: ["F": Fixtures.file(1, at: 5, id: 9), "k": k]).moves.isEmpty,
                "the other side no longer has a folder there")
        #expect(plan(archive: archive(["a": a, "k": k]), local: ["d/b": a, "k": k], container: ["a": a, "k": k]).moves.isEmpty,
                "the new folder is not in the scan, so the move has nowhere to go")
    }

    @Test("a state without identities finds no move")
    func withoutIdentities() {
        let a = Fixtures.file(5, at: 100, id: 41)
        let plan = plan(archive: Fixtures.archive(["a": a]), local: ["b": a], container: ["a": a])
        #expect(plan.moves.isEmpty)
    }
}
