import Foundation

/// What the loopback test server does for a request; the same routing drives the mock in the
/// contract suite, so all transports face the same server.
///
/// - `/echo` answers 200 with the request's body, and in headers its method (`x-echo-method`),
///   target (`x-echo-uri`), body length (`x-echo-body-length`) and every `x-test-*` field.
/// - `/status/<code>` answers `<code>` with the body `status <code>` (none for 204 and 304).
/// - `/bytes/<n>` answers `n` bytes of ``pattern(count:)``.
/// - `/challenge` answers 401 with `www-authenticate: Basic realm="seams"` (credentials refused).
/// - `/redirect` answers 302 with `location: /echo?redirected=1`.
/// - `/truncate` declares 1000 bytes, sends 100, and closes the connection.
/// - `/stall` and `/slow` never answer.
/// - `/v1/notes…` is the small notes API of `OpenAPI/openapi.yaml`: `GET /v1/notes?limit=n`
///   lists notes 1 and 2, `POST /v1/notes` answers 201 with id 3 and the posted title,
///   `GET /v1/notes/1` and `/2` answer the note, any other id 404 with a JSON problem.
enum LoopbackRoute: Equatable {
    case respond(status: Int, headers: [Header], body: Data)
    case truncate(declaredLength: Int, sent: Data)
    case stall

    struct Header: Equatable {
        let name: String
        let value: String
    }

    /// Deterministic bytes that reveal a lost, doubled or reordered chunk.
    static func pattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) })
    }

    static let storedNotes = [#"{"id":1,"title":"Milk"}"#, #"{"id":2,"title":"Bread"}"#]

    private static func notes(method: String, uri: String, parts: [String], body: Data) -> LoopbackRoute {
        let json = [Header(name: "content-type", value: "application/json")]
        switch (method, parts.count) {
        case ("GET", 0):
            let limit = URLComponents(string: uri)?.queryItems?.first { $0.name == "limit" }?.value.flatMap(Int.init)
            let listed = storedNotes.prefix(limit ?? storedNotes.count)
            return .respond(status: 200, headers: json, body: Data(("[" + listed.joined(separator: ",") + "]").utf8))
        case ("POST", 0):
            struct NewNote: Decodable { let title: String }
            guard let note = try? JSONDecoder().decode(NewNote.self, from: body),
                let title = try? JSONEncoder().encode(note.title)
            else {
                return .respond(status: 400, headers: json, body: Data(#"{"error":"expected {\"title\": …}"}"#.utf8))
            }
            return .respond(status: 201, headers: json, body: Data(#"{"id":3,"title":"#.utf8) + title + Data("}".utf8))
        case ("GET", 1):
            if let id = Int(parts[0]), (1...storedNotes.count).contains(id) {
                return .respond(status: 200, headers: json, body: Data(storedNotes[id - 1].utf8))
            }
            return .respond(status: 404, headers: json, body: Data(#"{"error":"no note \#(parts[0])"}"#.utf8))
        default:
            return .respond(status: 405, headers: json, body: Data(#"{"error":"method not allowed"}"#.utf8))
        }
    }

    static func route(method: String, uri: String, headers: [Header], body: Data) -> LoopbackRoute {
        let path = String(uri.prefix { $0 != "?" })
        let parts = path.split(separator: "/").map(String.init)
        switch parts.first {
        case "echo":
            var echoed = [
                Header(name: "x-echo-method", value: method),
                Header(name: "x-echo-uri", value: uri),
                Header(name: "x-echo-body-length", value: String(body.count)),
            ]
            echoed += headers.filter { $0.name.lowercased().hasPrefix("x-test-") }
            return .respond(status: 200, headers: echoed, body: body)
        case "status":
            let code = parts.count > 1 ? Int(parts[1]) ?? 400 : 400
            let text = code == 204 || code == 304 ? Data() : Data("status \(code)".utf8)
            return .respond(status: code, headers: [], body: text)
        case "bytes":
            let count = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return .respond(status: 200, headers: [], body: pattern(count: count))
        case "challenge":
            return .respond(
                status: 401, headers: [Header(name: "www-authenticate", value: #"Basic realm="seams""#)],
                body: Data("sign in".utf8))
        case "redirect":
            return .respond(
                status: 302,
                headers: [Header(name: "location", value: "/echo?redirected=1")],
                body: Data("moved".utf8)
            )
        case "truncate":
            return .truncate(declaredLength: 1000, sent: pattern(count: 100))
        case "stall", "slow":
            return .stall
        case "v1" where parts.count > 1 && parts[1] == "notes":
            return notes(method: method, uri: uri, parts: Array(parts.dropFirst(2)), body: body)
        default:
            return .respond(status: 404, headers: [], body: Data("no route \(path)".utf8))
        }
    }
}
