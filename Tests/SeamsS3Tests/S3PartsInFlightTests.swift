import Dispatch
import Foundation
import HTTPTypes
import SeamsCore
import SeamsS3
import SeamsTesting
import Testing

/// A file written in parts sends several parts at once, never more than the accessor's budget
/// (so never more in memory), arrives whole, and a part refused ends the upload with nothing left.
@Suite struct S3PartsInFlightTests {
    /// Holds each part `PUT` on its way through `transport` until `gather` of them are in
    /// flight, counting the most in flight at once.
    final class PartGathering: Sendable {
        let transport: InterceptingTransport
        let gather: Int
        private let state = LockedValue((inFlight: 0, most: 0, parts: 0))
        private let arrived = DispatchSemaphore(value: 0)

        init(server: InMemoryS3Server, gather: Int) {
            self.gather = gather
            transport = InterceptingTransport(server)
            let isPart: @Sendable (HTTPRequest) -> Bool = {
                $0.method == .put && $0.path?.contains("partNumber=") == true
            }
            transport.on(.before, of: isPart) { [weak self] _ in self?.arrive() }
            transport.on(.after, of: isPart) { [weak self] _ in self?.state.withLock { $0.inFlight -= 1 } }
        }

        var most: Int { state.withLock { $0.most } }
        var parts: Int { state.withLock { $0.parts } }

        /// Counts a part in and waits for the others of its group: each test sends whole groups.
        /// An uploader that sends fewer at once leaves a part waiting, and the test, failing,
        /// goes on after a minute.
        private func arrive() {
            let now = state.withLock { state -> Int in
                state.inFlight += 1
                state.parts += 1
                state.most = max(state.most, state.inFlight)
                return state.inFlight
            }
            if now >= gather {
                for _ in 1..<gather { arrived.signal() }
            } else {
                _ = arrived.wait(timeout: .now() + .seconds(60))
            }
        }
    }

    static let keys = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
    static let part = 5 << 20
    /// Six parts: five whole and a short last one, each MiB its own byte (so parts put back in
    /// the wrong order show), made by block copies (a closure per byte took long under the
    /// thread sanitizer).
    static let content: Data = {
        var content = Data(capacity: 5 * part + 1_000)
        for mebibyte in 0..<(5 * part >> 20) { content.append(Data(repeating: UInt8(mebibyte + 1), count: 1 << 20)) }
        content.append(Data(repeating: 0xEE, count: 1_000))
        return content
    }()

    func accessor(_ server: InMemoryS3Server, gather: Int, partsInFlight: Int) async throws
        -> (S3Accessor, PartGathering)
    {
        let transport = PartGathering(server: server, gather: gather)
        let client = S3Client(
            endpoint: server.endpoint, bucket: "bucket", region: "us-east-1", credentials: Self.keys,
            transport: transport.transport, pause: { _ in })
        try await BlockingExecutor.shared.run { try client.createBucket() }
        return (S3Accessor(client: client, partSize: Self.part, partsInFlight: partsInFlight), transport)
    }

    /// Writes `content` in pieces of 1 MiB through `accessor` to `name`.
    static func write(_ accessor: S3Accessor, _ name: String) throws {
        var offset = 0
        try accessor.createFile(at: accessor.baseURL.appending(path: name)) {
            guard offset < content.count else { return nil }
            defer { offset += 1 << 20 }
            return content.subdata(in: offset..<min(content.count, offset + (1 << 20)))
        }
    }

    @Test("three parts in flight at once, never more, and the object arrives whole")
    func partsAtOnce() async throws {
        let server = InMemoryS3Server(credentials: Self.keys)
        let (store, transport) = try await accessor(server, gather: 3, partsInFlight: 3)
        try await BlockingExecutor.shared.run { try Self.write(store, "big.bin") }
        #expect(transport.parts == 6)
        #expect(transport.most == 3, "three at once, the budget")
        let back = try await BlockingExecutor.shared.run {
            try store.read(from: store.baseURL.appending(path: "big.bin"))
        }
        #expect(back == Self.content)
    }

    @Test("two uploads at once share the accessor's budget: never more parts in flight than it")
    func sharedBudget() async throws {
        let server = InMemoryS3Server(credentials: Self.keys)
        let (store, transport) = try await accessor(server, gather: 2, partsInFlight: 2)
        try await BlockingExecutor.shared.run {
            let both = BlockingExecutor.shared.map(2, width: 2) { index in
                Result { try Self.write(store, "file-\(index).bin") }
            }
            for result in both { try result.get() }
        }
        #expect(transport.parts == 12)
        #expect(transport.most == 2)
        #expect(server.keys(in: "bucket").sorted() == ["file-0.bin", "file-1.bin"])
    }

    @Test("a part refused ends the upload: nothing at the key, no upload left open")
    func refusedPart() async throws {
        let server = InMemoryS3Server(credentials: Self.keys)
        let (store, _) = try await accessor(server, gather: 1, partsInFlight: 3)
        server.inject(.respond(status: 403, code: "AccessDenied"), after: 3)  // the start, then two parts
        await #expect(throws: CocoaError.self) {
            try await BlockingExecutor.shared.run { try Self.write(store, "big.bin") }
        }
        #expect(server.keys(in: "bucket").isEmpty)
        let open = try await BlockingExecutor.shared.run { try store.client.listMultipartUploads() }
        #expect(open.isEmpty, "aborted")
    }
}
