public import Foundation
import Seams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension InMemoryFileSystem {
    /// Creates a new file only if nothing is at `url`, in one step under the fake's lock (as
    /// `O_CREAT | O_EXCL` does); the content is durable at once, as the live call flushes it.
    /// Recorded as a ``FileSystemOperation/write``.
    public func createFile(_ data: Data, at url: URL) throws {
        try perform(.write, url) { tree throws(MemoryFailure) in
            let path = MemoryPath(url)
            if tree.exists(path) { throw MemoryFailure(EEXIST, url.path) }
            try tree.writeAtomically(data, to: path)
        }
        try synchronizeFile(at: url)
    }

    /// Creates a new empty file only if nothing is at `url` (as `open` with `O_CREAT | O_EXCL`
    /// does), then writes the pieces once `nextPiece` has returned them all; a failure removes the
    /// file. Nothing is flushed: a power cut may lose the file or keep it empty, as the live call's
    /// file. Recorded as two ``FileSystemOperation/write``s (the create, then the content), so a
    /// crash can come between them, as it can between the live call's `open` and its writes.
    public func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        let path = MemoryPath(url)
        try perform(.write, url) { tree throws(MemoryFailure) in
            if tree.exists(path) { throw MemoryFailure(EEXIST, url.path) }
            try tree.writeAtomically(Data(), to: path)
        }
        do {
            var content = Data()
            while let piece = try nextPiece() { content.append(piece) }
            try perform(.write, url) { tree throws(MemoryFailure) in try tree.writeAtomically(content, to: path) }
        } catch {
            try? perform(.removeItem, url) { tree throws(MemoryFailure) in try tree.remove(path, recursively: false) }
            throw error
        }
    }
}
