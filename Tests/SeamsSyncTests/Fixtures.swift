import Foundation
import Seams

@testable import SeamsSync

/// Small builders for plain-value tests of the engine's pure parts.
enum Fixtures {
    static func file(_ size: Int64, at seconds: Double, id: UInt64 = 1) -> FileMetadata {
        FileMetadata(
            kind: .file, size: size, modificationDate: Date(timeIntervalSince1970: seconds), permissions: 0o644,
            fileIdentifier: id)
    }

    static func folder(id: UInt64 = 9) -> FileMetadata {
        FileMetadata(
            kind: .directory, size: 0, modificationDate: Date(timeIntervalSince1970: 0), permissions: 0o755,
            fileIdentifier: id)
    }

    /// A symbolic link whose target text is `target` bytes long, made at `seconds`.
    static func link(target: Int64 = 4, at seconds: Double = 0) -> FileMetadata {
        FileMetadata(
            kind: .symbolicLink, size: target, modificationDate: Date(timeIntervalSince1970: seconds),
            permissions: 0o777,
            fileIdentifier: 7)
    }

    /// A socket, a device, or an item whose name is not UTF-8 (the live listing's `.other`).
    static func other() -> FileMetadata {
        FileMetadata(
            kind: .other, size: 0, modificationDate: Date(timeIntervalSince1970: 0), permissions: 0o644,
            fileIdentifier: 8)
    }

    static func snapshot(_ items: [String: FileMetadata], unreadable: [String] = []) -> Snapshot {
        snapshot(items.map { ($0.key, $0.value) }, unreadable: unreadable)
    }

    /// A snapshot from pairs, for names a `String`-keyed dictionary would merge (NFC and NFD).
    static func snapshot(_ items: [(String, FileMetadata)], unreadable: [String] = []) -> Snapshot {
        var snapshot = Snapshot()
        for (path, item) in items { snapshot.items[SyncPath(path)] = item }
        for path in unreadable {
            snapshot.unreadableFolders[SyncPath(path)] = UnderlyingError(CocoaError(.fileReadNoPermission))
        }
        return snapshot
    }

    /// An archive in which each given path looked like `item` on both sides.
    static func archive(_ items: [String: FileMetadata]) -> Archive {
        var archive = Archive(localRoot: "/l", containerRoot: "/c")
        for (path, item) in items {
            archive.entries[SyncPath(path)] = Archive.Entry(kind: item.kind, local: item.stamp, container: item.stamp)
        }
        return archive
    }

    /// A lock record as a live process of this host writes it (this test process: it exists), so
    /// the engine judges it by its heartbeat alone, with this host's clock.
    static func lockRecord(owner: String, heartbeat: Date) -> String {
        let me = SyncProcess.current
        return
            #"{"owner":"\#(owner)","heartbeat":\#(heartbeat.timeIntervalSince1970),"host":"\#(me.host)","boot":"\#(me.bootID)","pid":\#(me.pid)}"#
    }
}
