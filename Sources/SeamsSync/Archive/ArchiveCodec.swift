public import Foundation
import Seams

/// The archive's file format: JSON with a format name and a version.
///
/// ```json
/// {"format":"seams-sync.archive","version":1,"local":"/home/me/Notes","container":"/mnt/sync",
///  "entries":[{"p":"a.txt","k":"file","ls":12,"lm":1763782345000000000,"cs":12,"cm":1763782345000000000}]}
/// ```
///
/// `p` is the path (its bytes kept exactly, so NFC and NFD names stay distinct; entries are a
/// list, never a dictionary keyed by `String`), `k` the kind, `ls`/`lm` the local size and
/// modification time (nanoseconds since 1970), `cs`/`cm` the container's.
public enum ArchiveCodec {
    /// The `format` value every archive carries.
    public static let formatName = "seams-sync.archive"
    /// The version this build writes and reads.
    public static let currentVersion = 1

    /// Why a state file could not be read as an archive.
    public enum DecodeFailure: Error, Hashable, Sendable {
        /// Not JSON, or not an archive (a foreign or damaged file).
        case corrupt(String)
        /// An archive of a newer format version.
        case unsupportedVersion(Int)
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

    /// The bytes of `archive`, entries sorted by path.
    ///
    /// - Parameter archive: The archive.
    /// - Returns: JSON.
    public static func encode(_ archive: Archive) throws -> Data {
        let rows = archive.entries.sorted { $0.key < $1.key }.map { path, entry in
            Row(
                p: path.rawValue, k: entry.kind, ls: entry.local.size, lm: entry.local.modified,
                cs: entry.container.size, cm: entry.container.modified)
        }
        let file = File(
            format: formatName, version: currentVersion, local: archive.localRoot,
            container: archive.containerRoot, entries: rows)
        return try JSONEncoder().encode(file)
    }

    /// The archive in `data`.
    ///
    /// - Parameter data: A state file's bytes.
    /// - Returns: The archive.
    /// - Throws: ``DecodeFailure``.
    public static func decode(_ data: Data) throws(DecodeFailure) -> Archive {
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data), header.format == formatName
        else { throw .corrupt("not a seams-sync archive") }
        guard header.version <= currentVersion else { throw .unsupportedVersion(header.version) }
        let file: File
        do {
            file = try decoder.decode(File.self, from: data)
        } catch {
            throw .corrupt("damaged entries: \(error)")
        }
        var entries: [SyncPath: Archive.Entry] = [:]
        entries.reserveCapacity(file.entries.count)
        for row in file.entries {
            guard !row.p.isEmpty, !row.p.hasPrefix("/"), row.k == .file || row.k == .directory else {
                throw .corrupt("invalid entry '\(row.p)'")
            }
            entries[SyncPath(row.p)] = Archive.Entry(
                kind: row.k, local: Stamp(size: row.ls, modified: row.lm),
                container: Stamp(size: row.cs, modified: row.cm))
        }
        return Archive(localRoot: file.local, containerRoot: file.container, entries: entries)
    }
}
