import Foundation
import Seams

/// The live file system behind one value, for engines under test, with hooks that run just
/// before each swap or each call about a path (to act as a user changing something at that moment).
final class LiveBoundary: DirectoryAccessorProviding, FileAccessorProviding {
    let directories = DefaultDirectoryAccessor()
    let files = DefaultFileAccessor()
    /// Runs before each `exchangeItems`, with its two paths.
    let beforeExchange: LockedValue<(@Sendable (URL, URL) -> Void)?> = LockedValue(nil)
    /// Runs before each `read`, `metadata`, `copyItem`, `moveItem`, `removeItem`, `createDirectory`
    /// and `linkItem`, with the call's name and (first) path.
    let beforeCall: LockedValue<(@Sendable (String, URL) -> Void)?> = LockedValue(nil)

    private func announce(_ call: String, _ url: URL) {
        if let hook = beforeCall.withLock({ $0 }) { hook(call, url) }
    }
    /// How many swaps were asked for, and how many the file system made.
    let exchanges = LockedValue((asked: 0, made: 0))

    func read(from url: URL) throws -> Data {
        announce("read", url)
        return try files.read(from: url)
    }
    func write(_ data: Data, to url: URL) throws { try files.write(data, to: url) }
    func fileExists(at url: URL) -> Bool { files.fileExists(at: url) }
    func contentsEqual(_ first: URL, _ second: URL) throws -> Bool { try files.contentsEqual(first, second) }
    func createFile(_ data: Data, at url: URL) throws { try files.createFile(data, at: url) }
    func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        announce("createFile", url)
        try files.createFile(at: url, pieces: nextPiece)
    }
    var usesThisMachinesFileSystem: Bool { true }
    func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] { try directories.contentsOfDirectory(at: url) }
    func metadata(at url: URL) throws -> FileMetadata {
        announce("metadata", url)
        return try directories.metadata(at: url)
    }
    func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        announce("createDirectory", url)
        try directories.createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories)
    }
    func removeItem(at url: URL, recursively: Bool) throws {
        announce("removeItem", url)
        try directories.removeItem(at: url, recursively: recursively)
    }
    func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        announce("moveItem", source)
        try directories.moveItem(at: source, to: destination, replacingExisting: replacingExisting)
    }
    func copyItem(at source: URL, to destination: URL) throws {
        announce("copyItem", source)
        try directories.copyItem(at: source, to: destination)
    }
    func linkItem(at source: URL, to destination: URL) throws {
        announce("linkItem", source)
        try directories.linkItem(at: source, to: destination)
    }
    func destinationOfSymbolicLink(at url: URL) throws -> String { try directories.destinationOfSymbolicLink(at: url) }
    func createSymbolicLink(at url: URL, withDestination destination: String) throws {
        try directories.createSymbolicLink(at: url, withDestination: destination)
    }
    func synchronizeFile(at url: URL) throws { try directories.synchronizeFile(at: url) }
    func synchronizeDirectory(at url: URL) throws { try directories.synchronizeDirectory(at: url) }
    func synchronize(files: [URL], directories folders: [URL]) throws {
        try directories.synchronize(files: files, directories: folders)
    }
    func setPermissions(_ permissions: UInt16, at url: URL) throws {
        try directories.setPermissions(permissions, at: url)
    }
    func setModificationDate(_ date: Date, at url: URL) throws { try directories.setModificationDate(date, at: url) }
    func exchangeItems(at first: URL, and second: URL) throws -> Bool {
        if let hook = beforeExchange.withLock({ $0 }) { hook(first, second) }
        let made = try directories.exchangeItems(at: first, and: second)
        exchanges.withLock {
            $0.asked += 1
            if made { $0.made += 1 }
        }
        return made
    }
}
