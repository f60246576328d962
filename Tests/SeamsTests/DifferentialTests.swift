import Foundation
import Seams
import SeamsTesting
import Testing

/// Runs the same pseudo-random sequence of 600 calls on the live file system and on
/// ``InMemoryFileSystem`` and requires the same outcome at every step: the same result (listings
/// and metadata with their permission bits), or the same error code and C error number.
///
/// Both runs happen in `seams-live-probe` (the sequence is `Tests/LiveProbe/DifferentialSequence.swift`),
/// once as the user the tests run as (root in CI: the fake then ignores permission bits, as root
/// does) and once as uid/gid 65534 through `setpriv` on a folder that user owns (the fake then
/// checks the bits as for a non-root owner), so the fake is held to both.
@Suite struct DifferentialTests {
    struct Report: Decodable {
        var userID: UInt32
        var live: [String]
        var fake: [String]
    }

    static func report(seed: UInt64, unprivileged: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Report
    {
        let folder = try TemporaryDirectory("differential")
        let root = folder.folder("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        if UnprivilegedProbe.isRoot && unprivileged {
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: root.path)
        }
        let outcome = try UnprivilegedProbe.run(
            "differential", root.path, "\(seed)", unprivileged: unprivileged, sourceLocation: sourceLocation)
        return try JSONDecoder().decode(Report.self, from: Data(outcome.line.utf8))
    }

    static func expectAgreement(_ report: Report, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.live.count == 600 && report.fake.count == 600, sourceLocation: sourceLocation)
        let firstDifference = zip(report.live, report.fake).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            firstDifference == nil,
            "step \(firstDifference?.offset ?? -1): live \(firstDifference?.element.0 ?? "") / fake \(firstDifference?.element.1 ?? "")",
            sourceLocation: sourceLocation)
        #expect(
            Set(report.live).count > 50, "the sequence exercised few distinct outcomes", sourceLocation: sourceLocation)
    }

    @Test("live and fake agree at every step, as the user the tests run as", arguments: Array(UInt64(1)...16))
    func agreeAsTestUser(seed: UInt64) throws {
        let report = try Self.report(seed: seed, unprivileged: false)
        #expect(report.userID == getuid())
        Self.expectAgreement(report)
    }

    @Test(
        "live and fake agree at every step, as an unprivileged user",
        .enabled(
            if: UnprivilegedProbe.canRunUnprivileged,
            "the tests run as root and /usr/bin/setpriv (util-linux) is missing, so no unprivileged process can be started"
        ),
        arguments: Array(UInt64(1)...16))
    func agreeUnprivileged(seed: UInt64) throws {
        let report = try Self.report(seed: seed, unprivileged: true)
        #expect(report.userID != 0, "the probe ran as root")
        Self.expectAgreement(report)
    }

    @Test(
        "the unprivileged sequences meet permission errors, so the bits are compared for real",
        .enabled(
            if: UnprivilegedProbe.canRunUnprivileged,
            "the tests run as root and /usr/bin/setpriv (util-linux) is missing, so no unprivileged process can be started"
        ))
    func unprivilegedMeetsPermissions() throws {
        var denied = 0
        for seed in UInt64(1)...4 {
            denied += try Self.report(seed: seed, unprivileged: true).live.filter { $0.hasSuffix(" \(EACCES)") }.count
        }
        #expect(denied > 0, "no call was refused with EACCES in 4 sequences")
    }
}
