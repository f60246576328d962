public import Foundation
public import Seams

extension InMemoryFileSystem {
    /// Copies a real folder's tree into this file system, keeping bytes, permissions and dates,
    /// and makes it durable; symbolic links are imported as links with the same target text
    /// (never followed), special files are skipped.
    ///
    /// ```swift
    /// let fileSystem = InMemoryFileSystem()
    /// try fileSystem.importTree(from: Bundle.module.url(forResource: "Fixture", withExtension: nil)!,
    ///                           to: URL(filePath: "/fixture"))
    /// ```
    ///
    /// - Parameters:
    ///   - realFolder: A folder on the real file system.
    ///   - folder: Where the copy goes here; it and its parents are created as needed.
    ///   - live: The accessor that reads the real tree.
    /// - Throws: The live accessor's errors, or this file system's when `folder` is blocked.
    public func importTree(
        from realFolder: URL, to folder: URL, using live: some DirectoryAccessorProviding = DefaultDirectoryAccessor()
    ) throws {
        try createDirectory(at: folder, withIntermediateDirectories: true)
        try importContents(of: realFolder, into: folder, live: live)
        try setPermissions(try live.metadata(at: realFolder).permissions, at: folder)
        try setModificationDate(try live.metadata(at: realFolder).modificationDate, at: folder)
        synchronizeAll()
    }

    private func importContents(of realFolder: URL, into folder: URL, live: some DirectoryAccessorProviding) throws {
        for entry in try live.contentsOfDirectory(at: realFolder) {
            let source = realFolder.appending(path: entry.name)
            let target = folder.appending(path: entry.name)
            switch entry.metadata.kind {
            case .file:
                try write(try Data(contentsOf: source), to: target)
            case .directory:
                try createDirectory(at: target, withIntermediateDirectories: false)
                try importContents(of: source, into: target, live: live)
            case .symbolicLink:
                try createSymbolicLink(at: target, withDestination: try live.destinationOfSymbolicLink(at: source))
                try setModificationDate(entry.metadata.modificationDate, at: target)
                continue  // a link's own permissions are always 0o777; chmod would follow it
            case .other:
                continue
            }
            try setPermissions(entry.metadata.permissions, at: target)
            try setModificationDate(entry.metadata.modificationDate, at: target)
        }
    }

    /// Writes a folder of this file system out to a real folder, keeping bytes, permissions and
    /// dates, so a failing test can leave its tree for a person to look at.
    ///
    /// - Parameters:
    ///   - folder: A folder here.
    ///   - realFolder: A real path where nothing exists yet; its parent must exist.
    ///   - live: The accessor that writes the real tree.
    /// - Throws: This file system's errors reading, or the live accessor's writing.
    public func exportTree(
        from folder: URL, to realFolder: URL, using live: some DirectoryAccessorProviding = DefaultDirectoryAccessor()
    ) throws {
        let root = try metadata(at: folder)
        try live.createDirectory(at: realFolder, withIntermediateDirectories: false)
        try exportContents(of: folder, into: realFolder, live: live)
        try live.setPermissions(root.permissions, at: realFolder)
        try live.setModificationDate(root.modificationDate, at: realFolder)
    }

    private func exportContents(of folder: URL, into realFolder: URL, live: some DirectoryAccessorProviding) throws {
        for entry in try contentsOfDirectory(at: folder) {
            let source = folder.appending(path: entry.name)
            let target = realFolder.appending(path: entry.name)
            if entry.metadata.kind == .directory {
                try live.createDirectory(at: target, withIntermediateDirectories: false)
                try exportContents(of: source, into: target, live: live)
            } else if entry.metadata.kind == .symbolicLink {
                try live.createSymbolicLink(at: target, withDestination: try destinationOfSymbolicLink(at: source))
                try live.setModificationDate(entry.metadata.modificationDate, at: target)
                continue
            } else {
                try read(from: source).write(to: target, options: .withoutOverwriting)
            }
            try live.setPermissions(entry.metadata.permissions, at: target)
            try live.setModificationDate(entry.metadata.modificationDate, at: target)
        }
    }
}
