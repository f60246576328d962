import Foundation
import Seams
import Testing

/// The live accessor compares two files chunk by chunk and fails exactly as `read(from:)` does.
@Suite struct ContentsEqualTests {
    let base: URL
    let accessor = DefaultFileAccessor()

    init() throws {
        base = FileManager.default.temporaryDirectory.appending(
            path: "seams-compare-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = base.appending(path: name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Three chunks and a bit, so that a difference in the last chunk is reached.
    static let big = (0..<(3 * (1 << 20) + 17)).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test("equal files, large and empty, are equal; a difference anywhere or another length is not")
    func answers() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let a = try file("a", Self.big)
        #expect(try accessor.contentsEqual(a, try file("b", Self.big)))
        var last = Self.big
        last[last.count - 1] ^= 1
        #expect(try !accessor.contentsEqual(a, try file("c", last)))
        var first = Self.big
        first[0] ^= 1
        #expect(try !accessor.contentsEqual(a, try file("d", first)))
        #expect(try !accessor.contentsEqual(a, try file("e", Array(Self.big.dropLast()))))
        #expect(try accessor.contentsEqual(try file("f", []), try file("g", [])))
        #expect(try !accessor.contentsEqual(try file("h", []), try file("i", [0])))
    }

    /// By length, so that the test log names a case in a few bytes (not 70,000 sevens).
    @Test("it agrees with comparing what read(from:) returns", arguments: [0, 1, 3, 70_000])
    func agreesWithRead(length: Int) throws {
        let bytes = length <= 3 ? Array([1, 2, 3].prefix(length)) as [UInt8] : [UInt8](repeating: 7, count: length)
        defer { try? FileManager.default.removeItem(at: base) }
        let a = try file("a", bytes)
        for other in [bytes, bytes + [0], Array(bytes.reversed())] {
            let b = try file("b", other)
            #expect(try accessor.contentsEqual(a, b) == (accessor.read(from: a) == accessor.read(from: b)))
        }
    }

    @Test("a missing file or a folder throws what read(from:) throws for it")
    func errors() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let present = try file("a", [1])
        for bad in [base.appending(path: "missing"), base] {
            var expected: (any Error)?
            do { _ = try accessor.read(from: bad) } catch { expected = error }
            let readError = try #require(expected as? CocoaError)
            for pair in [(bad, present), (present, bad)] {
                #expect {
                    _ = try accessor.contentsEqual(pair.0, pair.1)
                } throws: { error in
                    (error as? CocoaError)?.code == readError.code
                        && (error as? CocoaError)?.filePath == readError.filePath
                }
            }
        }
    }
}
