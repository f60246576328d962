import Foundation
import Testing

@Suite struct SyncFlowTests {
    @Test("first sync copies everything, folders and empty folders included")
    func firstSync() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("one", "a.txt", in: w.local)
            try w.write("two", "docs/b.md", in: w.local)
            try w.write("three", "docs/deep/c", in: w.local)
            try FileManager.default.createDirectory(
                at: w.local.appending(path: "empty"), withIntermediateDirectories: true)
            let result = try w.sync()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(w.tree(w.container) == w.tree(w.local))
            #expect(w.tree(w.container)["empty"] == "/")
            #expect(w.tree(w.container)["docs/deep/c"] == "three")
            let again = try w.sync()
            #expect(again.status == 0)
            #expect(again.stdout.contains("0 to container, 0 to local"))
        }
    }

    @Test("edits on both sides go both ways")
    func editsBothWays() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("v1", "local-edit.txt", in: w.local, age: 500)
            try w.write("v1", "container-edit.txt", in: w.local, age: 500)
            #expect(try w.sync().status == 0)
            try w.write("v2 from local", "local-edit.txt", in: w.local)
            try w.write("v2 from container", "container-edit.txt", in: w.container)
            try w.write("new", "sub/new-in-container.txt", in: w.container)
            let result = try w.sync()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(w.read("local-edit.txt", in: w.container) == "v2 from local")
            #expect(w.read("container-edit.txt", in: w.local) == "v2 from container")
            #expect(w.read("sub/new-in-container.txt", in: w.local) == "new")
            #expect(w.tree(w.container) == w.tree(w.local))
            #expect(w.trashed(w.local)["container-edit.txt"] == "v1", "the replaced version is kept in the trash")
        }
    }

    @Test("a conflict keeps both versions on both sides; exit 0")
    func conflict() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("base", "plan.md", in: w.local, age: 1000)
            #expect(try w.sync().status == 0)
            try w.write("local version", "plan.md", in: w.local, age: 200)
            try w.write("container version!", "plan.md", in: w.container, age: 100)
            let result = try w.sync(["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try result.json()["report"] as? [String: Any])
            let conflicts = try #require(report["conflicts"] as? [[String: String]])
            #expect(conflicts.count == 1)
            let copy = try #require(conflicts.first?["copy"])
            #expect(copy.hasPrefix("plan.sync-conflict-") && copy.hasSuffix("-local.md"))
            for side in [w.local, w.container] {
                #expect(w.read("plan.md", in: side) == "container version!")
                #expect(w.read(copy, in: side) == "local version")
            }
            #expect(try w.sync().status == 0)
            #expect(w.tree(w.container) == w.tree(w.local))
        }
    }

    @Test("deletes propagate into the trash, never gone")
    func deletes() async throws {
        try await offPool {
            let w = try Workspace()
            for name in ["a", "b", "c", "d"] { try w.write("content \(name)", "\(name).txt", in: w.local) }
            try w.write("inside", "folder/x.txt", in: w.local)
            #expect(try w.sync().status == 0)
            try FileManager.default.removeItem(at: w.local.appending(path: "a.txt"))
            try FileManager.default.removeItem(at: w.container.appending(path: "folder"))
            let result = try w.sync()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(w.read("a.txt", in: w.container) == nil)
            #expect(w.tree(w.local)["folder"] == nil)
            #expect(w.trashed(w.container)["a.txt"] == "content a")
            #expect(w.trashed(w.local)["folder/x.txt"] == "inside")
            #expect(w.tree(w.container) == w.tree(w.local))
        }
    }

    @Test("the max-delete guard refuses with exit 3 and changes nothing; --force runs")
    func maxDelete() async throws {
        try await offPool {
            let w = try Workspace()
            for name in ["a", "b", "c", "d"] { try w.write(name, "\(name).txt", in: w.local) }
            #expect(try w.sync().status == 0)
            for name in ["a", "b", "c"] {
                try FileManager.default.removeItem(at: w.local.appending(path: "\(name).txt"))
            }
            let before = w.tree(w.container)
            let refused = try w.sync()
            #expect(refused.status == 3)
            #expect(refused.stderr.contains("--force"))
            #expect(w.tree(w.container) == before)
            #expect(try w.sync(["--max-delete", "80"]).status == 0)
            #expect(w.tree(w.container) == ["d.txt": "d"])
        }
    }

    @Test("--dry-run reports and changes nothing")
    func dryRun() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("x", "x.txt", in: w.local)
            let result = try w.sync(["--dry-run", "--json"])
            #expect(result.status == 0)
            let report = try #require(try result.json()["report"] as? [String: Any])
            #expect((report["planned"] as? [Any])?.count == 1)
            #expect(w.tree(w.container).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.container.path).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: w.state.path))
        }
    }
}
