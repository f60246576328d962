import Foundation
import HTTPTypes
import Seams
import SeamsTesting
import Testing

/// The real WebDAV servers the WebDAV tests run against: each kind starts, stores and serves
/// files in its folder, asks for credentials, and is gone after `stop()`. A kind whose program
/// is missing here (`.ci/run` installs both) is cancelled with the reason, the other still runs.
@Suite struct LocalWebDAVServerTests {
    @Test(
        "PUT stores a file in the served folder; GET serves a file put there directly",
        arguments: LocalWebDAVServer.Kind.allCases)
    func putThenGet(kind: LocalWebDAVServer.Kind) async throws {
        try skipIfUnavailable(kind)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LocalWebDAVServer.start(kind, serving: folder)
        defer { server.stop() }
        let http = HTTP(server: server)

        let put = try await http.send("PUT", "notes.txt", body: Data("hello over WebDAV".utf8))
        #expect(put.status == 201)
        #expect(try Data(contentsOf: folder.appending(path: "notes.txt")) == Data("hello over WebDAV".utf8))

        try Data("written directly".utf8).write(to: folder.appending(path: "direct.txt"))
        let get = try await http.send("GET", "direct.txt")
        #expect(get.status == 200)
        #expect(get.body == Data("written directly".utf8))
    }

    @Test("a request without credentials gets 401 and a Basic challenge", arguments: LocalWebDAVServer.Kind.allCases)
    func unauthenticated(kind: LocalWebDAVServer.Kind) async throws {
        try skipIfUnavailable(kind)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LocalWebDAVServer.start(kind, serving: folder, user: "ana", password: "right")
        defer { server.stop() }

        let anonymous = try await HTTP(server: server, authorization: nil).send("GET", "")
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Basic ") == true)
        let wrong = try await HTTP(server: server, authorization: ("ana", "wrong")).send(
            "PUT", "x.txt", body: Data("x".utf8))
        #expect(wrong.status == 401)
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "x.txt").path))
    }

    @Test(
        "after stop() the port refuses connections; a second stop() does nothing",
        arguments: LocalWebDAVServer.Kind.allCases)
    func stopEndsTheServer(kind: LocalWebDAVServer.Kind) async throws {
        try skipIfUnavailable(kind)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LocalWebDAVServer.start(kind, serving: folder)
        let http = HTTP(server: server)
        #expect(try await http.send("PUT", "a.txt", body: Data("a".utf8)).status == 201)

        server.stop()
        server.stop()
        await #expect(throws: HTTPTransportError.cannotConnect) { try await http.send("GET", "a.txt") }
        #expect(try Data(contentsOf: folder.appending(path: "a.txt")) == Data("a".utf8))
    }

    @Test("a folder that does not exist is refused before anything starts", arguments: LocalWebDAVServer.Kind.allCases)
    func missingFolder(kind: LocalWebDAVServer.Kind) throws {
        try skipIfUnavailable(kind)
        let missing = FileManager.default.temporaryDirectory.appending(
            path: "seams-webdav-missing-\(UUID().uuidString)")
        #expect(throws: LocalWebDAVServer.StartError.couldNotPrepare("\(missing.path) is not a folder")) {
            try LocalWebDAVServer.start(kind, serving: missing)
        }
    }

    /// Cancels this case (only this argument's) when the server program is missing, saying why.
    private func skipIfUnavailable(_ kind: LocalWebDAVServer.Kind) throws {
        if let reason = LocalWebDAVServer.unavailableReason(kind) { try Test.cancel(Comment(rawValue: reason)) }
    }
}

/// A new empty folder of its own under the temporary folder.
private func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "seams-webdav-test-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Plain HTTP requests to one server, through the package's URLSession transport (which returns a
/// 401 with a Basic challenge as a response; a bare `URLSession` on Linux waits on it for good).
private struct HTTP {
    struct Response {
        var status: Int
        /// Header fields, names in lower case.
        var headers: [String: String]
        var body: Data
    }

    let server: LocalWebDAVServer
    var authorization: (user: String, password: String)?

    init(server: LocalWebDAVServer) {
        self.init(server: server, authorization: (server.user, server.password))
    }

    init(server: LocalWebDAVServer, authorization: (user: String, password: String)?) {
        self.server = server
        self.authorization = authorization
    }

    func send(_ method: String, _ path: String, body: Data? = nil) async throws -> Response {
        let url = path.isEmpty ? server.baseURL : server.baseURL.appending(path: path)
        var request = HTTPRequest(
            method: try #require(HTTPRequest.Method(method)), scheme: "http",
            authority: "127.0.0.1:\(url.port ?? 80)", path: url.path(percentEncoded: true))
        if let authorization {
            let token = Data("\(authorization.user):\(authorization.password)".utf8).base64EncodedString()
            request.headerFields[.authorization] = "Basic \(token)"
        }
        let (response, data) = try await URLSessionHTTPTransport.shared.send(request, body: body, timeout: .seconds(20))
        var headers: [String: String] = [:]
        for field in response.headerFields { headers[field.name.canonicalName] = field.value }
        return Response(status: response.status.code, headers: headers, body: data)
    }
}
