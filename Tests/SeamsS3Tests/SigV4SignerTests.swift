import Foundation
import SeamsS3
import Testing

/// The signer against AWS's published test suite, the S3 API reference's worked examples, and
/// aws-c-auth's cases for paths that S3 does not normalize.
@Suite struct SigV4SignerTests {
    /// A `.req` file of the suite: `METHOD target HTTP/1.1`, `Name:value` lines, then an empty
    /// line and the body. The target is decoded text (`/example space/`, `/?ሴ=bar`).
    static func parse(_ text: String) -> (request: SigV4Signer.Request, body: String) {
        let parts = text.components(separatedBy: "\n\n")
        var lines = parts[0].components(separatedBy: "\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let target = requestLine.dropFirst().dropLast().joined(separator: " ")
        let (path, rawQuery) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        let query =
            rawQuery.isEmpty
            ? []
            : rawQuery.split(separator: "&").map { item -> SigV4Signer.Request.QueryItem in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return .init(String(pair[0]), pair.count > 1 ? String(pair[1]) : nil)
            }
        let headers = lines.map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        return (
            SigV4Signer.Request(method: String(requestLine[0]), path: path, query: query, headers: headers),
            parts.dropFirst().joined(separator: "\n\n")
        )
    }

    static let suiteSigner = SigV4Signer(
        credentials: S3Credentials(accessKeyID: SuiteConstants.accessKey, secretAccessKey: SuiteConstants.secretKey),
        region: SuiteConstants.region, service: SuiteConstants.service)

    @Test("each step matches AWS's SigV4 test suite", arguments: SigV4SuiteVector.all)
    func suite(_ vector: SigV4SuiteVector) throws {
        let (request, body) = Self.parse(vector.request)
        let hash = SigV4Signer.payloadHash(Data(body.utf8))
        let canonical = Self.suiteSigner.canonicalRequest(request, payloadHash: hash)
        #expect(canonical == vector.canonicalRequest)
        let toSign = Self.suiteSigner.stringToSign(
            canonicalRequest: canonical, timestamp: try #require(request.header("x-amz-date")))
        #expect(toSign == vector.stringToSign)
        #expect(Self.suiteSigner.signature(stringToSign: toSign) == vector.signature)
        #expect(Self.suiteSigner.authorization(request, payloadHash: hash) == vector.authorization)
    }

    @Test("sign adds the date and the Authorization of the suite's signed request")
    func signGetVanilla() throws {
        var (request, _) = Self.parse(SigV4SuiteVector.getVanilla.request)
        request.headers.removeAll { $0.name == "X-Amz-Date" }
        let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
        Self.suiteSigner.sign(&request, payloadHash: SigV4Signer.emptyPayloadHash, date: date)
        #expect(request.header("x-amz-date") == "20150830T123600Z")
        #expect(request.header("authorization") == SigV4SuiteVector.getVanilla.authorization)
    }

    @Test("temporary credentials send and sign the session token")
    func sessionToken() throws {
        let vector = SigV4SuiteVector.getVanillaWithSessionToken
        let signer = SigV4Signer(
            credentials: S3Credentials(
                accessKeyID: SuiteConstants.accessKey, secretAccessKey: SuiteConstants.secretKey,
                sessionToken: SuiteConstants.sessionToken2),
            region: SuiteConstants.region, service: SuiteConstants.service)
        var (request, _) = Self.parse(vector.request)
        request.headers.removeAll {
            $0.name.lowercased() == "x-amz-date" || $0.name.lowercased() == "x-amz-security-token"
        }
        signer.sign(
            &request, payloadHash: SigV4Signer.emptyPayloadHash, date: Date(timeIntervalSince1970: 1_440_938_160))
        #expect(request.header("x-amz-security-token") == SuiteConstants.sessionToken2)
        #expect(request.header("authorization") == vector.authorization)
    }

    /// aws-c-auth's `*-unnormalized` cases: S3 keeps `//`, `.` and `..` as parts of a key.
    @Test(
        "paths are signed as they are, never normalized",
        arguments: [
            ("//", "c88bcd3d312d75078c0cd961d6deae3f4c754924b01669efcfcb439fd5e5b76e"),
            ("//example//", "87cca117541a147f6df867677d98a7d80dff226d2bfca9e4ffa899665623c7e5"),
            ("/./", "68714168e6557f8f2de0ef956fc24dc2593a4bd2961f8df51898d8a134695145"),
            ("/./example", "beb03f223f7deae4146464f06e29eebbee9c8afbe15c290cf07aa8b119e14cff"),
            ("/example/..", "eca7ead57bb5aa5c8e28007acd4ff04e1ff9a0ff3b237ec1554a184887ff9282"),
            ("/example1/example2/../..", "dc33e0856fd4baca4d7aa2146c38958283844764f38c74252a333df5e613003b"),
            ("/example space/", "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
        ])
    func unnormalized(path: String, signature: String) {
        let request = SigV4Signer.Request(
            method: "GET", path: path,
            headers: [("Host", "example.amazonaws.com"), ("X-Amz-Date", SuiteConstants.amzDate)])
        let authorization = Self.suiteSigner.authorization(request, payloadHash: SigV4Signer.emptyPayloadHash)
        #expect(authorization.hasSuffix("Signature=" + signature))
    }

    // The S3 API reference's worked examples ("Examples: Signature Calculations in AWS Signature
    // Version 4"): bucket examplebucket, virtual-hosted style.
    static let s3Signer = SigV4Signer(
        credentials: S3Credentials(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    static let s3Date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    @Test("the S3 reference's GET Object example (a range of test.txt)")
    func s3GetObject() {
        var request = SigV4Signer.Request(
            method: "GET", path: "/test.txt",
            headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")])
        Self.s3Signer.sign(&request, payloadHash: SigV4Signer.emptyPayloadHash, date: Self.s3Date)
        #expect(
            Self.s3Signer.canonicalRequest(request.droppingAuthorization, payloadHash: SigV4Signer.emptyPayloadHash)
                == """
                GET
                /test.txt

                host:examplebucket.s3.amazonaws.com
                range:bytes=0-9
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;range;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            request.header("authorization")
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("the S3 reference's PUT Object example: a key with '$', a signed body")
    func s3PutObject() {
        let body = Data("Welcome to Amazon S3.".utf8)
        let hash = SigV4Signer.payloadHash(body)
        #expect(hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        var request = SigV4Signer.Request(
            method: "PUT", path: "/test$file.text",
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
            ])
        #expect(request.target == "/test%24file.text")
        Self.s3Signer.sign(&request, payloadHash: hash, date: Self.s3Date)
        #expect(
            request.header("authorization")?.hasSuffix(
                "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
                    + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd") == true)
    }

    @Test("the S3 reference's lifecycle example: a query item with no value is signed as 'lifecycle='")
    func s3Lifecycle() {
        var request = SigV4Signer.Request(
            method: "GET", path: "/", query: [.init("lifecycle")],
            headers: [("Host", "examplebucket.s3.amazonaws.com")])
        #expect(request.target == "/?lifecycle=")
        Self.s3Signer.sign(&request, payloadHash: SigV4Signer.emptyPayloadHash, date: Self.s3Date)
        #expect(
            request.header("authorization")?.hasSuffix(
                "Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543") == true)
    }

    @Test("the S3 reference's list example: query items signed sorted, whatever their order")
    func s3List() {
        var request = SigV4Signer.Request(
            method: "GET", path: "/", query: [.init("prefix", "J"), .init("max-keys", "2")],
            headers: [("Host", "examplebucket.s3.amazonaws.com")])
        #expect(request.target == "/?max-keys=2&prefix=J")
        Self.s3Signer.sign(&request, payloadHash: SigV4Signer.emptyPayloadHash, date: Self.s3Date)
        #expect(
            request.header("authorization")?.hasSuffix(
                "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7") == true)
    }

    @Test("names are encoded once, as S3 wants: every byte but the unreserved, '/' kept in paths only")
    func encoding() {
        #expect(SigV4Signer.encode("a b+c%d/é~_.-", keepingSlashes: true) == "a%20b%2Bc%25d/%C3%A9~_.-")
        #expect(SigV4Signer.encode("a/b=c&d", keepingSlashes: false) == "a%2Fb%3Dc%26d")
        // NFC and NFD stay distinct keys.
        #expect(SigV4Signer.encode("\u{E9}", keepingSlashes: true) == "%C3%A9")
        #expect(SigV4Signer.encode("e\u{301}", keepingSlashes: true) == "e%CC%81")
    }

    @Test(
        "timestamps are UTC, to the second, across days, leap years and centuries",
        arguments: [
            (0.0, "19700101T000000Z"), (951_782_400, "20000229T000000Z"), (1_440_938_160.999, "20150830T123600Z"),
            (4_102_444_799, "20991231T235959Z"), (4_107_542_400, "21000301T000000Z"), (-1, "19691231T235959Z"),
        ])
    func timestamps(seconds: Double, expected: String) {
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test("the secret and the token never show in a description")
    func credentialsDescription() {
        let credentials = S3Credentials(accessKeyID: "AKID", secretAccessKey: "SECRET", sessionToken: "TOKEN")
        #expect(credentials.description.contains("AKID"))
        #expect(!credentials.description.contains("SECRET") && !credentials.description.contains("TOKEN"))
        #expect(!String(reflecting: credentials).contains("SECRET"))
    }
}

extension SigV4Signer.Request {
    /// The request without its `Authorization` header, as it was signed.
    var droppingAuthorization: Self {
        var copy = self
        copy.headers.removeAll { $0.name == "Authorization" }
        return copy
    }
}
