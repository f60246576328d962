import Foundation
import Seams
import SeamsCore
import Testing

/// The system's watcher on real folders: what it reports, and the folders it watches as they come.
@Suite struct InotifyEventSourceTests {
    let root = FileManager.default.temporaryDirectory.appending(
        path: "seams-watch-\(UUID().uuidString)", directoryHint: .isDirectory)

    /// Events until `condition` holds for what came so far (up to a minute: events come when
    /// the kernel delivers them).
    func collect(_ watch: any FileEventWatching, until condition: (FileEvents) -> Bool) -> FileEvents {
        var seen = FileEvents()
        let deadline = Date().addingTimeInterval(60)
        while !condition(seen), Date() < deadline { seen.formUnion(watch.next(waitingAtMost: .milliseconds(200))) }
        return seen
    }

    func write(_ text: String, _ path: String) throws {
        let url = root.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test(
        "a file written names its folder; a folder made is a new tree, watched at once; a folder moved names both parents"
    )
    func reportsChanges() throws {
        try write("x", "a/b/old.txt")
        try write("x", "skip/inner/f.txt")
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = try DefaultFileEventSource().watch([root]) { _, folder in folder == "skip" }
        defer { watch.close() }

        try write("new", "a/b/new.txt")
        var seen = collect(watch) { $0.changes[0]?.folders.contains("a/b") == true }
        #expect(seen.changes[0]?.folders == ["a/b"])

        try FileManager.default.createDirectory(at: root.appending(path: "a/made"), withIntermediateDirectories: false)
        seen = collect(watch) { $0.changes[0]?.trees.contains("a/made") == true }
        #expect(seen.changes[0]?.folders.contains("a") == true)
        // The new folder is watched: a file written in it later is reported by its folder.
        try write("later", "a/made/later.txt")
        seen = collect(watch) { $0.changes[0]?.folders.contains("a/made") == true }
        #expect(seen.changes[0]?.folders.contains("a/made") == true)

        try FileManager.default.moveItem(at: root.appending(path: "a/b"), to: root.appending(path: "moved"))
        seen = collect(watch) {
            ($0.changes[0]?.folders.isSuperset(of: ["a", ""]) ?? false)
                && $0.changes[0]?.trees.contains("moved") == true
        }
        #expect(seen.changes[0]?.folders.isSuperset(of: ["a", ""]) == true)
        #expect(seen.changes[0]?.trees.contains("moved") == true)
        // Watches follow the move: a write under the new name is reported by it.
        try write("after", "moved/after.txt")
        seen = collect(watch) { $0.changes[0]?.folders.contains("moved") == true }
        #expect(seen.changes[0]?.folders.contains("moved") == true)

        // A folder left out is not watched: a write in it, then one outside, reports only the latter.
        try write("ignored", "skip/inner/g.txt")
        try write("seen", "a/seen.txt")
        seen = collect(watch) { $0.changes[0]?.folders.contains("a") == true }
        #expect(seen.changes[0]?.folders == ["a"])
    }

    @Test("the watched folder removed: its events are lost for good, said so")
    func rootRemoved() throws {
        try write("x", "f.txt")
        let watch = try DefaultFileEventSource().watch([root]) { _, _ in false }
        defer { watch.close() }
        try FileManager.default.removeItem(at: root)
        let seen = collect(watch) { $0.unwatched.contains(0) }
        #expect(seen.unwatched == [0])
        #expect(seen.reason.contains("removed"))
    }

    @Test("the tool's own items are not changes")
    func ownItemsLeftOut() throws {
        try write("x", "f.txt")
        try write("x", "d/g.txt")
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = try DefaultFileEventSource().watch([root]) { _, _ in false }
        defer { watch.close() }
        try write("tmp", ".seams-tmp-abc-1")
        try write("trash", ".seams-trash/x.txt")
        try write("rules", "d/.seamsignore")
        let seen = collect(watch) { $0.changes[0]?.folders.contains("d") == true }
        // The rules file is the user's: its folder changed; the temp file and the trash are not.
        #expect(seen.changes[0]?.folders == ["d"])
        #expect(seen.changes[0]?.trees.isEmpty == true)
    }

    /// A source whose kernel refuses a watch past `limit` watches (ENOSPC, as at
    /// `fs.inotify.max_user_watches`), and refuses `refused` paths with `EACCES`.
    func limitedSource(_ limit: Int, refusing refused: Set<String> = []) -> DefaultFileEventSource {
        let added = LockedValue(0)
        return DefaultFileEventSource { instance, path, mask in
            if refused.contains(path) { return -EACCES }
            let allowed = added.withLock { count in
                count += 1
                return count <= limit
            }
            return allowed ? DefaultFileEventSource.systemAddWatch(instance, path, mask) : -ENOSPC
        }
    }

    func expectLimitReason(_ reason: String?) throws {
        let limit = try String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(reason?.contains("fs.inotify.max_user_watches = \(limit)") == true, "\(reason ?? "no reason")")
        #expect(reason?.contains("sudo sysctl fs.inotify.max_user_watches=1048576") == true)
    }

    @Test(
        "the watch limit reached at the start: that root is reported unwatched, with the limit and the sysctl that raises it"
    )
    func watchLimitAtStart() throws {
        for folder in ["a/b", "c", "d"] { try write("x", folder + "/f.txt") }
        let other = root.appending(path: "other-root")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        // Roots are watched in order: the tree (six folders, other-root among them) takes the
        // three watches allowed and runs out; other-root, the second root, gets none.
        let watch = try limitedSource(3).watch([root, other]) { _, _ in false }
        defer { watch.close() }
        let events = watch.next(waitingAtMost: .zero)
        #expect(events.unwatched.contains(0))
        #expect(events.unwatched.contains(1), "the second root found the limit reached too")
        try expectLimitReason(events.reason)
    }

    @Test("the watch limit reached by a folder made later: the root is reported unwatched then, with the sysctl")
    func watchLimitLater() throws {
        try write("x", "a/f.txt")
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = try limitedSource(2).watch([root]) { _, _ in false }  // the root and a
        defer { watch.close() }
        #expect(watch.next(waitingAtMost: .zero).unwatched.isEmpty)
        try FileManager.default.createDirectory(at: root.appending(path: "a/new"), withIntermediateDirectories: false)
        let seen = collect(watch) { !$0.unwatched.isEmpty }
        #expect(seen.unwatched == [0])
        try expectLimitReason(seen.reason)
    }

    @Test(
        "a root that cannot be watched is reported unwatched with the system's reason; a subfolder that cannot is left to the scan"
    )
    func rootRefused() throws {
        try write("x", "a/f.txt")
        defer { try? FileManager.default.removeItem(at: root) }
        let refusedRoot = try limitedSource(100, refusing: [root.path]).watch([root]) { _, _ in false }
        let events = refusedRoot.next(waitingAtMost: .zero)
        refusedRoot.close()
        #expect(events.unwatched == [0])
        #expect(events.reason == "\(root.path) cannot be watched: \(String(cString: strerror(EACCES)))")
        let sub = root.appending(path: "a").path
        let refusedSub = try limitedSource(100, refusing: [sub]).watch([root]) { _, _ in false }
        defer { refusedSub.close() }
        #expect(refusedSub.next(waitingAtMost: .zero).unwatched.isEmpty)
        try write("y", "b.txt")
        #expect(collect(refusedSub) { $0.changes[0]?.folders.contains("") == true }.changes[0]?.folders == [""])
    }
}
