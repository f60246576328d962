import Foundation
import Testing

/// `.seamsignore`, `--exclude`, `--exclude-from`, `--no-default-excludes` and `--verbose` through
/// the real binary on real folders.
@Suite struct IgnoreCLITests {
    @Test("a .seamsignore and --exclude leave paths alone; --verbose lists them, --json carries them")
    func rulesAndReport() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("node_modules/\n", ".seamsignore", in: w.local)
            try w.write("x", "app/node_modules/x/index.js", in: w.local)
            try w.write("app", "app/main.swift", in: w.local)
            try w.write("junk", "app/.DS_Store", in: w.local)
            try w.write("big", "video.mov", in: w.local)

            var result = try w.sync(["--exclude", "*.mov", "--verbose"])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("3 paths left alone by ignore rules."), "\(result.stdout)")
            for path in ["app/.DS_Store", "app/node_modules", "video.mov"] {
                #expect(result.stdout.contains("  ignored: \(path)\n"), "\(path): \(result.stdout)")
            }
            #expect(w.tree(w.container) == [".seamsignore": "node_modules/\n", "app": "/", "app/main.swift": "app"])

            result = try w.sync(["--exclude", "*.mov", "--json", "--dry-run"])
            #expect(result.status == 0)
            let report = try #require(try result.json()["report"] as? [String: Any])
            #expect(report["ignored"] as? [String] == ["app/.DS_Store", "app/node_modules", "video.mov"])
        }
    }

    @Test("--exclude-from reads patterns from a file; --no-default-excludes syncs platform junk")
    func excludeFromAndDefaults() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("# build products\n*.o\n/dist/\n", "rules.txt", in: w.base)
            try w.write("o", "src/main.o", in: w.local)
            try w.write("d", "dist/app", in: w.local)
            try w.write("finder", ".DS_Store", in: w.local)
            try w.write("c", "src/main.c", in: w.local)
            let result = try w.sync([
                "--exclude-from", w.base.appending(path: "rules.txt").path, "--no-default-excludes",
            ])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(w.tree(w.container) == [".DS_Store": "finder", "src": "/", "src/main.c": "c"])
        }
    }

    @Test(
        "a bad pattern, in the file or on the command line, or a missing --exclude-from file: exit 2, a clear error, nothing changed"
    )
    func badRules() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("a", "a.txt", in: w.local)
            try w.write("fine\nbad[\n", ".seamsignore", in: w.local)
            var result = try w.sync()
            #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("The ignore rule \"bad[\""), "\(result.stderr)")
            #expect(result.stderr.contains("line 2"), "\(result.stderr)")
            #expect(result.stderr.contains("a [ with no closing ]"), "\(result.stderr)")
            #expect(w.tree(w.container).isEmpty)

            try FileManager.default.removeItem(at: w.local.appending(path: ".seamsignore"))
            result = try w.sync(["--exclude", "trailing\\"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--exclude, line 1"), "\(result.stderr)")
            #expect(w.tree(w.container).isEmpty)

            result = try w.sync(["--exclude-from", w.base.appending(path: "missing.txt").path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--exclude-from"), "\(result.stderr)")
            #expect(w.tree(w.container).isEmpty)
        }
    }

    @Test("--help lists the default excludes")
    func help() throws {
        let result = try CLI.run(["sync", "--help"])
        #expect(result.status == 0)
        let text = result.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains(".DS_Store ._* Thumbs.db desktop.ini .Trash-* ~$*"), "\(result.stdout)")
        #expect(text.contains("--exclude-from"))
    }
}
