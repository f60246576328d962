import Foundation
import Seams
import SeamsTesting
import Testing

/// A real WebDAV server the contract runs against, started on loopback for the test.
enum WebDAVServerUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case apache
    case rclone

    var testDescription: String { rawValue }

    /// Why this server cannot run here, or `nil`.
    var unavailableReason: String? {
        switch self {
        case .apache: LocalWebDAVServer.unavailableReason(.apache)
        case .rclone: LocalWebDAVServer.unavailableReason(.rclone)
        }
    }

    static let credentials = WebDAVCredentials(user: "seams", password: "contract-secret")

    /// A running server with an accessor on it, and what keeps it alive.
    struct Running: Sendable {
        let accessor: WebDAVAccessor
        /// Makes an accessor on the same server with other credentials.
        let withCredentials: @Sendable (WebDAVCredentials?) -> WebDAVAccessor
        /// The local folder a real server serves (`nil` for the fake).
        let folder: URL?
        let stop: @Sendable () -> Void
    }

    /// Starts the server; the caller stops it.
    func start() throws -> Running {
        switch self {
        case .apache, .rclone:
            let folder = FileManager.default.temporaryDirectory.appending(path: "seams-dav-\(UUID().uuidString)", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let server = try LocalWebDAVServer.start(
                self == .apache ? .apache : .rclone, serving: folder, user: Self.credentials.user, password: Self.credentials.password)
            let transport = URLSessionHTTPTransport()
            let make = { @Sendable (credentials: WebDAVCredentials?) in
                WebDAVAccessor(baseURL: server.baseURL, credentials: credentials, transport: transport, timeout: .seconds(20), pause: { _ in })
            }
            return Running(accessor: make(Self.credentials), withCredentials: make, folder: folder) {
                server.stop()
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }
}

/// Runs `body` on a thread of its own: the WebDAV accessor blocks its caller while it waits for
/// the network, and a test's task must not block a thread of Swift's cooperative pool.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
