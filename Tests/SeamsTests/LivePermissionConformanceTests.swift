import Foundation
import Seams
import SeamsTesting
import Testing

/// The conformance behaviours about permissions, run on the live implementations for real.
///
/// Root ignores permission bits, so the in-process live conformance run (as root in CI) cannot
/// check them. Here each one runs in `seams-live-probe`, as uid/gid 65534 through `setpriv` when
/// the tests are root (as the current user otherwise), on a folder that user owns; the probe
/// prints its verdict as JSON. The same behaviours run on `InMemoryFileSystem` in
/// `ConformanceTests`, so fake and live are shown to throw the same errors here too.
@Suite struct LivePermissionConformanceTests {
    static let all: [ConformanceBehaviour] =
        DirectoryAccessorConformance.behaviours + FileAccessorConformance.behaviours
        + FileSystemProviderConformance.behaviours + BookmarkStorageConformance.behaviours
    static let behaviours = all.filter { $0.requirements.contains(.permissionEnforcement) }

    /// The probe's verdict, as it printed it.
    struct Verdict: Decodable {
        var behaviour: String
        var userID: UInt32
        var outcome: String
        var message: String?
    }

    /// Runs `behaviour` in the probe on a fresh folder owned by the user the probe runs as.
    static func verdict(
        _ behaviour: ConformanceBehaviour, unprivileged: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Verdict {
        let folder = try TemporaryDirectory("permission-conformance")
        let root = folder.folder("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        if UnprivilegedProbe.isRoot && unprivileged {
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: root.path)
        }
        let outcome = try UnprivilegedProbe.run(
            "conformance", root.path, behaviour.description, unprivileged: unprivileged, sourceLocation: sourceLocation)
        do {
            return try JSONDecoder().decode(Verdict.self, from: Data(outcome.line.utf8))
        } catch {
            Issue.record("the probe printed no verdict: \(outcome.line)", sourceLocation: sourceLocation)
            throw error
        }
    }

    @Test("the suites hold the seven permission behaviours")
    func count() {
        #expect(Self.behaviours.count == 7, "\(Self.behaviours.map(\.description))")
    }

    @Test(
        "the live implementations pass the permission behaviour as an unprivileged user",
        .enabled(
            if: UnprivilegedProbe.canRunUnprivileged,
            "the tests run as root and /usr/bin/setpriv (util-linux) is missing, so no unprivileged process can be started"
        ),
        arguments: behaviours)
    func livePasses(_ behaviour: ConformanceBehaviour) throws {
        let verdict = try Self.verdict(behaviour)
        #expect(verdict.behaviour == behaviour.description)
        #expect(verdict.userID != 0, "the probe ran as root")
        #expect(verdict.outcome == "passed", "\(verdict.message ?? "")")
    }

    @Test(
        "every other behaviour passes on the live implementations as an unprivileged user too",
        .enabled(
            if: UnprivilegedProbe.isRoot && UnprivilegedProbe.canRunUnprivileged,
            "the tests do not run as root (the in-process live run is already unprivileged), or setpriv is missing"),
        arguments: all.filter { !$0.requirements.contains(.permissionEnforcement) })
    func livePassesUnprivileged(_ behaviour: ConformanceBehaviour) throws {
        let verdict = try Self.verdict(behaviour)
        #expect(verdict.userID != 0, "the probe ran as root")
        #expect(verdict.outcome == "passed", "\(verdict.message ?? "")")
    }

    @Test(
        "as root the same behaviours fail on the live implementations, so the verdict above is no given",
        .enabled(if: UnprivilegedProbe.isRoot, "the tests do not run as root, so a root run cannot be shown"),
        arguments: behaviours)
    func rootFails(_ behaviour: ConformanceBehaviour) throws {
        let verdict = try Self.verdict(behaviour, unprivileged: false)
        #expect(verdict.userID == 0)
        #expect(verdict.outcome == "failed", "\(verdict.message ?? "")")
        #expect(verdict.message?.contains("but it succeeded") == true, "\(verdict.message ?? "")")
    }
}
