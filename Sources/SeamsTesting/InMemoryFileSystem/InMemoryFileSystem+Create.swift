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
}
