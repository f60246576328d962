import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import SeamsWebDAV
import Testing

/// The contract of the WebDAV boundary (`WebDAVContract` in SeamsTesting: listing, metadata,
/// atomic replace, exclusive create, move, copy, delete, names, errors), run on real servers
/// (Apache httpd with `mod_dav_fs`, `rclone serve webdav`) started on loopback by the test itself,
/// and on the in-memory fake. Each behaviour works in a collection of its own; a failure names
/// the behaviour and the server.
@Suite("WebDAV boundary contract")
struct WebDAVContractTests {
    @Test("every behaviour holds", arguments: WebDAVServerUnderTest.allCases)
    func contract(server: WebDAVServerUnderTest) async throws {
        if let reason = server.unavailableReason {
            print("skipped on \(server.rawValue): \(reason)")
            return
        }
        let running = try server.start()
        defer { running.stop() }
        let outcome = try await onOwnThread {
            WebDAVContract.run(on: running.accessor, under: running.accessor.baseURL, server: server.rawValue)
        }
        for note in outcome.notes { print("platform note, \(server.rawValue), \(note)") }
        for failure in outcome.failures { Issue.record("\(server.rawValue): \(failure)") }
        #expect(WebDAVContract.behaviours.count >= 25)
    }

    @Test(
        "a server that fails every MOVE fails the contract where moves are used, and only there; a noted difference is not run"
    )
    func contractCatchesABrokenServer() async throws {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: false, now: Date())
        let served = URL(filePath: "/served", directoryHint: .isDirectory)
        try fileSystem.createDirectory(at: served, withIntermediateDirectories: false)
        let server = InMemoryWebDAVServer(serving: served, of: fileSystem)
        server.inject(.respond(status: 500), on: HTTPRequest.Method("MOVE")!)
        let accessor = WebDAVAccessor(baseURL: server.baseURL, transport: server, retryLimit: 0, pause: { _ in })
        let outcome = try await onOwnThread {
            WebDAVContract.run(on: accessor, under: accessor.baseURL, server: "broken")
        }
        #expect(!outcome.failures.isEmpty)
        let failed = Set(outcome.failures.map { String($0.prefix { $0 != ":" }) })
        #expect(
            failed.count >= 5 && failed.allSatisfy { $0.contains("move") },
            "every failure is a behaviour that moves: \(failed)")
        #expect(outcome.notes.isEmpty)
        // Named as rclone, the behaviours noted for it are not run and are reported as notes.
        let asRclone = try await onOwnThread { () throws -> WebDAVContract.Outcome in
            let root = accessor.baseURL.appending(path: "as-rclone", directoryHint: .isDirectory)
            try accessor.createDirectory(at: root, withIntermediateDirectories: false)
            return WebDAVContract.run(on: accessor, under: root, server: "rclone")
        }
        #expect(asRclone.notes.count == WebDAVContract.behaviours.filter { $0.differsOn["rclone"] != nil }.count)
        #expect(asRclone.notes.count == 2)
    }

    @Test(
        "rclone answers a PROPFIND with Depth: infinity, Apache refuses it as set up by default, the fake as it is made",
        arguments: WebDAVServerUnderTest.allCases)
    func treeListing(server: WebDAVServerUnderTest) async throws {
        if let reason = server.unavailableReason {
            print("skipped on \(server.rawValue): \(reason)")
            return
        }
        let running = try server.start()
        defer { running.stop() }
        try await onOwnThread {
            let dav = running.accessor
            try dav.createDirectory(at: dav.baseURL.appending(path: "t/u"), withIntermediateDirectories: true)
            try dav.write(Data("x".utf8), to: dav.baseURL.appending(path: "t/u/f"))
            let expected = try dav.contentsOfDirectory(at: dav.baseURL.appending(path: "t/u"))
            let fetched = try dav.beginTreeListing(at: dav.baseURL, expecting: 3)
            #expect(fetched == (server == .rclone), "answered on \(server.rawValue)")
            #expect(try dav.contentsOfDirectory(at: dav.baseURL.appending(path: "t/u")) == expected)
            #expect(try !dav.beginTreeListing(at: dav.baseURL, expecting: 3) || fetched, "a refusal is remembered")
        }
    }

    @Test("refused credentials read as EACCES, and nothing changes", arguments: WebDAVServerUnderTest.allCases)
    func refusedCredentials(server: WebDAVServerUnderTest) async throws {
        if let reason = server.unavailableReason {
            print("skipped on \(server.rawValue): \(reason)")
            return
        }
        let running = try server.start()
        defer { running.stop() }
        try await onOwnThread {
            for credentials in [WebDAVCredentials(user: "seams", password: "wrong"), nil] {
                let refused = running.withCredentials(credentials)
                try expectFailure(.fileReadNoPermission, EACCES) {
                    _ = try refused.contentsOfDirectory(at: refused.baseURL)
                }
                try expectFailure(.fileWriteNoPermission, EACCES) {
                    try refused.write(Data("x".utf8), to: refused.baseURL.appending(path: "intruder"))
                }
            }
            #expect(try running.accessor.contentsOfDirectory(at: running.accessor.baseURL).isEmpty)
        }
    }
}

/// Runs `body` and checks that it throws the file system's error: the code (when given) and errno
/// (the contract's own check, for the other WebDAV tests).
func expectFailure(_ code: CocoaError.Code?, _ errno: Int32, _ body: () throws -> Void) throws {
    try WebDAVContract.expectFailure(code, errno, body)
}
