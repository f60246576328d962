public import Foundation
public import SeamsCore

/// The keys, region and endpoint of an S3 server, found where the AWS CLI and SDKs find them.
///
/// In order: the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`;
/// `AWS_REGION` or `AWS_DEFAULT_REGION`; `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`), then the
/// profile `AWS_PROFILE` names (`default` when unset) in the shared credentials file
/// (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`) and the config file
/// (`AWS_CONFIG_FILE`, else `~/.aws/config`, where the profile is `[profile name]`, or
/// `[default]`). Keys from the environment come as a pair: one without the other is an error,
/// never half of each source. The files are read through a `FileAccessorProviding`, so a test
/// gives them in memory.
public struct S3Configuration: Hashable, Sendable {
    /// The keys.
    public var credentials: S3Credentials
    /// The region, when one was given.
    public var region: String?
    /// The endpoint (`https://s3.example.com`), when one was given; AWS's own otherwise.
    public var endpoint: URL?

    /// A configuration from its parts.
    public init(credentials: S3Credentials, region: String? = nil, endpoint: URL? = nil) {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
    }

    /// Why no configuration could be found.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No keys in the environment, and none for the profile in the files.
        case noCredentials(profile: String)
        /// One of the two environment variables of a key pair is set, the other is not.
        case incompleteEnvironment(missing: String)
        /// The profile has an access key id without a secret, or the reverse.
        case incompleteProfile(profile: String, file: String)
        /// A file could not be read (other than missing); the error's description.
        case unreadable(file: String, reason: String)
        /// An endpoint that is not an `http` or `https` URL with a host.
        case invalidEndpoint(String)

        public var description: String {
            switch self {
            case .noCredentials(let profile):
                "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the profile '\(profile)' "
                    + "an aws_access_key_id and aws_secret_access_key in ~/.aws/credentials"
            case .incompleteEnvironment(let missing): "\(missing) is not set (the other half of the key pair is)"
            case .incompleteProfile(let profile, let file):
                "the profile '\(profile)' in \(file) has only half of a key pair"
            case .unreadable(let file, let reason): "cannot read \(file): \(reason)"
            case .invalidEndpoint(let text): "'\(text)' is not an http or https URL with a host"
            }
        }
    }

    /// The configuration the environment and the files give.
    ///
    /// - Parameters:
    ///   - environment: The variables (`ProcessInfo.processInfo.environment` in production).
    ///   - home: The home folder, where `.aws/` is.
    ///   - files: Reads the files.
    /// - Throws: ``Failure``.
    public static func resolve(
        environment: [String: String], home: URL, files: any FileAccessorProviding
    ) throws(Failure) -> S3Configuration {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let profile = variable("AWS_PROFILE") ?? "default"
        let credentialsPath =
            variable("AWS_SHARED_CREDENTIALS_FILE").map { URL(filePath: $0) }
            ?? home.appending(path: ".aws/credentials")
        let configPath = variable("AWS_CONFIG_FILE").map { URL(filePath: $0) } ?? home.appending(path: ".aws/config")
        let config = try sections(of: configPath, files: files)
        let configProfile = config[profile == "default" ? "default" : "profile " + profile] ?? [:]

        var credentials: S3Credentials?
        switch (variable("AWS_ACCESS_KEY_ID"), variable("AWS_SECRET_ACCESS_KEY")) {
        case (let id?, let secret?):
            credentials = S3Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: variable("AWS_SESSION_TOKEN"))
        case (nil, .some): throw .incompleteEnvironment(missing: "AWS_ACCESS_KEY_ID")
        case (.some, nil): throw .incompleteEnvironment(missing: "AWS_SECRET_ACCESS_KEY")
        case (nil, nil):
            // The credentials file first, then the config file's profile, as the AWS CLI reads them.
            for (values, file) in [
                (try sections(of: credentialsPath, files: files)[profile] ?? [:], credentialsPath),
                (configProfile, configPath),
            ] {
                switch (values["aws_access_key_id"], values["aws_secret_access_key"]) {
                case (let id?, let secret?):
                    credentials = S3Credentials(
                        accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"])
                case (nil, nil): continue
                default: throw .incompleteProfile(profile: profile, file: file.path)
                }
                break
            }
        }
        guard let credentials else { throw .noCredentials(profile: profile) }

        let region = variable("AWS_REGION") ?? variable("AWS_DEFAULT_REGION") ?? configProfile["region"]
        let endpointText =
            variable("AWS_ENDPOINT_URL_S3") ?? variable("AWS_ENDPOINT_URL")
            ?? configProfile["s3.endpoint_url"] ?? configProfile["endpoint_url"]
        var endpoint: URL?
        if let endpointText {
            guard let url = URL(string: endpointText), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else { throw .invalidEndpoint(endpointText) }
            endpoint = url
        }
        return S3Configuration(credentials: credentials, region: region, endpoint: endpoint)
    }

    /// The sections of an INI file as the AWS tools write it: `[name]`, `key = value`, comments
    /// from `#` or `;` at a line's start, and a nested block (`s3 =` then indented lines), whose
    /// keys are kept as `s3.key`. A missing file has no sections.
    static func sections(of url: URL, files: any FileAccessorProviding) throws(Failure) -> [String: [String: String]] {
        let data: Data
        do {
            data = try files.read(from: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return [:]
        } catch {
            throw .unreadable(file: url.path, reason: "\(error)")
        }
        var sections: [String: [String: String]] = [:]
        var current: String?
        var nested: String?
        for rawLine in String(decoding: data, as: UTF8.self).split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        {
            let indented = rawLine.first == " " || rawLine.first == "\t"
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                    .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                current = name
                nested = nil
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let section = current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if indented, let parent = nested {
                sections[section]?[parent + "." + key] = value
            } else if value.isEmpty {
                nested = key
            } else {
                nested = nil
                sections[section]?[key] = value
            }
        }
        return sections
    }
}
