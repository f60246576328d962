import Foundation
import SeamsCore

extension ArchiveCodec {
    /// The archive in a version 1 state file: JSON with a format name and a version.
    ///
    /// ```json
    /// {"format":"seams-sync.archive","version":1,"local":"/home/me/Notes","container":"/mnt/sync",
    ///  "entries":[{"p":"a.txt","k":"file","ls":12,"lm":1763782345000000000,"cs":12,"cm":1763782345000000000}]}
    /// ```
    ///
    /// `p` is the path, `k` the kind, `ls`/`lm` the local size and modification time
    /// (nanoseconds since 1970), `cs`/`cm` the container's. Version 1 is read so that state
    /// written by earlier builds carries over; nothing writes it any more.
    ///
    /// - Parameter data: A state file's bytes.
    /// - Returns: The archive.
    /// - Throws: ``DecodeFailure``; a JSON archive with a version above 1 is
    ///   ``DecodeFailure/unsupportedVersion(_:)``.
    static func decodeVersion1(_ data: Data) throws(DecodeFailure) -> Archive {
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data), header.format == formatName
        else { throw .corrupt("not a seams-sync archive") }
        guard header.version <= 1 else { throw .unsupportedVersion(header.version) }
        let file: File
        do {
            file = try decoder.decode(File.self, from: data)
        } catch {
            throw .corrupt("damaged entries: \(error)")
        }
        var entries: [SyncPath: Archive.Entry] = [:]
        entries.reserveCapacity(file.entries.count)
        for row in file.entries {
            try validate(row.p)
            guard row.k == .file || row.k == .directory else { throw .corrupt("invalid entry '\(row.p)'") }
            entries[SyncPath(row.p)] = Archive.Entry(
                kind: row.k, local: Stamp(size: row.ls, modified: row.lm),
                container: Stamp(size: row.cs, modified: row.cm))
        }
        return Archive(localRoot: file.local, containerRoot: file.container, entries: ArchiveEntries(entries))
    }

    private struct Header: Codable {
        var format: String
        var version: Int
    }

    private struct Row: Codable {
        var p: String
        var k: FileMetadata.Kind
        var ls: Int64
        var lm: Int64
        var cs: Int64
        var cm: Int64
    }

    private struct File: Codable {
        var format: String
        var version: Int
        var local: String
        var container: String
        var entries: [Row]
    }
}
