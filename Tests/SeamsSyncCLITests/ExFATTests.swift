import Foundation
import Testing

/// A real exFAT file system (what most USB sticks and SD cards hold), mounted with FUSE on a loop
/// device: no hard links, no `renameat2` flags, timestamps in 10 ms steps.
///
/// Needs root, `/dev/fuse`, a free loop device and Debian's `exfatprogs` and `exfat-fuse`
/// (`.ci/run` installs them). Where it cannot mount, the suite is skipped and says so; the crash
/// suite covers the same engine paths on the fake without hard links either way.
///
/// exfat-fuse (1.3 and 1.4) frees a removed or replaced file at once, and aborts (`unable to
/// cleanup a node with 1 references`, in syslog) when the file is still open; the mount is then
/// dead and every call on it fails with `ECONNABORTED`. A file this process closed can still be
/// open: a process started meanwhile by any thread (`Process` forks with `posix_spawn`) holds a
/// copy of every descriptor until it has closed them all and runs its program. On a busy machine
/// that took long enough for the next call, a rename over the file, to reach the driver first,
/// about one run in five of the case-folding suite beside four busy loops. ``settle()`` waits for
/// such processes before each call on the volume.
final class ExFATVolume: Sendable {
    let mountPoint: URL
    private let image: URL
    private let device: String

    /// Whether an exFAT volume can be mounted here (checked once, by mounting one).
    static let available = (try? ExFATVolume(in: FileManager.default.temporaryDirectory, label: "probe")) != nil

    /// Makes a 64 MiB image in `folder`, formats it and mounts it at `folder/<label>`.
    init(in folder: URL, label: String) throws {
        image = folder.appending(path: "seams-exfat-\(label)-\(UUID().uuidString).img")
        mountPoint = folder.appending(path: "seams-exfat-\(label)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: image.path, contents: nil)
        let handle = try FileHandle(forWritingTo: image)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        do {
            try Self.run("/usr/sbin/mkfs.exfat", [image.path])
            device = try Self.run("/usr/sbin/losetup", ["-f", "--show", image.path])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            try? FileManager.default.removeItem(at: image)
            try? FileManager.default.removeItem(at: mountPoint)
            throw error
        }
        do {
            // The helper leaves a daemon behind. It must not inherit this process's descriptors:
            // `Process` learns that a child ended when the last copy of one of them closes.
            let closeAndMount = """
                for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
                exec /usr/sbin/mount.exfat-fuse "$0" "$1" </dev/null >/dev/null 2>&1
                """
            try Self.run("/bin/bash", ["-c", closeAndMount, device, mountPoint.path])
        } catch {
            _ = try? Self.run("/usr/bin/umount", [mountPoint.path])
            _ = try? Self.run("/usr/sbin/losetup", ["-d", device])
            try? FileManager.default.removeItem(at: image)
            try? FileManager.default.removeItem(at: mountPoint)
            throw error
        }
    }

    deinit {
        // A driver that died leaves its mount behind; a lazy unmount takes it away all the same.
        if (try? Self.run("/usr/bin/umount", [mountPoint.path])) == nil {
            _ = try? Self.run("/usr/bin/umount", ["-l", mountPoint.path])
        }
        _ = try? Self.run("/usr/sbin/losetup", ["-d", device])
        try? FileManager.default.removeItem(at: image)
        try? FileManager.default.removeItem(at: mountPoint)
    }

    /// Returns once no process this one started is still running this one's program: every one
    /// has closed the descriptors it was born with (`Process` closes them all before `exec`), so
    /// the files this process closed are closed for the driver too.
    ///
    /// Waits at most a minute for a process that never runs a program of its own.
    func settle() {
        let me = getpid()
        let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(
                Int32.init
            ).filter { pid in
                guard pid != me, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let name = stat.lastIndex(of: ")")
                else { return false }
                let fields = stat[stat.index(after: name)...].split(separator: " ")  // state, parent, ...
                return fields.count > 1 && Int32(fields[1]) == me
            }
            let starting = children.contains { pid in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == program
            }
            if !starting { return }
            usleep(500)
        }
    }

    struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool, its output to a file; returns standard output, throws on a non-zero exit.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw CommandFailed(description: "\(tool) missing")
        }
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        let output = FileManager.default.temporaryDirectory.appending(path: "seams-exfat-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw CommandFailed(
                description: "\(tool) \(arguments.joined(separator: " ")): exit \(process.terminationStatus): \(text)")
        }
        return text
    }
}

extension ExFATVolume {
    /// `seams-sync sync` of the workspace's local folder with this volume, once it has settled.
    func sync(_ w: Workspace) throws -> CLI.Result {
        settle()
        return try CLI.run(["sync", w.local.path, mountPoint.path, "--state-dir", w.state.path])
    }
}

@Suite(
    .enabled(if: ExFATVolume.available, "needs root, FUSE, a loop device, a writable /sys, exfatprogs and exfat-fuse"))
struct ExFATTests {
    @Test("a container on exFAT: first sync, edits both ways, a delete, a conflict, nothing lost")
    func syncOntoExFAT() throws {
        let w = try Workspace()
        let stick = try ExFATVolume(in: w.base, label: "stick")
        defer { withExtendedLifetime(stick) {} }  // mounted until the end of the test
        let container = stick.mountPoint
        func sync() throws -> CLI.Result {
            try stick.sync(w)
        }
        try w.write("one", "a.txt", in: w.local, age: 60)
        try w.write("two", "docs/b.txt", in: w.local, age: 60)
        try w.write("three", "c.txt", in: w.local, age: 60)

        var result = try sync()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(w.tree(container) == w.tree(w.local))
        result = try sync()
        #expect(result.status == 0)
        #expect(
            result.stdout.contains("0 to container, 0 to local"), "a second run finds nothing to do: \(result.stdout)")

        try w.write("one, edited locally", "a.txt", in: w.local)
        try FileManager.default.removeItem(at: container.appending(path: "docs/b.txt"))
        try w.write("three, local", "c.txt", in: w.local, age: 20)
        try w.write("three, stick", "c.txt", in: container, age: 10)
        result = try sync()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(w.read("a.txt", in: container) == "one, edited locally")
        #expect(w.trashed(container)["a.txt"] == "one", "the replaced version, copied into the stick's trash")
        #expect(w.read("docs/b.txt", in: w.local) == nil)
        #expect(w.trashed(w.local)["docs/b.txt"] == "two")
        #expect(w.read("c.txt", in: container) == "three, stick")
        let copies = w.tree(container).filter { $0.key.hasPrefix("c.sync-conflict-") }
        #expect(copies.values.sorted() == ["three, local"], "\(w.tree(container))")
        #expect(w.tree(container) == w.tree(w.local))
        let own = try FileManager.default.contentsOfDirectory(atPath: container.path).filter { $0.hasPrefix(".seams") }
        #expect(own.sorted() == [".seams-replica", ".seams-trash"], "no lock or temp file left: \(own)")
    }

    @Test("a symbolic link cannot go onto exFAT: skipped and said so every run, exit 0, nothing deleted on either side")
    func linkOntoExFAT() throws {
        let w = try Workspace()
        let stick = try ExFATVolume(in: w.base, label: "links")
        defer { withExtendedLifetime(stick) {} }
        let container = stick.mountPoint
        try w.write("one", "a.txt", in: w.local, age: 60)
        try FileManager.default.createSymbolicLink(
            atPath: w.local.appending(path: "latest").path, withDestinationPath: "a.txt")
        for run in 1...2 {
            let result = try stick.sync(w)
            #expect(result.status == 0, "run \(run): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("skipped: latest: a symbolic link"), "run \(run): \(result.stdout)")
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: w.local.appending(path: "latest").path)
                    == "a.txt")
            #expect(w.read("a.txt", in: container) == "one")
            #expect(w.trashed(w.local).isEmpty && w.trashed(container).isEmpty, "run \(run): nothing deleted")
            let names = try FileManager.default.contentsOfDirectory(atPath: container.path).filter {
                !$0.hasPrefix(".seams")
            }
            #expect(names == ["a.txt"], "run \(run): no temp file or half link left: \(names)")
        }
    }

    @Test("names exFAT cannot hold apart (a.txt and A.txt, Docs/ and docs/) fail alone every run; no copies pile up")
    func namesThatDifferOnlyInCase() throws {
        let w = try Workspace()
        let stick = try ExFATVolume(in: w.base, label: "case")
        defer { withExtendedLifetime(stick) {} }
        let container = stick.mountPoint
        try w.write("upper", "A.txt", in: w.local)
        try w.write("lower", "a.txt", in: w.local)
        try w.write("one", "Docs/one.txt", in: w.local)
        try w.write("two", "docs/two.txt", in: w.local)
        for run in 1...2 {
            let result = try stick.sync(w)
            #expect(result.status == 5, "run \(run): \(result.stdout)\(result.stderr)")
            #expect(
                result.stdout.contains(
                    "failed: a.txt: the other side's file system cannot hold both this name and \"A.txt\""),
                "\(result.stdout)")
            #expect(result.stdout.contains("failed: docs/two.txt:"), "\(result.stdout)")
            #expect(w.tree(container) == ["A.txt": "upper", "Docs": "/", "Docs/one.txt": "one"], "run \(run)")
            #expect(
                w.tree(w.local) == [
                    "A.txt": "upper", "a.txt": "lower", "Docs": "/", "Docs/one.txt": "one", "docs": "/",
                    "docs/two.txt": "two",
                ], "run \(run): nothing moved or copied locally")
        }
        // Renaming one of them lets it through.
        try FileManager.default.moveItem(
            at: w.local.appending(path: "a.txt"), to: w.local.appending(path: "a-lower.txt"))
        let result = try stick.sync(w)
        #expect(w.read("a-lower.txt", in: container) == "lower", "\(result.stdout)")
    }

    /// On the fake, which folds case as exFAT does, the rename takes one run (the crash suite's
    /// scenario). Through FUSE it takes two: the kernel keeps the old name's lookup for about a
    /// second, so just after the old name went to the trash the new one still reaches it.
    @Test(
        "a file renamed by case only (readme.md to README.md) reaches exFAT (through FUSE, on the next run); the old name's version goes to the trash"
    )
    func renameByCaseOnly() throws {
        let w = try Workspace()
        let stick = try ExFATVolume(in: w.base, label: "rename")
        defer { withExtendedLifetime(stick) {} }
        let container = stick.mountPoint
        try w.write("read me", "readme.md", in: w.local, age: 60)
        try w.write("keep", "keep.txt", in: w.local, age: 60)
        var result = try stick.sync(w)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try FileManager.default.moveItem(
            at: w.local.appending(path: "readme.md"), to: w.local.appending(path: "README.md"))
        result = try stick.sync(w)
        if result.status != 0 {
            #expect(result.status == 5, "\(result.stdout)\(result.stderr)")
            #expect(
                result.stdout.contains("failed: README.md: the other side's file system still reports an item"),
                "\(result.stdout)")
            #expect(w.tree(container) == ["keep.txt": "keep"], "the old name went to the trash; nothing else changed")
            Thread.sleep(forTimeInterval: 1.5)
            result = try stick.sync(w)
        }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(w.tree(container) == ["README.md": "read me", "keep.txt": "keep"], "\(result.stdout)\(result.stderr)")
        #expect(w.trashed(container)["readme.md"] == "read me")
        result = try stick.sync(w)
        #expect(
            result.stdout.contains("0 to container, 0 to local"), "a third run finds nothing to do: \(result.stdout)")
    }
}
