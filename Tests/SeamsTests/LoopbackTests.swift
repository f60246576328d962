import SeamsCore
import Testing

/// The free ports `Loopback` hands out for local servers (`LocalWebDAVServer`, `seams-sync demo
/// --webdav`): the kernel may give a released port again at once, so two servers started at
/// once could be told the same port, and the one that lost the bind would seem to answer.
@Suite struct LoopbackTests {
    @Test("a port is given out once per process, from threads at once too")
    func portsAreNeverGivenTwice() async throws {
        let ports = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask { try (0..<100).map { _ in try Loopback.freePort() } }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(ports.count == 400)
        #expect(Set(ports).count == 400, "a port was given twice")
        #expect(ports.allSatisfy { (1...65535).contains($0) })
    }
}
