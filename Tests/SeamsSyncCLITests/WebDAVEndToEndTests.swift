import Foundation
import SeamsTesting
import Testing

/// The real binary against real WebDAV servers (Apache httpd with `mod_dav_fs`, `rclone serve
/// webdav`) that each test starts on loopback, serving the workspace's container folder: what the
/// server holds is read and changed on its disk, as another client of the server would change it.
@Suite("seams-sync with a WebDAV container")
struct WebDAVEndToEndTests {
    static let user = "seams"
    static let password = "e2e-secret"

    /// A workspace whose container folder a real server serves.
    final class Served {
        let workspace: Workspace
        let server: LocalWebDAVServer

        init(_ kind: LocalWebDAVServer.Kind) throws {
            workspace = try Workspace()
            server = try LocalWebDAVServer.start(kind, serving: workspace.container, user: WebDAVEndToEndTests.user, password: WebDAVEndToEndTests.password)
        }

        deinit { server.stop() }

        /// What the server's folder holds for its clients: Apache's `.DAV` property folders are its own.
        var servedTree: [String: String] {
            workspace.tree(served).filter { !$0.key.hasPrefix(".DAV") && !$0.key.contains("/.DAV") }
        }

        var local: URL { workspace.local }
        var served: URL { workspace.container }

        func sync(_ extra: [String] = [], password: String = WebDAVEndToEndTests.password) throws -> CLI.Result {
            try CLI.run(
                ["sync", workspace.local.path, server.baseURL.absoluteString, "--state-dir", workspace.state.path] + extra,
                environment: ["SEAMS_WEBDAV_USER": WebDAVEndToEndTests.user, "SEAMS_WEBDAV_PASSWORD": password])
        }
    }

    static func available(_ kind: LocalWebDAVServer.Kind) -> Bool {
        if let reason = LocalWebDAVServer.unavailableReason(kind) {
            print("skipped on \(kind): \(reason)")
            return false
        }
        return true
    }

    @Test("first sync, edits both ways, a conflict, a deletion", arguments: LocalWebDAVServer.Kind.allCases)
    func flow(kind: LocalWebDAVServer.Kind) throws {
        guard Self.available(kind) else { return }
        let pair = try Served(kind)
        let ws = pair.workspace
        try ws.write("hello", "a.txt", in: pair.local)
        try ws.write("deep", "sub dir/é #1.txt", in: pair.local)
        try ws.write("from the server", "remote.md", in: pair.served)

        var result = try pair.sync(["--json"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(ws.tree(pair.local) == ["a.txt": "hello", "sub dir": "/", "sub dir/é #1.txt": "deep", "remote.md": "from the server"])
        #expect(pair.servedTree == ws.tree(pair.local))
        result = try pair.sync()
        #expect(result.status == 0)
        #expect(result.stdout.contains("0 to container, 0 to local"), "a second run changes nothing: \(result.stdout)")

        // Edits both ways (sizes differ: the server's dates have whole seconds).
        try ws.write("hello, edited locally", "a.txt", in: pair.local)
        try ws.write("from the server, edited there", "remote.md", in: pair.served)
        result = try pair.sync()
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(ws.read("a.txt", in: pair.served) == "hello, edited locally")
        #expect(ws.read("remote.md", in: pair.local) == "from the server, edited there")
        #expect(ws.trashed(pair.served)["a.txt"] == "hello", "the replaced version is kept in the server's trash")

        // Both sides edit one file: both versions are kept on both sides.
        try ws.write("local version", "a.txt", in: pair.local)
        try ws.write("the server's longer version", "a.txt", in: pair.served)
        result = try pair.sync(["--json"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let report = try #require(try result.json()["report"] as? [String: Any])
        let conflicts = try #require(report["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1)
        let localNames = ws.tree(pair.local)
        #expect(localNames == pair.servedTree)
        #expect(Set(localNames.values).isSuperset(of: ["local version", "the server's longer version"]))

        // A deletion goes to the other side's trash.
        try FileManager.default.removeItem(at: pair.local.appending(path: "sub dir"))
        result = try pair.sync()
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(pair.servedTree["sub dir"] == nil)
        #expect(ws.trashed(pair.served)["sub dir/é #1.txt"] == "deep")
    }

    @Test("refused credentials and an unreachable server are exit 3, and nothing changes", arguments: LocalWebDAVServer.Kind.allCases)
    func refused(kind: LocalWebDAVServer.Kind) throws {
        guard Self.available(kind) else { return }
        let pair = try Served(kind)
        try pair.workspace.write("x", "a.txt", in: pair.local)
        var result = try pair.sync(password: "wrong")
        #expect(result.status == 3)
        #expect(result.stderr.contains("401"), "\(result.stderr)")
        #expect(!result.stderr.contains("wrong"), "the password is never printed")
        #expect(pair.servedTree.isEmpty)
        pair.server.stop()
        result = try pair.sync()
        #expect(result.status == 3)
        #expect(result.stderr.contains("could not connect"), "\(result.stderr)")
        #expect(pair.workspace.tree(pair.local) == ["a.txt": "x"])
    }

    @Test("an emptied server is refused by the guard, and the local files stay", arguments: LocalWebDAVServer.Kind.allCases)
    func emptySideGuard(kind: LocalWebDAVServer.Kind) throws {
        guard Self.available(kind) else { return }
        let pair = try Served(kind)
        try pair.workspace.write("1", "one", in: pair.local)
        try pair.workspace.write("2", "two", in: pair.local)
        #expect(try pair.sync().status == 0)
        for name in ["one", "two"] { try FileManager.default.removeItem(at: pair.served.appending(path: name)) }
        let result = try pair.sync()
        #expect(result.status == 3, "\(result.stderr)")
        #expect(pair.workspace.tree(pair.local) == ["one": "1", "two": "2"])
    }

    @Test("a lock held by a live run on the server is exit 4", arguments: LocalWebDAVServer.Kind.allCases)
    func locked(kind: LocalWebDAVServer.Kind) throws {
        guard Self.available(kind) else { return }
        let pair = try Served(kind)
        try pair.workspace.write("x", "a.txt", in: pair.local)
        let record = Workspace.lockRecord(owner: "another run", heartbeat: Date())
        try Data(record.utf8).write(to: pair.served.appending(path: ".seams-lock"))
        let result = try pair.sync()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(pair.servedTree.isEmpty)
    }

    @Test("credentials are read from ~/.netrc when the environment has none", arguments: [LocalWebDAVServer.Kind.rclone])
    func netrc(kind: LocalWebDAVServer.Kind) throws {
        guard Self.available(kind) else { return }
        let pair = try Served(kind)
        try pair.workspace.write("x", "a.txt", in: pair.local)
        let home = pair.workspace.base.appending(path: "home", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let netrc = "machine other.example login nobody password nothing\n\nmachine 127.0.0.1\n  login \(Self.user)\n  password \(Self.password)\n"
        try Data(netrc.utf8).write(to: home.appending(path: ".netrc"))
        let result = try CLI.run(
            ["sync", pair.local.path, pair.server.baseURL.absoluteString, "--state-dir", pair.workspace.state.path], environment: ["HOME": home.path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(pair.servedTree == ["a.txt": "x"])
    }

    @Test("plain http to another machine is refused unless allowed; credentials in the URL are refused")
    func insecure() throws {
        let ws = try Workspace()
        var result = try CLI.run(["sync", ws.local.path, "http://dav.example.com/notes/", "--state-dir", ws.state.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--allow-insecure-http"))
        result = try CLI.run(["sync", ws.local.path, "https://me:secret@dav.example.com/notes/", "--state-dir", ws.state.path])
        #expect(result.status == 2)
        #expect(!result.stderr.contains("secret"))
    }
}
