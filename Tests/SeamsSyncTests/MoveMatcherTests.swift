import Foundation
import Seams
import Testing

@testable import SeamsSync

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
        let plan = plan(
            archive: archive(["a": a, "k": Fixtures.file(1, at: 1, id: 2)]),
            local: ["b": a, "k": Fixtures.file(1, at: 1, id: 2)],
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
        let plan = plan(
            archive: archive(["a": a, "k": Fixtures.file(1, at: 1, id: 2)]),
            local: ["b": Fixtures.file(6, at: 100, id: 41), "k": Fixtures.file(1, at: 1, id: 2)],
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
        let plan = plan(
            archive: archive(["F": folder, "F/x": x]), local: ["G": folder, "G/x": x],
            container: ["F": folder, "F/x": edited])
        #expect(plan.moves.map(\.to) == [SyncPath("G")])
        #expect(plan.entry(at: SyncPath("G/x"))?.decision == .propagate(from: .container))
        #expect(plan.entry(at: SyncPath("G/x"))?.container == edited)
    }

    @Test("no move into the moved item itself, by case only, or where the other side has the new name")
    func refused() {
        let folder = Fixtures.folder(id: 9)
        let a = Fixtures.file(5, at: 100, id: 41)
        let k = Fixtures.file(1, at: 1, id: 2)
        #expect(
            plan(archive: archive(["a": a, "k": k]), local: ["A": a, "k": k], container: ["a": a, "k": k]).moves.isEmpty
        )
        #expect(
            plan(
                archive: archive(["a": a, "k": k]), local: ["b": a, "k": k],
                container: ["a": a, "b": Fixtures.file(3, at: 9, id: 5), "k": k]
            ).moves.isEmpty)
        #expect(
            plan(
                archive: archive(["F": folder, "k": k]), local: ["X": folder, "k": k],
                container: ["F": Fixtures.file(1, at: 5, id: 9), "k": k]
            ).moves.isEmpty,
            "the other side no longer has a folder there")
        #expect(
            plan(archive: archive(["a": a, "k": k]), local: ["d/b": a, "k": k], container: ["a": a, "k": k]).moves
                .isEmpty,
            "the new folder is not in the scan, so the move has nowhere to go")
    }

    @Test("a state without identities finds no move")
    func withoutIdentities() {
        let a = Fixtures.file(5, at: 100, id: 41)
        let plan = plan(archive: Fixtures.archive(["a": a]), local: ["b": a], container: ["a": a])
        #expect(plan.moves.isEmpty)
    }

    @Test(
        "a chain (b to c, then a to b): both moves, the end first; a swap: one item out to the trash, the other moved, then the first back"
    )
    func chainAndSwap() {
        let (a, b, k) = (
            Fixtures.file(1, at: 10, id: 1), Fixtures.file(2, at: 20, id: 2), Fixtures.file(3, at: 30, id: 3)
        )
        let chain = plan(
            archive: archive(["a": a, "b": b, "k": k]), local: ["b": a, "c": b, "k": k],
            container: ["a": a, "b": b, "k": k])
        #expect(chain.moves.map { "\($0.from.rawValue)>\($0.to.rawValue)" } == ["b>c", "a>b"])
        #expect(chain.moves.allSatisfy { $0.step == .whole && $0.replacing == nil && $0.madeOn == .container })
        #expect(chain.entries.allSatisfy { $0.decision == .nothing }, "\(chain.entries)")
        let swap = plan(
            archive: archive(["a": a, "b": b, "k": k]), local: ["a": b, "b": a, "k": k],
            container: ["a": a, "b": b, "k": k])
        #expect(
            swap.moves.map { "\($0.step) \($0.from.rawValue)>\($0.to.rawValue)" } == [
                "out b>a", "whole a>b", "back b>a",
            ], "the cycle starts at its smallest new path")
        #expect(swap.entries.allSatisfy { $0.decision == .nothing })
        #expect(swap.container.items[SyncPath("a")] == b && swap.container.items[SyncPath("b")] == a)
    }

    @Test("a file moved over another: one move that replaces it; with the other side's copy of it edited, no move")
    func moveOverAnother() {
        let (a, b, k) = (
            Fixtures.file(1, at: 10, id: 1), Fixtures.file(2, at: 20, id: 2), Fixtures.file(3, at: 30, id: 3)
        )
        let over = plan(
            archive: archive(["a": a, "b": b, "k": k]), local: ["b": a, "k": k], container: ["a": a, "b": b, "k": k])
        #expect(
            over.moves == [
                PlannedMove(madeOn: .container, from: SyncPath("a"), to: SyncPath("b"), item: a, replacing: b)
            ])
        let edited = Fixtures.file(9, at: 90, id: 2)
        let notOver = plan(
            archive: archive(["a": a, "b": b, "k": k]), local: ["b": a, "k": k],
            container: ["a": a, "b": edited, "k": k])
        #expect(notOver.moves.isEmpty)
    }

    @Test(
        "a server folder (no identity) gone and one new holding the same names and tags: one move; another name inside, none"
    )
    func folderByContent() {
        func served(_ size: Int64, tag: UInt64) -> FileMetadata {
            FileMetadata(
                kind: .file, size: size, modificationDate: Date(timeIntervalSince1970: 50), permissions: 0o644,
                fileIdentifier: tag, contentTag: tag)
        }
        let collection = FileMetadata(
            kind: .directory, size: 0, modificationDate: Date(timeIntervalSince1970: 0), permissions: 0o755,
            fileIdentifier: 0)
        let (x, y) = (Fixtures.file(4, at: 50, id: 11), Fixtures.file(5, at: 50, id: 12))
        let (sx, sy) = (served(4, tag: 0xAB), served(5, tag: 0xCD))
        var archive = Archive(localRoot: "/l", containerRoot: "/c")
        archive.entries[SyncPath("F")] = Archive.Entry(synced: Fixtures.folder(id: 9), collection)
        archive.entries[SyncPath("F/x")] = Archive.Entry(synced: x, sx)
        archive.entries[SyncPath("F/y")] = Archive.Entry(synced: y, sy)
        let local = ["F": Fixtures.folder(id: 9), "F/x": x, "F/y": y]
        let moved = plan(archive: archive, local: local, container: ["G": collection, "G/x": sx, "G/y": sy])
        #expect(moved.moves.map { "\($0.madeOn) \($0.from.rawValue)>\($0.to.rawValue)" } == ["local F>G"])
        #expect(moved.entries.allSatisfy { $0.decision == .nothing })
        let renamedInside = plan(archive: archive, local: local, container: ["G": collection, "G/x": sx, "G/z": sy])
        #expect(!renamedInside.moves.contains { $0.to == SyncPath("G") })
        #expect(renamedInside.moves.map(\.to) == [SyncPath("G/x"), SyncPath("G/z")], "its files, one by one")
    }
}
