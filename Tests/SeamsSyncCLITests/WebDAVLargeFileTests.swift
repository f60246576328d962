import Foundation
import SeamsTesting
import Testing

/// Files much larger than the tool's memory, both ways through a real server: uploads and
/// downloads stream between the disk and the network, so the tool's peak memory stays far below
/// the file's size (it would be above it if a file were held whole).
@Suite(
    "seams-sync with a WebDAV container: large files",
    .disabled(
        if: underThreadSanitizer,
        "the sanitizer's shadow memory is several times the tool's own: the peak says nothing there"))
struct WebDAVLargeFileTests {
    /// 256 MiB: a short video. Measured peaks of the tool over WebDAV: about 60 MiB for files of
    /// 48 MiB, 64 to 86 MiB for files of 384 MiB (a download asks for 8 MiB at a time).
    static let size = 256 << 20
    /// The most the tool may hold at its peak: half the file (holding it whole would be more).
    static let peakLimitMiB = 128.0

    @Test(
        "a 256 MiB file goes up, a changed one comes down, an identical pair is compared: the peak stays under 128 MiB",
        arguments: LocalWebDAVServer.Kind.allCases)
    func largeFilesStream(kind: LocalWebDAVServer.Kind) async throws {
        try await offPool {
            guard WebDAVEndToEndTests.available(kind) else { return }
            let pair = try WebDAVEndToEndTests.Served(kind)
            try writeLargeFile(pair.local.appending(path: "video.bin"), size: Self.size, seed: 1)
            // The same file on both sides before the first run: the tool compares them and keeps one.
            try writeLargeFile(pair.local.appending(path: "twin.bin"), size: Self.size / 2, seed: 2)
            try writeLargeFile(pair.served.appending(path: "twin.bin"), size: Self.size / 2, seed: 2)

            var (result, peak) = try runMeasuringPeak(pair)
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("1 to container, 0 to local"), "\(result.stdout)")
            #expect(result.stdout.contains("0 conflicts"), "the identical pair is no conflict: \(result.stdout)")
            #expect(try sameBytes(pair.local.appending(path: "video.bin"), pair.served.appending(path: "video.bin")))
            #expect(peak < Self.peakLimitMiB, "upload: peak \(peak) MiB for a \(Self.size >> 20) MiB file")
            print("\(kind): peak of the upload run \(String(format: "%.1f", peak)) MiB")

            // Another client replaces the server's copy with a longer one.
            try FileManager.default.removeItem(at: pair.served.appending(path: "video.bin"))
            try writeLargeFile(pair.served.appending(path: "video.bin"), size: Self.size + 4096, seed: 3)
            (result, peak) = try runMeasuringPeak(pair)
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("0 to container, 1 to local"), "\(result.stdout) \(result.stderr)")
            #expect(try sameBytes(pair.local.appending(path: "video.bin"), pair.served.appending(path: "video.bin")))
            #expect(peak < Self.peakLimitMiB, "download: peak \(peak) MiB for a \(Self.size >> 20) MiB file")
            print("\(kind): peak of the download run \(String(format: "%.1f", peak)) MiB")
        }
    }

    /// Runs a sync and samples the tool's peak resident memory (`VmHWM`) until it ends.
    private func runMeasuringPeak(_ pair: WebDAVEndToEndTests.Served) throws -> (CLI.Result, Double) {
        let started = try CLI.start(
            ["sync", pair.local.path, pair.server.baseURL.absoluteString, "--state-dir", pair.workspace.state.path],
            environment: [
                "SEAMS_WEBDAV_USER": WebDAVEndToEndTests.user, "SEAMS_WEBDAV_PASSWORD": WebDAVEndToEndTests.password,
            ])
        let status = "/proc/\(started.process.processIdentifier)/status"
        var peakKiB = 0
        while started.process.isRunning {
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            {
                peakKiB = max(peakKiB, kib)
            }
            usleep(10_000)
        }
        #expect(peakKiB > 0, "the tool's memory was sampled at least once")
        return (try CLI.wait(started), Double(peakKiB) / 1024)
    }
}

/// Writes `size` bytes that differ in every MiB (a counter and the seed in each block), in
/// pieces, so the test itself never holds the file.
private func writeLargeFile(_ url: URL, size: Int, seed: UInt8) throws {
    var block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) })
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var written = 0
    var index: UInt32 = 0
    while written < size {
        withUnsafeBytes(of: index.littleEndian) { block.replaceSubrange(0..<4, with: $0) }
        block[4] = seed
        let count = min(block.count, size - written)
        try handle.write(contentsOf: block.prefix(count))
        written += count
        index += 1
    }
}

/// Whether two files hold the same bytes, compared a MiB at a time.
private func sameBytes(_ first: URL, _ second: URL) throws -> Bool {
    let a = try FileHandle(forReadingFrom: first)
    let b = try FileHandle(forReadingFrom: second)
    defer {
        try? a.close()
        try? b.close()
    }
    while true {
        let x = try a.read(upToCount: 1 << 20) ?? Data()
        let y = try b.read(upToCount: 1 << 20) ?? Data()
        if x != y { return false }
        if x.isEmpty { return true }
    }
}

/// Whether this process runs under the thread sanitizer.
private let underThreadSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
