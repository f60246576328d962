/// The keys that sign requests to an S3 server: an access key id, its secret, and for temporary
/// credentials a session token.
///
/// The secret and the token are never printed: `description` shows the access key id only, so a
/// log line, a `--json` report or a test failure that prints the credentials gives nothing away.
public struct S3Credentials: Hashable, Sendable, CustomStringConvertible {
    /// The access key id (`AKIA…`), sent in every request's `Authorization` header.
    public var accessKeyID: String
    /// The secret access key; it signs, it is never sent.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Credentials from their parts.
    ///
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - secretAccessKey: The secret access key.
    ///   - sessionToken: The session token of temporary credentials, or `nil`.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The access key id, with the secret and the token left out.
    public var description: String {
        "S3Credentials(accessKeyID: \(accessKeyID), secret: <hidden>\(sessionToken == nil ? "" : ", session token: <hidden>"))"
    }
}
