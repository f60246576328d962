import Foundation
import Seams
import SeamsTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs every public conformance suite against the live implementations (on a fresh temporary
/// folder) and against ``InMemoryFileSystem``. Both must pass each behaviour with the same
/// `CocoaError` code and the same C error number (the behaviours check both).
@Suite struct ConformanceTests {
    static let all: [ConformanceBehaviour] =
        DirectoryAccessorConformance.behaviours + FileAccessorConformance.behaviours
        + FileSystemProviderConformance.behaviours + BookmarkStorageConformance.behaviours

    /// Root ignores permission bits, so this in-process live run skips the behaviours that need
    /// them when the tests run as root; `LivePermissionConformanceTests` (SeamsTests) runs those
    /// on the live implementations in a child process as uid 65534.
    static let liveEnforcesPermissions = geteuid() != 0
    static let live = all.filter { !$0.requirements.contains(.permissionEnforcement) || liveEnforcesPermissions }

    static func liveSubject() throws -> ConformanceSubject {
        let root = FileManager.default.temporaryDirectory
            .appending(path: "seams-conformance-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        return ConformanceSubject(
            root: root,
            files: DefaultFileAccessor(),
            directories: DefaultDirectoryAccessor(),
            enforcesPermissions: liveEnforcesPermissions,
            makeContainerProvider: { DefaultFileSystemProvider(containerDirectory: $0) },
            makeBookmarkStorage: { DefaultBookmarkStorage(storeURL: root.appending(path: "bookmarks.json")) }
        )
    }

    @Test("the live implementations pass the behaviour", arguments: live)
    func liveConforms(_ behaviour: ConformanceBehaviour) throws {
        let subject = try Self.liveSubject()
        defer { try? FileManager.default.removeItem(at: subject.root) }
        try behaviour.run(on: subject)
    }

    @Test("InMemoryFileSystem passes the behaviour", arguments: all)
    func fakeConforms(_ behaviour: ConformanceBehaviour) throws {
        try behaviour.run(on: .inMemory())
    }

    @Test("InMemoryFileSystem acting as root passes every behaviour the live run passes", arguments: live)
    func fakeAsRootConforms(_ behaviour: ConformanceBehaviour) throws {
        try behaviour.run(on: .inMemory(enforcesPermissions: false))
    }

    @Test("the suites hold at least 80 distinct behaviours, every known trap of other fakes among them")
    func coverage() {
        let suites = Dictionary(grouping: Self.all, by: \.suite).mapValues(\.count).sorted { $0.key < $1.key }
        print(
            "conformance: \(Self.all.count) behaviours ("
                + suites.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "); \(Self.live.count) run live in this process as uid \(geteuid()), "
                + "\(Self.all.count - Self.live.count) need a non-root process (LivePermissionConformanceTests)")
        #expect(Set(Self.all.map(\.description)).count == Self.all.count)
        #expect(Self.all.count >= 80)
        let traps = Self.all.filter { $0.name.hasPrefix("trap:") }.map(\.name)
        for trap in [
            "parent is not created", "non-empty folder is refused", "refusing move onto a file",
            "without read permission", "shares no subtree", "missing folder throws 4",
        ] {
            #expect(traps.contains { $0.contains(trap) }, "no behaviour for the trap '\(trap)'")
        }
        #expect(Self.all.contains { $0.name.contains("trailing slash") })
    }

    @Test("a behaviour fails on an implementation that breaks it")
    func suiteCatchesBrokenFake() throws {
        let broken = ConformanceSubject.inMemory()
        let behaviour = try #require(Self.all.first { $0.name.hasPrefix("trap: a non-empty folder is refused") })
        let lenient = ConformanceSubject(
            root: broken.root, files: broken.files, directories: RecursiveRemover(base: broken.directories),
            enforcesPermissions: true, makeContainerProvider: broken.makeContainerProvider,
            makeBookmarkStorage: broken.makeBookmarkStorage)
        #expect(throws: ConformanceFailure.self) { try behaviour.run(on: lenient) }
    }
}

/// A deliberately wrong accessor (afero's trap): it removes non-empty folders when not asked to.
private struct RecursiveRemover: DirectoryAccessorProviding {
    let base: any DirectoryAccessorProviding
    func contentsOfDirectory(at url: URL) throws -> [DirectoryEntry] { try base.contentsOfDirectory(at: url) }
    func metadata(at url: URL) throws -> FileMetadata { try base.metadata(at: url) }
    func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws {
        try base.createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories)
    }
    func removeItem(at url: URL, recursively: Bool) throws { try base.removeItem(at: url, recursively: true) }
    func moveItem(at source: URL, to destination: URL, replacingExisting: Bool) throws {
        try base.moveItem(at: source, to: destination, replacingExisting: replacingExisting)
    }
    func copyItem(at source: URL, to destination: URL) throws { try base.copyItem(at: source, to: destination) }
    func linkItem(at source: URL, to destination: URL) throws { try base.linkItem(at: source, to: destination) }
    func synchronizeFile(at url: URL) throws { try base.synchronizeFile(at: url) }
    func synchronizeDirectory(at url: URL) throws { try base.synchronizeDirectory(at: url) }
    func setPermissions(_ permissions: UInt16, at url: URL) throws { try base.setPermissions(permissions, at: url) }
    func setModificationDate(_ date: Date, at url: URL) throws { try base.setModificationDate(date, at: url) }
}
