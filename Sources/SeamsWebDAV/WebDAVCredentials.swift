import Foundation
import SeamsCore

/// A user name and password for HTTP Basic authentication with a WebDAV server.
///
/// Never printed: its description hides the password, so a log line or a report that shows an
/// accessor does not leak it.
///
/// ```swift
/// let credentials = WebDAVCredentials(user: "me", password: secret)
/// let server = WebDAVAccessor(baseURL: url, credentials: credentials, transport: transport)
/// ```
public struct WebDAVCredentials: Hashable, Sendable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The value of the `Authorization` header: `Basic` and the base64 of `user:password`.
    public var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The user name and a hidden password.
    public var description: String { "\(user):•••" }
}
