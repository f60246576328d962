import Crypto
public import Foundation
import SeamsCore

/// Signs requests with AWS Signature Version 4, as S3 and every server that speaks its API check
/// them.
///
/// A request is signed in four steps, each a function here so a test can check it against AWS's
/// published test suite: the canonical request (``canonicalRequest(_:payloadHash:)``), the
/// string to sign (``stringToSign(canonicalRequest:timestamp:)``), the signing key derived from
/// the secret for the day, region and service, and the signature over the string to sign.
/// ``sign(_:payloadHash:date:)`` does them all and adds the headers.
///
/// Paths and query values are given decoded (`/bucket/a b.txt`, `prefix` = `é/`) and encoded here
/// once, for the request line and the canonical request alike, as S3 wants them: every byte but
/// the unreserved `A–Z a–z 0–9 - . _ ~` as `%XX`, and a path's `/` kept. S3 paths are not
/// normalized: `//`, `.` and `..` are kept, as they are parts of a key.
public struct SigV4Signer: Sendable {
    /// The keys that sign.
    public var credentials: S3Credentials
    /// The region the request is for (`us-east-1`; what a server that has none expects).
    public var region: String
    /// The service (`s3`).
    public var service: String
    /// Whether ``sign(_:payloadHash:date:)`` sends and signs `x-amz-content-sha256`, which S3
    /// requires (other AWS services do not use it).
    public var sendsPayloadHash: Bool
    /// The last signing key derived, shared by copies of this signer (a copy with other keys,
    /// region or service finds its scope different and derives its own).
    private let keyCache = SigningKeyCache()

    /// A signer for `service` in `region`.
    ///
    /// - Parameters:
    ///   - credentials: The keys.
    ///   - region: The region.
    ///   - service: The service; `s3` by default.
    ///   - sendsPayloadHash: Whether `x-amz-content-sha256` is sent and signed; by default when
    ///     `service` is `s3`.
    public init(credentials: S3Credentials, region: String, service: String = "s3", sendsPayloadHash: Bool? = nil) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.sendsPayloadHash = sendsPayloadHash ?? (service == "s3")
    }

    /// A request as it is signed: method, decoded path and query, and headers (the `Host` header
    /// among them).
    public struct Request: Hashable, Sendable {
        /// The method: `GET`, `PUT`, `HEAD`, `POST`, `DELETE`.
        public var method: String
        /// The decoded path, starting with `/`.
        public var path: String
        /// The decoded query items, in any order; `nil` for an item with no value (`?uploads`).
        public var query: [QueryItem]
        /// The headers, names in any case, in the order they are sent; a name may repeat.
        public var headers: [(name: String, value: String)]

        /// One query item.
        public struct QueryItem: Hashable, Sendable {
            /// The decoded name.
            public var name: String
            /// The decoded value, or `nil` for none.
            public var value: String?

            /// An item from its name and value.
            public init(_ name: String, _ value: String? = nil) {
                self.name = name
                self.value = value
            }
        }

        /// A request from its parts.
        public init(method: String, path: String, query: [QueryItem] = [], headers: [(name: String, value: String)]) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
        }

        /// The path and query as the request line sends them: encoded as they are signed, the
        /// query sorted.
        public var target: String {
            let query = SigV4Signer.canonicalQuery(query)
            return SigV4Signer.encode(path, keepingSlashes: true) + (query.isEmpty ? "" : "?" + query)
        }

        /// The value of the first header named `name` (any case), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public static func == (lhs: Request, rhs: Request) -> Bool {
            lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query
                && lhs.headers.map(\.name) == rhs.headers.map(\.name)
                && lhs.headers.map(\.value) == rhs.headers.map(\.value)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            hasher.combine(path)
            hasher.combine(query)
            for header in headers {
                hasher.combine(header.name)
                hasher.combine(header.value)
            }
        }
    }

    /// The SHA-256 of an empty body, as hex: the payload hash of a request without one.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The payload hash that leaves the body unsigned (S3 over HTTPS accepts it; the body is then
    /// protected by TLS, and by `Content-MD5` where sent).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The SHA-256 of `body`, as lowercase hex.
    public static func payloadHash(_ body: some DataProtocol) -> String {
        hex(SHA256.hash(data: body))
    }

    /// Signs `request`: adds `X-Amz-Date`, `x-amz-content-sha256` (when ``sendsPayloadHash``)
    /// and `X-Amz-Security-Token` (temporary credentials), then `Authorization` over every header.
    ///
    /// - Parameters:
    ///   - request: The request, with its `Host` header.
    ///   - payloadHash: The body's SHA-256 as hex (``payloadHash(_:)``, ``emptyPayloadHash``), or
    ///     ``unsignedPayload``.
    ///   - date: When the request is made; servers refuse a date more than 15 minutes off.
    public func sign(_ request: inout Request, payloadHash: String, date: Date) {
        let timestamp = Self.timestamp(date)
        request.headers.append((name: "X-Amz-Date", value: timestamp))
        if sendsPayloadHash { request.headers.append((name: "x-amz-content-sha256", value: payloadHash)) }
        if let token = credentials.sessionToken { request.headers.append((name: "X-Amz-Security-Token", value: token)) }
        request.headers.append((name: "Authorization", value: authorization(request, payloadHash: payloadHash)))
    }

    /// The `Authorization` header's value for `request`, which already carries its `X-Amz-Date`
    /// (and every other header it sends): every header is signed.
    ///
    /// - Parameters:
    ///   - request: The request, headers complete.
    ///   - payloadHash: The body's hash, as ``sign(_:payloadHash:date:)`` takes it.
    /// - Returns: `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`.
    public func authorization(_ request: Request, payloadHash: String) -> String {
        let timestamp = request.header("x-amz-date") ?? ""
        let canonical = canonicalRequest(request, payloadHash: payloadHash)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical, timestamp: timestamp))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(timestamp)), "
            + "SignedHeaders=\(Self.signedHeaders(request.headers)), Signature=\(signature)"
    }

    /// Step 1: the canonical request: method, encoded path, sorted encoded query, the headers
    /// lowercased, trimmed and sorted (a repeated name's values joined by commas in the order
    /// sent), the signed header names, and the payload hash; joined by line feeds.
    public func canonicalRequest(_ request: Request, payloadHash: String) -> String {
        [
            request.method,
            Self.encode(request.path, keepingSlashes: true),
            Self.canonicalQuery(request.query),
            Self.canonicalHeaders(request.headers),
            Self.signedHeaders(request.headers),
            payloadHash,
        ].joined(separator: "\n")
    }

    /// Step 2: the string to sign: the algorithm, the timestamp, the scope, and the canonical
    /// request's SHA-256.
    public func stringToSign(canonicalRequest: String, timestamp: String) -> String {
        "AWS4-HMAC-SHA256\n\(timestamp)\n\(scope(timestamp))\n"
            + Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))
    }

    /// Steps 3 and 4: the signing key for the string's day, region and service, and the
    /// signature over the string, as hex.
    public func signature(stringToSign: String) -> String {
        let day =
            stringToSign.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).first?
            .prefix(8) ?? ""
        return Self.hex(
            HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(day: String(day))))
    }

    /// The key derived for `day` (four HMACs), kept for the next request of the same day, keys,
    /// region and service.
    private func signingKey(day: String) -> SymmetricKey {
        let scope = [credentials.secretAccessKey, day, region, service]
        if let kept = keyCache.entry.withLock({ $0 }), kept.scope == scope { return kept.key }
        var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        keyCache.entry.withLock { $0 = (scope, key) }
        return key
    }

    /// `yyyymmdd/region/service/aws4_request` for a timestamp's day.
    private func scope(_ timestamp: String) -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        let utc = HTTPDate.fields(date)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(utc.year)\(two(utc.month))\(two(utc.day))T\(two(utc.hour))\(two(utc.minute))\(two(utc.second))Z"
    }

    /// The query sorted by encoded name, then encoded value, as `name=value` joined by `&` (an
    /// item without a value as `name=`).
    static func canonicalQuery(_ query: [Request.QueryItem]) -> String {
        query.map { (encode($0.name, keepingSlashes: false), encode($0.value ?? "", keepingSlashes: false)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    private static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> String {
        var values: [String: [String]] = [:]
        for header in headers {
            values[header.name.lowercased(), default: []].append(trimmed(header.value))
        }
        return values.keys.sorted().map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
    }

    private static func signedHeaders(_ headers: [(name: String, value: String)]) -> String {
        Set(headers.map { $0.name.lowercased() }).sorted().joined(separator: ";")
    }

    /// The value with its ends trimmed and each run of spaces made one.
    private static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    /// Every byte of the UTF-8 but `A–Z a–z 0–9 - . _ ~` (and `/` when `keepingSlashes`) as `%XX`.
    public static func encode(_ text: String, keepingSlashes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                out.append("/")
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return out
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var out = ""
        for byte in bytes {
            out.unicodeScalars.append(digits[Int(byte >> 4)])
            out.unicodeScalars.append(digits[Int(byte & 0xF)])
        }
        return out
    }
}

/// The signing key of one scope (secret, day, region, service), behind a lock.
private final class SigningKeyCache: Sendable {
    let entry = LockedValue<(scope: [String], key: SymmetricKey)?>(nil)
}
