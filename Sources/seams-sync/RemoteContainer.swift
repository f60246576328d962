import Foundation
import SeamsCore
import SeamsWebDAV

/// A container given as `http://` or `https://` URL: a WebDAV collection, with its credentials.
///
/// Credentials come from `SEAMS_WEBDAV_USER` and `SEAMS_WEBDAV_PASSWORD`, else from `~/.netrc`
/// (the `machine` entry of the URL's host, else `default`); never from the command line, and
/// never printed.
struct RemoteContainer: Equatable {
    /// The collection, ending in `/`.
    var url: URL
    /// The credentials found, or `nil` to send none.
    var credentials: WebDAVCredentials?

    /// Why a container URL is refused.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case credentialsInURL
        case insecure(host: String)
        case noHost

        var description: String {
            switch self {
            case .credentialsInURL:
                "The container URL holds a user or password; give them in SEAMS_WEBDAV_USER and SEAMS_WEBDAV_PASSWORD or ~/.netrc instead."
            case .insecure(let host):
                "Plain http:// to \(host) would send the password unencrypted; use https://, or pass --allow-insecure-http."
            case .noHost:
                "The container URL names no server."
            }
        }
    }

    /// The remote container `argument` names, or `nil` when it is a folder path.
    ///
    /// - Throws: ``Refusal`` for a URL that holds credentials, has no host, or is plain HTTP to
    ///   another machine than this one without `allowInsecureHTTP`.
    static func parse(
        _ argument: String, allowInsecureHTTP: Bool, environment: [String: String], netrc: URL?
    ) throws(Refusal) -> RemoteContainer? {
        let lowered = argument.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), var url = URL(string: argument) else {
            return nil
        }
        guard url.user == nil, url.password == nil else { throw .credentialsInURL }
        guard let host = url.host(), !host.isEmpty else { throw .noHost }
        if url.scheme?.lowercased() == "http", !allowInsecureHTTP, !isLoopback(host) { throw .insecure(host: host) }
        if !url.path(percentEncoded: true).hasSuffix("/") { url = url.appending(path: "", directoryHint: .isDirectory) }
        return RemoteContainer(url: url, credentials: credentials(host: host, environment: environment, netrc: netrc))
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The credentials for `host`: the environment's, else the `.netrc` file's.
    static func credentials(host: String, environment: [String: String], netrc: URL?) -> WebDAVCredentials? {
        if let user = environment["SEAMS_WEBDAV_USER"] {
            return WebDAVCredentials(user: user, password: environment["SEAMS_WEBDAV_PASSWORD"] ?? "")
        }
        guard let netrc, let text = try? String(contentsOf: netrc, encoding: .utf8) else { return nil }
        return Netrc(text).credentials(for: host)
    }
}

/// The entries of a `.netrc` file (`machine HOST login USER password SECRET`, `default …`,
/// `macdef` bodies skipped), as curl and ftp read it.
struct Netrc {
    private var machines: [(host: String?, login: String?, password: String?)] = []

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var tokens: [Substring] = []
        while let line = lines.popFirst() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.first == "macdef" {
                // A macro body runs to the next empty line.
                while let body = lines.popFirst(), !body.trimmingCharacters(in: .whitespaces).isEmpty {}
                continue
            }
            tokens += words
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            guard token == "machine" || token == "default" else { continue }
            var entry: (host: String?, login: String?, password: String?) = (nil, nil, nil)
            if token == "machine", index < tokens.count {
                entry.host = String(tokens[index])
                index += 1
            }
            while index + 1 < tokens.count, tokens[index] != "machine", tokens[index] != "default" {
                switch tokens[index] {
                case "login": entry.login = String(tokens[index + 1])
                case "password": entry.password = String(tokens[index + 1])
                default: break
                }
                index += 2
            }
            machines.append(entry)
        }
    }

    /// The `machine` entry for `host`, else the `default` entry; `nil` without a login.
    func credentials(for host: String) -> WebDAVCredentials? {
        let entry = machines.first { $0.host == host } ?? machines.first { $0.host == nil }
        guard let entry, let login = entry.login else { return nil }
        return WebDAVCredentials(user: login, password: entry.password ?? "")
    }
}
