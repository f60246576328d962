import Foundation
import Seams
import SeamsCore
import SeamsSync
import SeamsTesting
import SeamsWebDAV
import Testing

/// A WebDAV server the contract runs against: a real one, started on loopback for the test, or
/// the in-memory double of `SeamsTesting`, which must answer as they do.
enum WebDAVServerUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case apache
    case rclone
    case inMemory

    var testDescription: String { rawValue }

    /// Why this server cannot run here, or `nil`.
    var unavailableReason: String? {
        switch self {
        case .apache: LocalWebDAVServer.unavailableReason(.apache)
        case .rclone: LocalWebDAVServer.unavailableReason(.rclone)
        case .inMemory: nil
        }
    }

    static let credentials = WebDAVCredentials(user: "seams", password: "contract-secret")
    /// Downloads come in pieces of 1 MiB here, so a test file of a few MiB takes several ranges.
    static let pieceSize = 1 << 20

    /// A running server with an accessor on it, and what keeps it alive.
    struct Running: Sendable {
        let accessor: WebDAVAccessor
        /// Makes an accessor on the same server with other credentials.
        let withCredentials: @Sendable (WebDAVCredentials?) -> WebDAVAccessor
        /// The local folder a real server serves (`nil` for the fake).
        let folder: URL?
        /// The transport the accessors send through, and the server's base URL.
        let transport: any HTTPTransportProviding
        let baseURL: URL
        let stop: @Sendable () -> Void
    }

    /// Starts the server; the caller stops it.
    func start() throws -> Running {
        switch self {
        case .apache, .rclone:
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "seams-dav-\(UUID().uuidString)", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let server = try LocalWebDAVServer.start(
                self == .apache ? .apache : .rclone, serving: folder, user: Self.credentials.user,
                password: Self.credentials.password)
            let transport = URLSessionHTTPTransport()
            let make = { @Sendable (credentials: WebDAVCredentials?) in
                WebDAVAccessor(
                    baseURL: server.baseURL, credentials: credentials, transport: transport, timeout: .seconds(20),
                    pause: { _ in }, pieceSize: Self.pieceSize)
            }
            return Running(
                accessor: make(Self.credentials), withCredentials: make, folder: folder, transport: transport,
                baseURL: server.baseURL
            ) {
                server.stop()
                try? FileManager.default.removeItem(at: folder)
            }
        case .inMemory:
            // On today's clock, as a real server's dates are.
            let fileSystem = InMemoryFileSystem(enforcesPermissions: false, now: Date())
            let served = URL(filePath: "/served", directoryHint: .isDirectory)
            try fileSystem.createDirectory(at: served, withIntermediateDirectories: false)
            let server = InMemoryWebDAVServer(serving: served, of: fileSystem, credentials: Self.credentials)
            let make = { @Sendable (credentials: WebDAVCredentials?) in
                WebDAVAccessor(
                    baseURL: server.baseURL, credentials: credentials, transport: server, pause: { _ in },
                    pieceSize: Self.pieceSize)
            }
            return Running(
                accessor: make(Self.credentials), withCredentials: make, folder: nil, transport: server,
                baseURL: server.baseURL, stop: {})
        }
    }
}

/// Runs `body` on the engine's executor: the WebDAV accessor blocks its caller while it waits
/// for the network, and a test's task must not block a thread of Swift's cooperative pool.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingExecutor.shared.run(body)
}
