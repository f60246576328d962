import Seams

/// Why a ``NotesClient`` call failed, in terms an app shows or acts on.
enum NotesClientError: Error, Hashable, Sendable {
    /// The token was refused (401 or 403): sign in again. Never retried.
    case unauthorized
    /// The note does not exist (404). Never retried.
    case notFound(id: Int)
    /// The server refused the input (422) and said why. Never retried.
    case rejected(reason: String)
    /// The server stayed unavailable (transient errors, 429, 5xx) through every attempt.
    case unavailable(attempts: Int)
    /// A transport failure that was not retried: the request may have been applied (a create that
    /// timed out), or retrying cannot help (cancelled, host not found, TLS).
    case transport(HTTPTransportError)
    /// A status this client does not expect.
    case unexpectedStatus(Int)
    /// A 2xx whose body is not what the API documents.
    case malformedResponse
}
