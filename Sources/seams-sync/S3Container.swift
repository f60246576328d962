import Foundation
import SeamsCore
import SeamsS3

/// A container given as an `s3://bucket/prefix/` URL: a folder of an S3 bucket, with the
/// server, region and keys to reach it.
///
/// The keys come as the AWS tools find them (``S3Configuration``: `AWS_ACCESS_KEY_ID` and
/// `AWS_SECRET_ACCESS_KEY`, else the profile in `~/.aws/credentials`); never from the command
/// line, and never printed. The endpoint is `--endpoint`, else the profile's or
/// `AWS_ENDPOINT_URL_S3`, else AWS's own for the region.
struct S3Container: Equatable {
    /// The bucket.
    var bucket: String
    /// The folder in it (`notes`; `""` for the whole bucket).
    var prefix: String
    /// The server: scheme, host and port.
    var endpoint: URL
    /// The region requests are signed for.
    var region: String
    /// Path-style or virtual-hosted.
    var addressing: S3Client.Addressing
    /// The keys.
    var configuration: S3Configuration

    /// Why an `s3://` container is refused.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case noBucket
        case configuration(S3Configuration.Failure)
        case invalidEndpoint(String)
        case insecure(host: String)

        var description: String {
            switch self {
            case .noBucket: "The container URL names no bucket: give it as s3://bucket/folder/."
            case .configuration(let failure): "S3: \(failure.description)."
            case .invalidEndpoint(let text): "--endpoint '\(text)' is not an http or https URL with a host."
            case .insecure(let host):
                "Plain http:// to \(host) would send the requests unencrypted; use https://, or pass --allow-insecure-http."
            }
        }
    }

    /// The S3 container `argument` names, or `nil` when it is not an `s3://` URL.
    ///
    /// - Parameters:
    ///   - argument: The container argument.
    ///   - endpoint: `--endpoint`, if given.
    ///   - region: `--region`, if given.
    ///   - pathStyle: `--path-style` (`nil`: path-style for an endpoint given, virtual-hosted for AWS).
    ///   - allowInsecureHTTP: Whether a plain `http://` endpoint on another machine is allowed.
    ///   - environment: The process's variables.
    ///   - home: The home folder, where `.aws/` is.
    /// - Throws: ``Refusal``.
    static func parse(
        _ argument: String, endpoint: String?, region: String?, pathStyle: Bool?, allowInsecureHTTP: Bool,
        environment: [String: String], home: URL
    ) throws(Refusal) -> S3Container? {
        guard argument.lowercased().hasPrefix("s3://") else { return nil }
        let rest = argument.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        guard !bucket.isEmpty else { throw .noBucket }
        let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
        let configuration: S3Configuration
        do {
            configuration = try S3Configuration.resolve(
                environment: environment, home: home, files: DefaultFileAccessor())
        } catch {
            throw .configuration(error)
        }
        let region = region ?? configuration.region ?? "us-east-1"
        var server = configuration.endpoint
        if let endpoint {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else { throw .invalidEndpoint(endpoint) }
            server = url
        }
        let given = server != nil
        let endpointURL = server ?? URL(string: "https://s3.\(region).amazonaws.com")!
        let host = endpointURL.host ?? ""
        if endpointURL.scheme?.lowercased() == "http", !allowInsecureHTTP, !RemoteContainer.isLoopback(host) {
            throw .insecure(host: host)
        }
        return S3Container(
            bucket: bucket, prefix: prefix, endpoint: endpointURL, region: region,
            addressing: (pathStyle ?? given) ? .path : .virtualHosted, configuration: configuration)
    }

    /// The container's URL as the engine names it: `s3://bucket/prefix/`.
    var url: URL {
        var components = URLComponents()
        components.scheme = "s3"
        components.host = bucket
        components.path = prefix.isEmpty ? "/" : "/" + prefix + "/"
        return components.url!
    }
}
