import Foundation

/// What the loopback test server does for a request; the same routing drives the mock in the
/// contract suite, so all transports face the same server.
///
/// - `/echo` answers 200 with the request's body, and in headers its method (`x-echo-method`),
///   target (`x-echo-uri`), body length (`x-echo-body-length`) and every `x-test-*` field.
/// - `/status/<code>` answers `<code>` with the body `status <code>` (none for 204 and 304).
/// - `/bytes/<n>` answers `n` bytes of ``pattern(count:)``.
/// - `/redirect` answers 302 with `location: /echo?redirected=1`.
/// - `/truncate` declares 1000 bytes, sends 100, and closes the connection.
/// - `/stall` and `/slow` never answer.
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
        default:
            return .respond(status: 404, headers: [], body: Data("no route \(path)".utf8))
        }
    }
}
