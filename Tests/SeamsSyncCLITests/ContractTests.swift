import Foundation
import Testing

@Suite struct ContractTests {
    @Test("odd names: spaces, Unicode in both normal forms side by side, long names")
    func oddNames() async throws {
        try await offPool {
            let w = try Workspace()
            let nfc = "caf\u{E9} menu.txt"
            let nfd = "cafe\u{301} menu.txt"
            let long = String(repeating: "long name ", count: 24) + "end.txt"
            try w.write("nfc", nfc, in: w.local)
            try w.write("nfd", nfd, in: w.local)
            try w.write("spaces", "  leading and trailing  ", in: w.local)
            try w.write("long", long, in: w.local)
            try w.write("deep", "ü folder/Ω sub/x y.txt", in: w.local)
            let result = try w.sync()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try w.rawNames(w.container) == w.rawNames(w.local))
            #expect(try w.rawNames(w.container).contains(Array(nfd.utf8)))
            #expect(try w.rawNames(w.container).contains(Array(nfc.utf8)))
            let nfdContent = try Data(contentsOf: URL(filePath: w.container.path + "/" + nfd))
            #expect(String(decoding: nfdContent, as: UTF8.self) == "nfd")
            #expect(w.read("ü folder/Ω sub/x y.txt", in: w.container) == "deep")
            #expect(try w.sync().status == 0)
        }
    }

    @Test("the tool's own files in the folders start with .seams")
    func ownNames() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("1", "a.txt", in: w.local, age: 100)
            #expect(try w.sync().status == 0)
            try w.write("2", "a.txt", in: w.local)
            #expect(try w.sync().status == 0)
            for root in [w.local, w.container] {
                for name in try FileManager.default.contentsOfDirectory(atPath: root.path) where name != "a.txt" {
                    #expect(name.hasPrefix(".seams"), "\(name)")
                }
            }
        }
    }

    @Test(
        "bad usage exits 2",
        arguments: [
            ["sync"],
            ["sync", "/tmp"],
            ["sync", "/tmp/a", "/tmp/b", "--max-delete", "200"],
            ["sync", "/tmp/a", "/tmp/b", "--no-such-option"],
            ["frobnicate"],
        ])
    func badUsage(_ arguments: [String]) async throws {
        let status = try await offPool { try CLI.run(arguments).status }
        #expect(status == 2)
    }

    @Test("bad usage without --json prints text on standard error, nothing on standard output")
    func badUsageText() async throws {
        try await offPool {
            let result = try CLI.run(["sync", "/tmp/a"])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("Usage: seams-sync sync"), "\(result.stderr)")
        }
    }

    @Test(
        "bad usage with --json prints one JSON report on standard output, exit 2",
        arguments: [
            ["sync", "--json"],
            ["sync", "/tmp", "--json"],
            ["sync", "/tmp/a", "/tmp/b", "--json", "--max-delete", "200"],
            ["sync", "--json", "/tmp/a", "/tmp/b", "--no-such-option"],
            ["frobnicate", "--json"],
            ["demo", "--json"],
        ])
    func badUsageJSON(_ arguments: [String]) async throws {
        try await offPool {
            let result = try CLI.run(arguments)
            #expect(result.status == 2)
            #expect(result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
            let object = try result.json()
            #expect(object["status"] as? String == "bad-input")
            #expect(object["exitCode"] as? Int == 2)
            let error = try #require(object["error"] as? String)
            #expect(!error.isEmpty)
            #expect(object["report"] == nil)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
    }

    @Test("the JSON usage error says what was wrong")
    func badUsageJSONMessage() async throws {
        try await offPool {
            let range = try CLI.run(["sync", "/tmp/a", "/tmp/b", "--max-delete", "200", "--json"]).json()
            #expect(
                (range["error"] as? String)?.contains("--max-delete must be a percentage from 0 to 100") == true,
                "\(range)")
            for requests in ["0", "65"] {
                let result = try CLI.run(["sync", "/tmp/a", "/tmp/b", "--requests", requests, "--json"])
                #expect(result.status == 2)
                #expect(
                    (try result.json()["error"] as? String)?.contains("--requests must be from 1 to 64") == true,
                    "\(result.stdout)")
            }
            let unknown = try CLI.run(["sync", "/tmp/a", "/tmp/b", "--json", "--no-such-option"]).json()
            #expect((unknown["error"] as? String)?.contains("--no-such-option") == true, "\(unknown)")
        }
    }

    @Test("a --json after -- is an argument, not the flag: the usage error stays text")
    func jsonAfterTerminator() async throws {
        try await offPool {
            let result = try CLI.run(["sync", "/tmp/a", "--", "--json", "extra"])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty, "\(result.stdout)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test("LOCAL inside CONTAINER with --json is a JSON report, exit 2")
    func nestedJSON() async throws {
        try await offPool {
            let w = try Workspace()
            let result = try CLI.run(["sync", w.local.path, w.base.path, "--state-dir", w.state.path, "--json"])
            #expect(result.status == 2)
            let object = try result.json()
            #expect(object["status"] as? String == "bad-input")
            #expect(object["exitCode"] as? Int == 2)
            #expect(result.stdout.split(separator: "\n").count == 1)
        }
    }

    @Test("LOCAL inside CONTAINER is bad input, exit 2")
    func nested() async throws {
        try await offPool {
            let w = try Workspace()
            let result = try CLI.run(["sync", w.local.path, w.base.path, "--state-dir", w.state.path])
            #expect(result.status == 2)
        }
    }

    @Test(
        "a state folder inside LOCAL or CONTAINER is bad input, exit 2, and nothing is written",
        arguments: [
            "local", "container", "home",
        ])
    func stateInsideSyncedFolder(_ place: String) async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("one", "a.txt", in: w.local)
            let result: CLI.Result
            switch place {
            case "local":
                result = try CLI.run([
                    "sync", w.local.path, w.container.path, "--state-dir", w.local.appending(path: "state").path,
                ])
            case "container":
                result = try CLI.run([
                    "sync", w.local.path, w.container.path, "--state-dir", w.container.appending(path: "s/t").path,
                ])
            default:
                // The default state folder, under a HOME that is the folder being synced.
                result = try CLI.run(
                    ["sync", w.local.path, w.container.path], environment: ["HOME": w.local.path, "XDG_STATE_HOME": ""])
            }
            #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("--state-dir"), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.local.path) == ["a.txt"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: w.container.path).isEmpty)
        }
    }

    @Test("--help exits 0 and names the exit codes")
    func help() async throws {
        try await offPool {
            let result = try CLI.run(["--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("Exit codes"))
        }
    }

    @Test("--json prints exactly one JSON object")
    func json() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("x", "x.txt", in: w.local)
            let result = try w.sync(["--json"])
            #expect(result.status == 0)
            let object = try result.json()
            #expect(object["status"] as? String == "synced")
            #expect(object["exitCode"] as? Int == 0)
            #expect(result.stdout.split(separator: "\n").count == 1)
        }
    }

    @Test("demo works on a fresh machine with no setup")
    func demo() async throws {
        try await offPool {
            // Its own temp dir (the demo leaves its folders for the user to look at): removed afterwards.
            let w = try Workspace()
            let result = try CLI.run(["demo"], environment: ["TMPDIR": w.base.path])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("identical on both sides"))
            #expect(result.stdout.contains("1 conflicts kept both"))
            let made = try FileManager.default.contentsOfDirectory(atPath: w.base.path).filter {
                $0.hasPrefix("seams-sync-demo-")
            }
            #expect(made.count == 1, "\(made)")
            let demo = w.base.appending(path: made.first ?? "-")
            #expect(result.stdout.contains(demo.path))
            #expect(FileManager.default.fileExists(atPath: demo.appending(path: "container/plan.md").path))
        }
    }
}
