import Foundation
import Seams
import SeamsTesting
import Testing

@testable import SeamsSync

/// What ignore rules do to a run: an ignored path is never read, written, moved, deleted or
/// trashed on either side, an ignored folder is never listed, and a path that becomes ignored or
/// stops being so loses nothing.
@Suite struct IgnoreRulesSyncTests: InMemoryFolderPair {
    @Test("a root .seamsignore leaves its paths alone on both sides, never lists an ignored folder, and syncs itself")
    func rootFile() throws {
        let fs = try fileSystem()
        try write("node_modules/\n*.tmp\n# a comment\n!keep.tmp\n", ".seamsignore", in: local, fs)
        try write("module", "web/node_modules/left/index.js", in: local, fs)
        try write("scratch", "web/draft.tmp", in: local, fs)
        try write("kept", "web/keep.tmp", in: local, fs)
        try write("app", "web/app.js", in: local, fs)
        try write("theirs", "cache.tmp", in: container, fs)
        fs.resetCalls()

        let report = try sync(fs)
        let calls = fs.calls
        #expect(report.failures.isEmpty)
        #expect(report.ignored == ["cache.tmp", "web/draft.tmp", "web/node_modules"])
        #expect(read("web/app.js", in: container, fs) == "app")
        #expect(read("web/keep.tmp", in: container, fs) == "kept", "re-included by !keep.tmp")
        #expect(read(".seamsignore", in: container, fs) != nil, "the rules travel to every device")
        #expect(read("web/draft.tmp", in: container, fs) == nil)
        #expect(read("cache.tmp", in: local, fs) == nil)
        #expect(read("cache.tmp", in: container, fs) == "theirs")
        #expect(!fs.fileExists(at: container.appending(path: "web/node_modules")))
        let touched = calls.compactMap(\.url?.path).filter {
            $0.contains("node_modules") || $0.contains("draft.tmp") || $0.contains("cache.tmp")
        }
        #expect(touched.isEmpty, "an ignored path is never read, listed or written: \(touched)")
        #expect(report.summary.contains("3 paths left alone by ignore rules."))
    }

    @Test("platform junk is left alone by default, and synced with defaultExcludes off")
    func defaults() throws {
        let fs = try fileSystem()
        try write("finder", "Photos/.DS_Store", in: local, fs)
        try write("apple double", "Photos/._IMG_1.JPG", in: local, fs)
        try write("photo", "Photos/IMG_1.JPG", in: local, fs)
        var report = try sync(fs)
        #expect(report.ignored == ["Photos/.DS_Store", "Photos/._IMG_1.JPG"])
        #expect(read("Photos/IMG_1.JPG", in: container, fs) == "photo")
        #expect(read("Photos/.DS_Store", in: container, fs) == nil)
        var options = SyncOptions()
        options.defaultExcludes = false
        report = try sync(fs, options)
        #expect(report.ignored.isEmpty)
        #expect(read("Photos/.DS_Store", in: container, fs) == "finder")
    }

    @Test(
        "a path that becomes ignored stays as it is on both sides and leaves the state; once no longer ignored it is new on both sides, both versions kept"
    )
    func becomesIgnoredThenNot() throws {
        let fs = try fileSystem()
        try write("v1", "logs/run.log", in: local, fs)
        try write("notes", "notes.txt", in: local, fs)
        _ = try sync(fs)
        #expect(read("logs/run.log", in: container, fs) == "v1")

        // Now ignored: edited on one side, deleted on the other, and neither change travels.
        var options = SyncOptions()
        options.excludes = ["*.log"]
        try write("v2, local only", "logs/run.log", in: local, fs)
        try fs.removeItem(at: container.appending(path: "logs/run.log"), recursively: false)
        var report = try sync(fs, options)
        #expect(report.failures.isEmpty && report.deletedLocal == 0 && report.deletedContainer == 0)
        #expect(report.ignored == ["logs/run.log"])
        #expect(read("logs/run.log", in: local, fs) == "v2, local only", "nothing deleted")
        #expect(read("logs/run.log", in: container, fs) == nil)
        #expect(
            !fs.fileExists(at: container.appending(path: ".seams-trash"))
                && !fs.fileExists(at: local.appending(path: ".seams-trash")), "nothing trashed")

        // Not ignored any more, and on both sides with different content: both kept.
        try write("v3, the container's", "logs/run.log", in: container, fs)
        report = try sync(fs)
        #expect(report.conflicts.count == 1, "\(report.summary)")
        #expect(Set([read("logs/run.log", in: local, fs), read("logs/run.log", in: container, fs)]).count == 1)
        let names = try fs.contentsOfDirectory(at: local.appending(path: "logs")).map(\.name)
        #expect(names.count == 2, "both versions kept: \(names)")
    }

    @Test(
        "a rule only the container's .seamsignore has leaves the path alone on both sides: an edit does not travel and nothing is deleted"
    )
    func oneSidesRules() throws {
        let fs = try fileSystem()
        try write("v1", "build/out.bin", in: local, fs)
        _ = try sync(fs)
        // Another device added a rule; it reaches this one in this run.
        try write("build/\n", ".seamsignore", in: container, fs)
        try write("v2", "build/out.bin", in: local, fs)
        try fs.removeItem(at: container.appending(path: "build/out.bin"), recursively: false)
        let report = try sync(fs)
        #expect(
            report.failures.isEmpty && report.deletedLocal == 0 && report.deletedContainer == 0, "\(report.summary)")
        #expect(report.ignored == ["build"])
        #expect(read("build/out.bin", in: local, fs) == "v2")
        #expect(read(".seamsignore", in: local, fs) == "build/\n")
    }

    @Test(
        "a folder deleted on the other side keeps what is ignored in it: the synced files go to the trash, the folder and its ignored content stay"
    )
    func deletedFolderWithIgnoredContent() throws {
        let fs = try fileSystem()
        try write("a", "proj/a.txt", in: local, fs)
        try write("dependency", "proj/node_modules/dep/index.js", in: local, fs)
        for index in 1...4 { try write("other", "other\(index).txt", in: local, fs) }
        var options = SyncOptions()
        options.excludes = ["node_modules/"]
        _ = try sync(fs, options)
        #expect(read("proj/a.txt", in: container, fs) == "a")
        try fs.removeItem(at: container.appending(path: "proj"), recursively: true)
        let report = try sync(fs, options)
        #expect(report.deletedLocal == 1, "\(report.summary)")
        #expect(read("proj/a.txt", in: local, fs) == nil)
        #expect(
            read("proj/node_modules/dep/index.js", in: local, fs) == "dependency", "ignored content is never trashed")
        #expect(report.ignored == ["proj/node_modules"])
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.skipped.map(\.path) == ["proj"])
        #expect(
            report.skipped.first?.reason.contains("\"proj/node_modules\", which the ignore rules leave alone") == true)
        // And again next run: still kept, still said.
        let again = try sync(fs, options)
        #expect(again.skipped.map(\.path) == ["proj"] && again.failures.isEmpty && again.deletedLocal == 0)
        #expect(read("proj/node_modules/dep/index.js", in: local, fs) == "dependency")
    }

    @Test("platform junk in a folder deleted on the other side goes to the trash with the folder")
    func junkGoesWithItsFolder() throws {
        let fs = try fileSystem()
        try write("a", "Photos/2019/a.jpg", in: local, fs)
        try write("finder", "Photos/2019/.DS_Store", in: local, fs)
        for index in 1...4 { try write("other", "other\(index).txt", in: local, fs) }
        _ = try sync(fs)
        #expect(read("Photos/2019/.DS_Store", in: container, fs) == nil)
        try fs.removeItem(at: container.appending(path: "Photos/2019"), recursively: true)
        let report = try sync(fs)
        #expect(report.failures.isEmpty && report.skipped.isEmpty, "\(report.summary)")
        #expect(!fs.fileExists(at: local.appending(path: "Photos/2019")), "the folder is gone")
        let trash = try fs.contentsOfDirectory(at: local.appending(path: ".seams-trash")).map(\.name)
        let kept = try trash.flatMap {
            try fs.contentsOfDirectory(at: local.appending(path: ".seams-trash/\($0)/Photos/2019")).map(\.name)
        }
        #expect(Set(kept) == [".DS_Store", "a.jpg"], "both kept in the trash: \(kept)")
    }

    @Test(
        "a folder-only pattern leaves a path alone on both sides, whatever its kind on the other: no conflict copies, run after run"
    )
    func kindDoesNotSplitASide() throws {
        let fs = try fileSystem()
        try write("x", "cache/x", in: local, fs)
        try write("a file named cache", "cache", in: container, fs)
        try write("n", "notes.txt", in: local, fs)
        var options = SyncOptions()
        options.excludes = ["cache/"]
        for run in 1...2 {
            let report = try sync(fs, options)
            #expect(report.failures.isEmpty && report.conflicts.isEmpty, "run \(run): \(report.summary)")
            #expect(report.ignored == ["cache"], "run \(run)")
            #expect(read("cache", in: container, fs) == "a file named cache")
            #expect(read("cache/x", in: local, fs) == "x")
            #expect(
                try fs.contentsOfDirectory(at: container).map(\.name).filter { !$0.hasPrefix(".seams") }.sorted() == [
                    "cache", "notes.txt",
                ])
        }
    }

    @Test("a subfolder's .seamsignore applies below it only")
    func subfolderFile() throws {
        let fs = try fileSystem()
        try write("/cache\n*.o\n", "proj/.seamsignore", in: local, fs)
        try write("c", "proj/cache/x", in: local, fs)
        try write("o", "proj/src/main.o", in: local, fs)
        try write("c", "other/cache/x", in: local, fs)
        try write("o", "other/main.o", in: local, fs)
        let report = try sync(fs)
        #expect(report.ignored == ["proj/cache", "proj/src/main.o"])
        #expect(read("other/cache/x", in: container, fs) == "c")
        #expect(read("other/main.o", in: container, fs) == "o")
    }

    @Test("an --exclude wins over a file's !")
    func optionWins() throws {
        let fs = try fileSystem()
        try write("!secret.txt\n", ".seamsignore", in: local, fs)
        try write("s", "secret.txt", in: local, fs)
        var options = SyncOptions()
        options.excludes = ["secret.txt"]
        let report = try sync(fs, options)
        #expect(report.ignored == ["secret.txt"])
        #expect(read("secret.txt", in: container, fs) == nil)
    }

    @Test("a bad pattern, a file that is not text, an unreadable file: badIgnoreRule, and nothing changed")
    func badRules() throws {
        let fs = try fileSystem()
        try write("ok\n[unclosed\n", ".seamsignore", in: local, fs)
        try write("a", "a.txt", in: local, fs)
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "/local/.seamsignore", line: 2, pattern: "[unclosed",
                reason: IgnorePattern.Problem.unclosedBracket.description)
        ) {
            try sync(fs)
        }
        #expect(!fs.fileExists(at: container.appending(path: "a.txt")))

        try fs.write(Data([0xC3, 0x28]), to: local.appending(path: ".seamsignore"))
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "/local/.seamsignore", line: 0, pattern: "", reason: "it is not UTF-8 text")
        ) {
            try sync(fs)
        }

        try fs.write(Data("fine\n".utf8), to: local.appending(path: ".seamsignore"))
        try fs.setPermissions(0o000, at: local.appending(path: ".seamsignore"))
        let thrown = #expect(throws: SyncError.self) { try sync(fs) }
        guard case .badIgnoreRule(let source, 0, _, let reason)? = thrown else {
            Issue.record("expected badIgnoreRule, got \(String(describing: thrown))")
            return
        }
        #expect(source == "/local/.seamsignore")
        #expect(reason.contains("EACCES"), "\(reason)")
        #expect(!fs.fileExists(at: container.appending(path: "a.txt")), "nothing changed")

        var options = SyncOptions()
        options.excludes = ["ok", "bad\\"]
        #expect(
            throws: SyncError.badIgnoreRule(
                source: "--exclude", line: 2, pattern: "bad\\",
                reason: IgnorePattern.Problem.trailingBackslash.description)
        ) {
            try sync(fs, options)
        }
    }
}
