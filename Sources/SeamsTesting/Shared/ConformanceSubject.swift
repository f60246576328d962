public import Foundation
public import Seams

/// The implementation a conformance behaviour runs against, rooted at an empty folder.
///
/// ```swift
/// // Live, on a temporary folder:
/// let root = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
/// try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
/// let live = ConformanceSubject(root: root, files: DefaultFileAccessor(), directories: DefaultDirectoryAccessor(),
///                               enforcesPermissions: getuid() != 0,
///                               makeContainerProvider: { DefaultFileSystemProvider(containerDirectory: $0) },
///                               makeBookmarkStorage: { DefaultBookmarkStorage(storeURL: root.appending(path: "b.json")) })
/// // The fake:
/// let fake = ConformanceSubject.inMemory()
/// ```
public struct ConformanceSubject: Sendable {
    /// An empty folder that exists; every behaviour works inside it.
    public var root: URL
    /// The implementation of `FileAccessorProviding` under test (also used to make files).
    public var files: any FileAccessorProviding
    /// The implementation of `DirectoryAccessorProviding` under test.
    public var directories: any DirectoryAccessorProviding
    /// Whether permission bits are enforced (not for root): behaviours that need it are skipped
    /// otherwise.
    public var enforcesPermissions: Bool
    /// Makes a `FileSystemProviding` whose container is the given folder.
    public var makeContainerProvider: @Sendable (URL) -> any FileSystemProviding
    /// Makes a `BookmarkStorageProviding` on this subject's store; two calls share the store.
    public var makeBookmarkStorage: @Sendable () -> any BookmarkStorageProviding
    /// The permission bits new files get (`0o644` under the usual umask 022).
    public var newFilePermissions: UInt16
    /// The permission bits new folders get (`0o755` under the usual umask 022).
    public var newFolderPermissions: UInt16

    /// Creates a subject.
    ///
    /// - Parameters:
    ///   - root: An empty folder that exists.
    ///   - files: The file accessor under test.
    ///   - directories: The directory accessor under test.
    ///   - enforcesPermissions: Whether permission bits are enforced.
    ///   - makeContainerProvider: Makes a provider answering a given container folder.
    ///   - makeBookmarkStorage: Makes a bookmark storage on one store.
    ///   - newFilePermissions: The bits new files get.
    ///   - newFolderPermissions: The bits new folders get.
    public init(
        root: URL,
        files: any FileAccessorProviding,
        directories: any DirectoryAccessorProviding,
        enforcesPermissions: Bool,
        makeContainerProvider: @escaping @Sendable (URL) -> any FileSystemProviding,
        makeBookmarkStorage: @escaping @Sendable () -> any BookmarkStorageProviding,
        newFilePermissions: UInt16 = 0o644,
        newFolderPermissions: UInt16 = 0o755
    ) {
        self.root = root
        self.files = files
        self.directories = directories
        self.enforcesPermissions = enforcesPermissions
        self.makeContainerProvider = makeContainerProvider
        self.makeBookmarkStorage = makeBookmarkStorage
        self.newFilePermissions = newFilePermissions
        self.newFolderPermissions = newFolderPermissions
    }

    /// A fresh ``InMemoryFileSystem`` with the root folder `/conformance`.
    ///
    /// - Parameter enforcesPermissions: Whether the fake checks permission bits.
    /// - Returns: The subject.
    public static func inMemory(enforcesPermissions: Bool = true) -> ConformanceSubject {
        let fileSystem = InMemoryFileSystem(enforcesPermissions: enforcesPermissions)
        let root = URL(filePath: "/conformance", directoryHint: .isDirectory)
        try? fileSystem.createDirectory(at: root, withIntermediateDirectories: false)
        return ConformanceSubject(
            root: root,
            files: fileSystem,
            directories: fileSystem,
            enforcesPermissions: enforcesPermissions,
            makeContainerProvider: { container in
                fileSystem.setContainerURL(container, for: .sync)
                fileSystem.setContainerURL(container, for: Purpose(rawValue: "conformance-other"))
                return fileSystem
            },
            makeBookmarkStorage: { fileSystem }
        )
    }

    /// `root` with `path` appended.
    public func url(_ path: String) -> URL {
        root.appending(path: path)
    }

    /// Writes a file under `root`.
    @discardableResult
    public func makeFile(_ path: String, _ content: String = "") throws -> URL {
        let url = url(path)
        try files.write(Data(content.utf8), to: url)
        return url
    }

    /// Creates a folder under `root` (parents must exist).
    @discardableResult
    public func makeFolder(_ path: String) throws -> URL {
        let url = url(path)
        try directories.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    /// The names in the folder at `path` under `root` (`""` for `root` itself).
    public func names(_ path: String = "") throws -> [String] {
        try directories.contentsOfDirectory(at: path.isEmpty ? root : url(path)).map(\.name)
    }

    /// The content of the file at `path` under `root`, as text.
    public func text(_ path: String) throws -> String {
        String(decoding: try files.read(from: url(path)), as: UTF8.self)
    }
}
