import Foundation
import Seams
import SeamsTesting
import Testing

/// Hammers each mock from many real threads at once. Run under `swift test --sanitize=thread`
/// these prove the mocks free of data races; the exact counts prove no update was lost.
@Suite struct StressTests {
    static let threads = 16
    static let perThread = 500

    @Test("MockFileAccessor: concurrent writes, reads and checks lose nothing")
    func fileAccessor() throws {
        let mock = MockFileAccessor()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread {
                let url = URL(filePath: "/stress/\(thread)/\(index)")
                do {
                    try mock.write(Data("\(thread)-\(index)".utf8), to: url)
                    let back = try mock.read(from: url)
                    if back != Data("\(thread)-\(index)".utf8) { Issue.record("wrong bytes at \(url.path)") }
                } catch {
                    Issue.record("unexpected \(error)")
                }
                _ = mock.fileExists(at: url)
                if index % 50 == 0 { _ = mock.files.count }
            }
        }
        let total = Self.threads * Self.perThread
        #expect(mock.files.count == total)
        let calls = mock.calls
        #expect(calls.count == total * 3)
        #expect(calls.filter { if case .write = $0 { true } else { false } }.count == total)
        #expect(calls.filter { if case .read = $0 { true } else { false } }.count == total)
    }

    @Test("MockFileAccessor: errors switched on and off while other threads read")
    func fileAccessorErrorsToggle() {
        let url = URL(filePath: "/a")
        let configured = CocoaError(.fileReadUnknown)
        let mock = MockFileAccessor(files: [url: Data("a".utf8)])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread {
                if thread == 0 {
                    mock.readError = index.isMultiple(of: 2) ? configured : nil
                    continue
                }
                // Each read sees one whole configuration: the stored bytes, or the configured error.
                do {
                    let data = try mock.read(from: url)
                    if data != Data("a".utf8) { Issue.record("read \(data.count) wrong bytes") }
                } catch let error as CocoaError where error == configured {
                    continue
                } catch {
                    Issue.record("read threw \(error), not the configured error")
                }
            }
        }
        let reads = (Self.threads - 1) * Self.perThread
        #expect(mock.calls == Array(repeating: .read(url), count: reads))
        // The last switch (index 499) turned the error off; switching it on is seen by the next read.
        #expect(mock.readError == nil)
        #expect((try? mock.read(from: url)) == Data("a".utf8))
        mock.readError = configured
        #expect(throws: configured) { try mock.read(from: url) }
    }

    @Test("MockBookmarkStorage: concurrent saves and loads lose nothing")
    func bookmarkStorage() throws {
        let mock = MockBookmarkStorage()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread {
                try? mock.saveBookmark(Data([UInt8(thread)]), for: "\(thread)-\(index)")
                _ = try? mock.loadBookmark(for: "\(thread)-\(index)")
            }
        }
        #expect(mock.bookmarks.count == Self.threads * Self.perThread)
        #expect(mock.calls.count == Self.threads * Self.perThread * 2)
    }

    @Test("MockFileSystemProvider: concurrent lookups and reconfiguration")
    func fileSystemProvider() {
        let mock = MockFileSystemProvider(containerURL: nil)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread {
                if thread == 0, index.isMultiple(of: 10) {
                    mock.containerURL = URL(filePath: "/c/\(index)")
                }
                _ = mock.containerURL(for: .sync)
            }
        }
        #expect(mock.requestedPurposes.count == Self.threads * Self.perThread)
    }

    @Test("one mock shared by many tasks through an actor-isolated consumer")
    func sharedAcrossTasks() async throws {
        let mock = MockFileAccessor()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for index in 0..<50 { try mock.write(Data(), to: URL(filePath: "/t/\(task)/\(index)")) }
                }
            }
            try await group.waitForAll()
        }
        #expect(mock.files.count == 64 * 50)
    }
}

/// A thread-safe counter for the stress tests.
final class Counter: Sendable {
    private let count = LockedValue(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
