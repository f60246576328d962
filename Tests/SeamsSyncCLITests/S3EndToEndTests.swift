import Foundation
import Seams
import SeamsS3
import SeamsTesting
import Testing

/// The real binary against a real S3 server (moto; `rclone serve s3` for a server that ignores
/// write conditions) that each test starts on loopback: what the bucket holds is read and changed
/// through a client of the test's own, as another device would.
@Suite("seams-sync with an S3 container")
struct S3EndToEndTests {
    static let keys = S3Credentials(
        accessKeyID: LocalS3Server.credentials.accessKeyID, secretAccessKey: LocalS3Server.credentials.secretAccessKey)

    /// A workspace, a server (moto unless said) and a bucket on it.
    final class Bucketed {
        let workspace: Workspace
        let server: LocalS3Server
        let client: S3Client
        let bucket = "seams-e2e"

        init(_ kind: LocalS3Server.Kind = .moto) throws {
            workspace = try Workspace()
            server = try LocalS3Server.start(kind)
            client = S3Client(
                endpoint: server.endpoint, bucket: bucket, region: "us-east-1", credentials: S3EndToEndTests.keys,
                transport: URLSessionHTTPTransport(), timeout: .seconds(60))
            try client.createBucket()
        }

        deinit { server.stop() }

        var local: URL { workspace.local }
        var container: String { "s3://\(bucket)/notes/" }
        var environment: [String: String] {
            [
                "AWS_ACCESS_KEY_ID": S3EndToEndTests.keys.accessKeyID,
                "AWS_SECRET_ACCESS_KEY": S3EndToEndTests.keys.secretAccessKey,
            ]
        }

        func sync(
            _ extra: [String] = [], local: URL? = nil, state: URL? = nil, environment: [String: String]? = nil
        ) throws -> CLI.Result {
            try CLI.run(
                [
                    "sync", (local ?? workspace.local).path, container, "--endpoint", server.endpoint.absoluteString,
                    "--state-dir", (state ?? workspace.state).path,
                ] + extra,
                environment: environment ?? self.environment)
        }

        /// The bucket's files under the prefix by path, the tool's own left out; folders (a
        /// marker, or a prefix of a key) as `/`.
        func tree() throws -> [String: String] {
            var tree: [String: String] = [:]
            for object in try client.listAllObjects(prefix: "notes/") {
                let path = String(object.key.dropFirst("notes/".count))
                if path.hasPrefix(".seams") { continue }
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                for depth in 1..<parts.count where !parts[depth - 1].isEmpty {
                    tree[parts[..<depth].joined(separator: "/")] = "/"
                }
                if !path.hasSuffix("/") {
                    tree[path] = String(decoding: try client.getObject(object.key).1, as: UTF8.self)
                }
            }
            return tree
        }

        /// The trashed versions' contents in the bucket.
        func trashed() throws -> [String] {
            try client.listAllObjects(prefix: "notes/.seams-trash/").filter { !$0.key.hasSuffix("/") }.map {
                String(decoding: try client.getObject($0.key).1, as: UTF8.self)
            }
        }

        func put(_ path: String, _ text: String) throws {
            try client.putObject("notes/" + path, body: Data(text.utf8))
        }
    }

    static func available(_ kind: LocalS3Server.Kind = .moto) -> Bool {
        if let reason = LocalS3Server.unavailableReason(kind) {
            print("skipped: \(reason)")
            return false
        }
        return true
    }

    @Test(
        "first sync, edits both ways, a deletion and a conflict against moto; every replaced version in a trash; a quiet run changes nothing"
    )
    func flow() async throws {
        try await offPool {
            guard Self.available() else { return }
            let pair = try Bucketed()
            let ws = pair.workspace
            try ws.write("local a", "a.txt", in: pair.local)
            try ws.write("local b", "sub/b é.txt", in: pair.local)
            try FileManager.default.createDirectory(
                at: pair.local.appending(path: "empty"), withIntermediateDirectories: true)
            try pair.put("c.txt", "bucket c")
            try pair.put("d/e.txt", "bucket e")
            var result = try pair.sync()
            try #require(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("2 to container, 2 to local"), "\(result.stdout)")
            let both: [String: String] = [
                "a.txt": "local a", "sub": "/", "sub/b é.txt": "local b", "empty": "/", "c.txt": "bucket c",
                "d": "/", "d/e.txt": "bucket e",
            ]
            #expect(try pair.tree() == both)
            #expect(ws.tree(pair.local) == both)

            // Edits both ways, a deletion each way.
            try ws.write("local a2", "a.txt", in: pair.local)
            try pair.put("c.txt", "bucket c2")
            try FileManager.default.removeItem(at: pair.local.appending(path: "d/e.txt"))
            try pair.client.deleteObject("notes/sub/b é.txt")
            result = try pair.sync()
            try #require(result.status == 0, "\(result.stdout) \(result.stderr)")
            let after: [String: String] = [
                "a.txt": "local a2", "sub": "/", "empty": "/", "c.txt": "bucket c2", "d": "/",
            ]
            #expect(try pair.tree() == after)
            #expect(ws.tree(pair.local) == after)
            #expect(try Set(pair.trashed()) == ["local a", "bucket e"])
            #expect(Set(ws.trashed(pair.local).values) == ["bucket c", "local b"])

            // A conflict: both sides changed a.txt.
            try ws.write("local a3", "a.txt", in: pair.local)
            try pair.put("a.txt", "bucket a3")
            result = try pair.sync(["--json"])
            try #require(result.status == 0, "\(result.stdout) \(result.stderr)")
            let report = try #require(try result.json()["report"] as? [String: Any])
            let conflicts = try #require(report["conflicts"] as? [[String: Any]])
            let copy = try #require(conflicts.first?["copy"] as? String)
            let stored = try pair.tree()
            #expect(Set([stored["a.txt"], stored[copy]]) == ["local a3", "bucket a3"])
            #expect(
                Set([ws.read("a.txt", in: pair.local), ws.read(copy, in: pair.local)]) == ["local a3", "bucket a3"])

            result = try pair.sync()
            #expect(
                result.status == 0 && result.stdout.contains("0 to container, 0 to local, 0 deleted"),
                "\(result.stdout) \(result.stderr)")
            let leftovers = try pair.client.listAllObjects(prefix: "notes/").map(\.key).filter {
                $0.contains(".seams-tmp") || $0.hasSuffix(".seams-lock")
            }
            #expect(leftovers.isEmpty, "\(leftovers)")
            #expect(!result.stdout.contains(S3EndToEndTests.keys.secretAccessKey))
        }
    }

    @Test("two devices at once on one bucket: each run syncs or is refused by the lock (exit 4); both converge")
    func twoDevicesAtOnce() async throws {
        try await offPool {
            guard Self.available() else { return }
            let pair = try Bucketed()
            let ws = pair.workspace
            let other = ws.base.appending(path: "other", directoryHint: .isDirectory)
            let otherState = ws.base.appending(path: "other-state", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            var expected: [String: String] = ["mine": "/", "theirs": "/"]
            for index in 0..<60 {
                try ws.write("mine \(index)", "mine/\(index).txt", in: pair.local)
                try ws.write("theirs \(index)", "theirs/\(index).txt", in: other)
                expected["mine/\(index).txt"] = "mine \(index)"
                expected["theirs/\(index).txt"] = "theirs \(index)"
            }
            let arguments = { (folder: URL, state: URL) in
                [
                    "sync", folder.path, pair.container, "--endpoint", pair.server.endpoint.absoluteString,
                    "--state-dir", state.path,
                ]
            }
            let first = try CLI.start(arguments(pair.local, ws.state), environment: pair.environment)
            let second = try CLI.start(arguments(other, otherState), environment: pair.environment)
            let results = [try CLI.wait(first), try CLI.wait(second)]
            for result in results {
                #expect([0, 4].contains(result.status), "\(result.status) \(result.stdout) \(result.stderr)")
            }
            // Until both have synced twice, nothing is missing anywhere.
            for _ in 0..<2 {
                for (folder, state) in [(pair.local, ws.state), (other, otherState)] {
                    let result = try pair.sync(local: folder, state: state)
                    #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
                }
            }
            #expect(try pair.tree() == expected)
            #expect(ws.tree(pair.local) == expected)
            #expect(ws.tree(other) == expected)
        }
    }

    @Test("a bucket that does not exist: exit 3, the server's answer said, nothing changed locally")
    func missingBucket() async throws {
        try await offPool {
            guard Self.available() else { return }
            let pair = try Bucketed()
            try pair.workspace.write("a", "a.txt", in: pair.local)
            let result = try CLI.run(
                [
                    "sync", pair.local.path, "s3://no-such-bucket/notes/", "--endpoint",
                    pair.server.endpoint.absoluteString, "--state-dir", pair.workspace.state.path,
                ], environment: pair.environment)
            #expect(result.status == 3, "\(result.status) \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("NoSuchBucket"), "\(result.stderr)")
            #expect(pair.workspace.tree(pair.local) == ["a.txt": "a"])
        }
    }

    @Test(
        "the deletion guard against moto: most files deleted locally is exit 3 with the bucket unchanged; --max-delete runs it"
    )
    func deletionGuard() async throws {
        try await offPool {
            guard Self.available() else { return }
            let pair = try Bucketed()
            let ws = pair.workspace
            for name in ["a", "b", "c", "d"] { try ws.write(name, "\(name).txt", in: pair.local) }
            var result = try pair.sync()
            try #require(result.status == 0, "\(result.stdout) \(result.stderr)")
            for name in ["a", "b", "c"] {
                try FileManager.default.removeItem(at: pair.local.appending(path: "\(name).txt"))
            }
            let before = try pair.tree()
            result = try pair.sync()
            #expect(result.status == 3, "\(result.status) \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("--force"), "\(result.stderr)")
            #expect(try pair.tree() == before, "nothing deleted in the bucket")
            #expect(try pair.trashed().isEmpty)
            result = try pair.sync(["--max-delete", "80"])
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(try pair.tree() == ["d.txt": "d"])
            #expect(try Set(pair.trashed()) == ["a", "b", "c"], "every deleted version in the bucket's trash")
        }
    }

    @Test(
        "refused keys (a wrong secret, 403 from rclone serve s3, which checks signatures): exit 3 naming the refusal, the secret never printed, nothing changed",
        .enabled(
            if: LocalS3Server.unavailableReason(.rclone) == nil,
            "\(LocalS3Server.unavailableReason(.rclone) ?? "")"))
    func refusedKeys() async throws {
        try await offPool {
            let wrong = "not-the-secret-4f9a"
            let result = try Self.refusedByRclone(environment: [
                "AWS_ACCESS_KEY_ID": S3EndToEndTests.keys.accessKeyID, "AWS_SECRET_ACCESS_KEY": wrong,
            ])
            #expect(result.stderr.contains("403"), "\(result.stderr)")
            #expect(!result.stderr.contains(wrong) && !result.stdout.contains(wrong))
        }
    }

    @Test(
        "a real server that ignores If-None-Match (rclone serve s3): exit 3 naming it, nothing synced, no lock left",
        .enabled(
            if: LocalS3Server.unavailableReason(.rclone) == nil,
            "\(LocalS3Server.unavailableReason(.rclone) ?? "")"))
    func serverIgnoringConditions() async throws {
        try await offPool {
            let result = try Self.refusedByRclone()
            #expect(result.stderr.contains("If-None-Match"), "\(result.stderr)")
        }
    }

    /// A run against `rclone serve s3`, with `a.txt` here and `b.txt` in the bucket, that must be
    /// refused (exit 3) with nothing changed on either side and no lock left: its result.
    static func refusedByRclone(environment: [String: String]? = nil) throws -> CLI.Result {
        let pair = try Bucketed(.rclone)
        try pair.workspace.write("a", "a.txt", in: pair.local)
        try pair.put("b.txt", "b")
        let result = try pair.sync(environment: environment)
        #expect(result.status == 3, "\(result.status) \(result.stdout) \(result.stderr)")
        #expect(pair.workspace.tree(pair.local) == ["a.txt": "a"])
        #expect(try pair.client.listAllObjects(prefix: "").map(\.key) == ["notes/b.txt"], "no lock, no upload")
        return result
    }

    @Test(
        "a server that goes away mid-run: the run ends with a clear error in moments, and the local side is untouched")
    func serverGoesAway() async throws {
        try await offPool {
            guard Self.available() else { return }
            let pair = try Bucketed()
            let ws = pair.workspace
            var expected: [String: String] = [:]
            // Enough files that the run is still writing when the server goes, however slowly this
            // test sees the first of them arrive (a busy machine, the thread sanitizer).
            for index in 0..<3000 {
                try ws.write("content \(index)", "d\(index % 6)/file \(index).txt", in: pair.local)
                expected["d\(index % 6)/file \(index).txt"] = "content \(index)"
            }
            for folder in 0..<6 { expected["d\(folder)"] = "/" }
            let started = try CLI.start(
                [
                    "sync", pair.local.path, pair.container, "--endpoint", pair.server.endpoint.absoluteString,
                    "--state-dir", ws.state.path,
                ], environment: pair.environment)
            let deadline = Date(timeIntervalSinceNow: 60)
            while started.process.isRunning, Date() < deadline,
                ((try? pair.client.listObjects(prefix: "notes/d0/", maxKeys: 5).objects.count) ?? 0) < 5
            {
                usleep(2_000)
            }
            pair.server.stop()
            let stoppedAt = Date()
            let cut = try CLI.wait(started)
            let lingered = Date().timeIntervalSince(stoppedAt)
            print("S3: the run ended \(String(format: "%.1f", lingered)) s after its server went away")
            #expect(lingered < 45, "the rest of the run fails soon, not after retries per file: \(lingered) s")
            #expect([3, 5].contains(cut.status), "\(cut.status) \(cut.stdout) \(cut.stderr)")
            #expect(!cut.stderr.contains("Fatal error"), "\(cut.stderr)")
            #expect(ws.tree(pair.local) == expected, "the local side is untouched")
        }
    }

    @Test(
        "keys are never on the command line: none found is exit 2 with where to put them; http to another host is refused"
    )
    func configurationRefusals() async throws {
        try await offPool {
            let ws = try Workspace()
            var result = try CLI.run(
                ["sync", ws.local.path, "s3://bucket/notes/", "--state-dir", ws.state.path],
                environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_PROFILE": ""])
            #expect(result.status == 2, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("AWS_ACCESS_KEY_ID"), "\(result.stderr)")
            result = try CLI.run(
                [
                    "sync", ws.local.path, "s3://bucket/notes/", "--endpoint", "http://s3.example.com",
                    "--state-dir", ws.state.path,
                ],
                environment: ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "very-secret-value"])
            #expect(result.status == 2, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("--allow-insecure-http"), "\(result.stderr)")
            #expect(!result.stderr.contains("very-secret-value") && !result.stdout.contains("very-secret-value"))
            result = try CLI.run(
                ["sync", ws.local.path, "s3:///notes/", "--state-dir", ws.state.path],
                environment: ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"])
            #expect(result.status == 2 && result.stderr.contains("names no bucket"), "\(result.stderr)")
        }
    }
}
