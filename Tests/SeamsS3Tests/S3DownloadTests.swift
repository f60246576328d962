import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

/// A download piece by piece from servers that do not keep to what was asked: each piece is checked
/// as the client's own, whatever the server claims.
@Suite struct S3DownloadTests {
    static let credentials = S3Credentials(accessKeyID: "id", secretAccessKey: "secret")

    /// Forwards to a server; takes `Content-Range` off the answer of the `GET` numbered `stripping`
    /// (1 for the first): a server that ignored that piece's `Range`.
    final class RangeDropping: WaitingHTTPTransportProviding {
        let base: InMemoryS3Server
        let stripping: Int
        private let gets = LockedValue(0)

        init(_ base: InMemoryS3Server, stripping: Int) {
            self.base = base
            self.stripping = stripping
        }

        func sendWaiting(_ request: HTTPRequest, body: HTTPRequestBody, timeout: Duration) throws(HTTPTransportError)
            -> (HTTPResponse, Data)
        {
            var (response, data) = try base.sendWaiting(request, body: body, timeout: timeout)
            guard request.method == .get else { return (response, data) }
            let count = gets.withLock {
                $0 += 1
                return $0
            }
            if count == stripping {
                response.status = .ok
                response.headerFields[.contentRange] = nil
            }
            return (response, data)
        }

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(HTTPTransportError)
            -> (HTTPResponse, Data)
        {
            try await base.send(request, body: body, timeout: timeout)
        }
    }

    static func local() throws -> (InMemoryFileSystem, URL) {
        let files = InMemoryFileSystem()
        try files.createDirectory(at: URL(filePath: "/local"), withIntermediateDirectories: false)
        return (files, URL(filePath: "/local/f.bin"))
    }

    @Test("a server that ignores If-Match: a piece of the next version is told by its ETag; no file is left")
    func ignoredIfMatch() throws {
        let server = InMemoryS3Server(credentials: Self.credentials)
        let s3 = S3Client(
            endpoint: server.endpoint, bucket: "b", region: "us-east-1", credentials: Self.credentials,
            transport: server, pause: { _ in })
        try s3.createBucket()
        try s3.putObject("f.bin", body: Data(repeating: 1, count: 3 << 20))
        server.ignoreConditions()
        let (files, local) = try Self.local()
        let writer = PiecesThen(files: files) {
            try s3.putObject("f.bin", body: Data(repeating: 2, count: 3 << 20))
        }
        #expect(throws: S3Error.changedDuringDownload("f.bin")) {
            try s3.download("f.bin", toNewFile: local, in: writer, pieceSize: 1 << 20)
        }
        #expect(!files.fileExists(at: local))
        // The same object unchanged comes down whole from the same server.
        try s3.download("f.bin", toNewFile: local, in: files, pieceSize: 1 << 20)
        #expect(try files.read(from: local) == Data(repeating: 2, count: 3 << 20))
    }

    @Test("a piece answered without the range asked for fails the download, never appended as if it were")
    func pieceWithoutItsRange() throws {
        let server = InMemoryS3Server(credentials: Self.credentials)
        let transport = RangeDropping(server, stripping: 2)
        let s3 = S3Client(
            endpoint: server.endpoint, bucket: "b", region: "us-east-1", credentials: Self.credentials,
            transport: transport, pause: { _ in })
        try s3.createBucket()
        try s3.putObject("f.bin", body: Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0) }))
        let (files, local) = try Self.local()
        #expect(
            performing: { try s3.download("f.bin", toNewFile: local, in: files, pieceSize: 1 << 20) },
            throws: { error in
                guard case .malformedAnswer(let what) = error as? S3Error else { return false }
                return what == "GET f.bin from byte 1048576 answered without that range"
            })
        #expect(!files.fileExists(at: local))
    }
}
