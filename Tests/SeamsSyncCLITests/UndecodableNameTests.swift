import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Linux names are bytes: `bad\xff\xfe.txt` is a valid name that no Swift string spells.
@Suite struct UndecodableNameTests {
    /// Creates the file `name` (raw bytes) in `folder` with `content`.
    func create(_ name: [UInt8], in folder: URL, content: String) throws {
        var path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeMutableBytes { buffer in
            open(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let bytes = Array(content.utf8)
        #expect(write(descriptor, bytes, bytes.count) == bytes.count)
    }

    /// Whether `folder` holds an item of exactly the name `name` (raw bytes).
    func exists(_ name: [UInt8], in folder: URL) -> Bool {
        var path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        var info = stat()
        return path.withUnsafeMutableBytes { lstat($0.baseAddress!.assumingMemoryBound(to: CChar.self), &info) } == 0
    }

    /// Removes the item `name` (raw bytes) from `folder`: Foundation cannot name it to remove it.
    func remove(_ name: [UInt8], in folder: URL) {
        var path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        _ = path.withUnsafeMutableBytes { unlink($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    @Test("a name that is not UTF-8 is reported as skipped every run and left alone; the rest syncs")
    func reportedAndLeftAlone() async throws {
        try await offPool {
            let w = try Workspace()
            let bad: [UInt8] = Array("bad".utf8) + [0xFF, 0xFE] + Array(".txt".utf8)
            try create(bad, in: w.local, content: "keep me")
            defer { remove(bad, in: w.local) }
            try w.write("fine", "good.txt", in: w.local)
            for run in 1...2 {
                let result = try w.sync()
                #expect(result.status == 0, "run \(run): \(result.stdout)\(result.stderr)")
                #expect(
                    result.stdout.contains(
                        "skipped: bad\u{FFFD}\u{FFFD}.txt: not a regular file, folder or symbolic link (a socket, a device, or a name that is not UTF-8)"
                    ), "run \(run): \(result.stdout)")
                #expect(w.read("good.txt", in: w.container) == "fine")
                #expect(try w.rawNames(w.container) == [Array("good.txt".utf8)], "nothing of it reached the container")
                #expect(exists(bad, in: w.local), "the file is still there under its own name")
            }
        }
    }
}
