import Foundation
import HTTPTypes
import Seams
import SeamsAsyncHTTPClient
import Testing

/// ``HTTPFileTransferProviding`` on both live transports, against the loopback server: uploads
/// read from a file.
@Suite("HTTP file uploads", .timeLimit(Patience.suite))
struct FileTransferTests {
    private static let echoLength = HTTPField.Name("x-echo-body-length")!

    @Test("an upload from a file sends the file whole, with its length", arguments: TransportUnderTest.live)
    func upload(kind: TransportUnderTest) async throws {
        try await withServer(kind) { transport, request, folder in
            let body = LoopbackRoute.pattern(count: 6 << 20)
            let file = folder.appending(path: "upload.bin")
            try body.write(to: file)
            let (response, echoed) = try await transport.send(
                request(.put, "/echo"), bodyFile: file, timeout: Patience.exchange)
            #expect(response.status == .ok)
            #expect(response.headerFields[Self.echoLength] == String(body.count))
            #expect(echoed == body)
        }
    }

    @Test("an empty file is uploaded as an empty body", arguments: TransportUnderTest.live)
    func emptyUpload(kind: TransportUnderTest) async throws {
        try await withServer(kind) { transport, request, folder in
            let file = folder.appending(path: "empty")
            try Data().write(to: file)
            let (response, echoed) = try await transport.send(
                request(.put, "/echo"), bodyFile: file, timeout: Patience.exchange)
            #expect(response.headerFields[Self.echoLength] == "0")
            #expect(echoed.isEmpty)
        }
    }

    @Test(
        "an upload from a missing file is the file system's ENOENT, and nothing is sent",
        arguments: TransportUnderTest.live)
    func uploadOfMissingFile(kind: TransportUnderTest) async throws {
        try await withServer(kind) { transport, request, folder in
            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(
                    request(.put, "/echo"), bodyFile: folder.appending(path: "missing"), timeout: Patience.exchange)
            }
            #expect(error?.kind == .other)
            #expect(posixCode(error?.underlying?.error) == ENOENT)
        }
    }

    // MARK: Helpers

    private typealias MakeRequest = @Sendable (HTTPRequest.Method, String) -> HTTPRequest

    private func withServer(
        _ kind: TransportUnderTest, _ body: (any HTTPFileTransferProviding, MakeRequest, URL) async throws -> Void
    ) async throws {
        let server = try await LoopbackServer.start()
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "seams-transfer-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let authority = server.authority
        let make: MakeRequest = { method, target in
            HTTPRequest(method: method, scheme: "http", authority: authority, path: target)
        }
        let (transport, ahc) = kind.makeLive()!
        let outcome: Result<Void, any Error>
        do {
            try await body(transport, make, folder)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? FileManager.default.removeItem(at: folder)
        try await ahc?.shutdown()
        try await server.close()
        try outcome.get()
    }
}

/// The `errno` inside a file-system error (`CocoaError` with a `POSIXError` underneath).
private func posixCode(_ error: (any Error)?) -> Int32? {
    guard let error else { return nil }
    if let posix = error as? POSIXError { return posix.code.rawValue }
    guard let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
        underlying.domain == NSPOSIXErrorDomain
    else { return nil }
    return Int32(underlying.code)
}
