import Foundation
import HTTPTypes
import Seams

/// An example of an API client on ``HTTPTransportProviding``: a typed client for a small notes
/// service (`GET/POST /v1/notes`, `GET/DELETE /v1/notes/{id}`, bearer token, JSON).
///
/// Retries live here, where the API's meaning is known: a request that is safe to repeat (GET,
/// DELETE) is retried on transient transport errors, 429 and 5xx, waiting 1 s, 2 s, … or what
/// `Retry-After` says, on an injected clock. A create is retried only when it surely did not
/// reach the server (cannot connect, 429, 503); after a timeout or a lost connection it may have
/// been applied, so the error goes to the caller.
struct NotesClient: Sendable {
    struct Note: Codable, Hashable, Sendable {
        let id: Int
        var title: String
    }

    private struct Rejection: Decodable {
        let error: String
    }

    let authority: String
    let token: String
    let transport: any HTTPTransportProviding
    let clock: any Clock<Duration>
    let maxAttempts: Int

    init(
        authority: String = "notes.example.com",
        token: String,
        transport: any HTTPTransportProviding = URLSessionHTTPTransport.shared,
        clock: any Clock<Duration> = ContinuousClock(),
        maxAttempts: Int = 3
    ) {
        self.authority = authority
        self.token = token
        self.transport = transport
        self.clock = clock
        self.maxAttempts = maxAttempts
    }

    func notes() async throws(NotesClientError) -> [Note] {
        try decode([Note].self, from: try await send(.get, "/v1/notes", id: nil))
    }

    func note(id: Int) async throws(NotesClientError) -> Note {
        try decode(Note.self, from: try await send(.get, "/v1/notes/\(id)", id: id))
    }

    func create(title: String) async throws(NotesClientError) -> Note {
        let body = Data(#"{"title":"#.utf8) + ((try? JSONEncoder().encode(title)) ?? Data()) + Data("}".utf8)
        return try decode(Note.self, from: try await send(.post, "/v1/notes", id: nil, body: body))
    }

    func delete(id: Int) async throws(NotesClientError) {
        _ = try await send(.delete, "/v1/notes/\(id)", id: id)
    }

    private func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        id: Int?,
        body: Data? = nil
    ) async throws(NotesClientError) -> Data {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .accept: "application/json"]
        if body != nil { headers[.contentType] = "application/json" }
        let request = HTTPRequest(
            method: method, scheme: "https", authority: authority, path: path, headerFields: headers)
        let idempotent = method != .post
        for attempt in 1...maxAttempts {
            var wait: Duration = .seconds(1 << (attempt - 1))
            do {
                let (response, data) = try await transport.send(request, body: body, timeout: .seconds(10))
                switch response.status.code {
                case 200..<300:
                    return data
                case 401, 403:
                    throw NotesClientError.unauthorized
                case 404 where id != nil:
                    throw NotesClientError.notFound(id: id ?? 0)
                case 422:
                    let reason = (try? JSONDecoder().decode(Rejection.self, from: data))?.error ?? "no reason given"
                    throw NotesClientError.rejected(reason: reason)
                case 429, 500..<600:
                    // 429 and 503 say the request was not processed; other 5xx only if repeating is safe.
                    guard idempotent || [429, 503].contains(response.status.code) else {
                        throw NotesClientError.unexpectedStatus(response.status.code)
                    }
                    if let seconds = response.headerFields[.retryAfter].flatMap(Int.init) { wait = .seconds(seconds) }
                default:
                    throw NotesClientError.unexpectedStatus(response.status.code)
                }
            } catch let error as NotesClientError {
                throw error
            } catch let error as HTTPTransportError {
                let retry = idempotent ? error.isTransient : error.kind == .cannotConnect
                guard retry else { throw .transport(error) }
            } catch {
                throw .malformedResponse  // not reached: the transport throws HTTPTransportError only
            }
            guard attempt < maxAttempts else { break }
            do { try await clock.sleep(for: wait) } catch { throw .transport(.cancelled) }
        }
        throw .unavailable(attempts: maxAttempts)
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(NotesClientError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .malformedResponse
        }
    }
}
