import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsTesting
import Testing

@testable import SeamsCore
@testable import SeamsSync
@testable import SeamsWebDAV

/// The WebDAV accessor's own rules, on a scripted transport: retries, what is never retried, the
/// status and transport errors it turns into file-system errors, and the `PROPFIND` answers it reads.
@Suite("WebDAV accessor")
struct WebDAVAccessorTests {
    static let base = URL(string: "https://dav.test/dav/")!

    /// The pauses an accessor asked for between retries.
    final class Pauses: Sendable {
        private let log = LockedValue<[Duration]>([])
        func add(_ pause: Duration) { log.withLock { $0.append(pause) } }
        var all: [Duration] { log.withLock { $0 } }
    }

    /// A time the test moves by hand.
    final class ManualTime: Sendable {
        private let instant = LockedValue(ContinuousClock.now)
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
    }

    /// An accessor on `mock` that records its pauses instead of sleeping.
    static func accessor(_ mock: MockHTTPTransport, pauses: Pauses = Pauses()) -> WebDAVAccessor {
        WebDAVAccessor(
            baseURL: base, credentials: WebDAVCredentials(user: "me", password: "pw"), transport: mock, retryLimit: 3
        ) { pause in
            pauses.add(pause)
        }
    }

    static func failure(_ body: @escaping @Sendable () throws -> Void) async throws -> CocoaError? {
        try await BlockingExecutor.shared.run { () -> CocoaError? in
            do {
                try body()
                return nil
            } catch let error as CocoaError {
                return error
            }
        }
    }

    @Test("a read answered 503 is retried, honouring Retry-After, and then succeeds")
    func retriesUnavailable() async throws {
        let mock = MockHTTPTransport()
        var busy = HTTPFields()
        busy[.retryAfter] = "2"
        mock.on(.get, "/dav/f").respond(with: [
            .status(.serviceUnavailable, headers: busy), .status(.badGateway), .status(.ok, body: Data("x".utf8)),
        ])
        let pauses = Pauses()
        let dav = Self.accessor(mock, pauses: pauses)
        let data = try await BlockingExecutor.shared.run { try dav.read(from: Self.base.appending(path: "f")) }
        #expect(data == Data("x".utf8))
        #expect(pauses.all == [.seconds(2), .milliseconds(500)])
        #expect(
            mock.requests.allSatisfy {
                $0.request.headerFields[.authorization] == "Basic " + Data("me:pw".utf8).base64EncodedString()
            })
    }

    @Test("a write whose connection was lost is not retried: its outcome is unknown")
    func lostWriteNotRetried() async throws {
        let mock = MockHTTPTransport()
        mock.on(.put, "/dav/f").fail(with: .connectionLost)
        let pauses = Pauses()
        let dav = Self.accessor(mock, pauses: pauses)
        let error = try await Self.failure { try dav.write(Data("x".utf8), to: Self.base.appending(path: "f")) }
        #expect(error?.posixCode == .ECONNRESET)
        #expect(mock.requests.count == 1)
        #expect(pauses.all.isEmpty)
    }

    @Test("a read that times out is retried up to the limit, then ETIMEDOUT")
    func readTimeoutRetried() async throws {
        let mock = MockHTTPTransport()
        mock.on(.propfind, "/dav/d/").fail(with: .timedOut)
        let pauses = Pauses()
        let dav = Self.accessor(mock, pauses: pauses)
        let error = try await Self.failure { _ = try dav.contentsOfDirectory(at: Self.base.appending(path: "d")) }
        #expect(error?.posixCode == .ETIMEDOUT)
        #expect(error?.code == .fileReadUnknown)
        #expect(mock.requests.count == 4)
        #expect(pauses.all == [.milliseconds(250), .milliseconds(500), .seconds(1)])
    }

    @Test("a refused connection and a 502 are retried for writes too; the limit ends it")
    func refusedWriteRetried() async throws {
        let mock = MockHTTPTransport()
        mock.on(.put, "/dav/a").respond(with: [.failure(.cannotConnect), .status(.created)])
        mock.on(.put, "/dav/b").respond(status: .badGateway)
        let pauses = Pauses()
        let dav = Self.accessor(mock, pauses: pauses)
        try await BlockingExecutor.shared.run { try dav.write(Data(), to: Self.base.appending(path: "a")) }
        let error = try await Self.failure { try dav.write(Data(), to: Self.base.appending(path: "b")) }
        #expect(error?.posixCode == .EIO)
        let reason = error?.userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? ""
        #expect(reason.contains("502"))
        #expect(mock.requests.filter { $0.request.path == "/dav/b" }.count == 4)
    }

    @Test(
        "statuses read as the file system's errors",
        arguments: [
            (507, CocoaError.Code.fileWriteOutOfSpace, POSIXErrorCode.ENOSPC),
            (401, .fileWriteNoPermission, .EACCES),
            (403, .fileWriteNoPermission, .EACCES),
            (409, .fileNoSuchFile, .ENOENT),
            (413, .fileWriteUnknown, .EFBIG),
            (423, .fileWriteUnknown, .EBUSY),
            (500, .fileWriteUnknown, .EIO),
        ])
    func statusMapping(status: Int, code: CocoaError.Code, errno: POSIXErrorCode) async throws {
        let mock = MockHTTPTransport()
        mock.on(.put, "/dav/f").respond(status: .init(code: status))
        let dav = Self.accessor(mock)
        let error = try await Self.failure { try dav.write(Data(), to: Self.base.appending(path: "f")) }
        #expect(error?.code == code)
        #expect(error?.posixCode == errno)
    }

    @Test("a sync with a server that refuses the credentials is refused with the reason, nothing changed")
    func engineRefused() async throws {
        let mock = MockHTTPTransport()
        mock.on(.propfind).respond(status: .unauthorized)
        let dav = Self.accessor(mock)
        let local = InMemoryFileSystem()
        let folder = URL(filePath: "/notes", directoryHint: .isDirectory)
        try local.createDirectory(at: folder, withIntermediateDirectories: false)
        try local.write(Data("x".utf8), to: folder.appending(path: "a"))
        let engine = SyncEngine(directories: local, files: local, scansConcurrently: false, remote: dav)
        let outcome = try await BlockingExecutor.shared.run { () -> SyncError? in
            do {
                _ = try engine.run(local: folder, container: Self.base, stateDirectory: URL(filePath: "/state"))
                return nil
            } catch let error as SyncError {
                return error
            }
        }
        guard case .serverNotAvailable(let url, let reason) = outcome else {
            Issue.record("expected serverNotAvailable, got \(String(describing: outcome))")
            return
        }
        #expect(url == Self.base)
        #expect(reason.contains("401"))
        #expect(outcome?.isRefusal == true)
        #expect(mock.requests.allSatisfy { $0.request.method == .init("PROPFIND")! })
    }

    @Test(
        "a server found unreachable fails the next requests at once, unsent, until the cooldown ends; an answer ends the outage"
    )
    func outageFailsFast() async throws {
        let mock = MockHTTPTransport()
        mock.on(.get, "/dav/gone").fail(with: .cannotConnect)
        mock.on(.get, "/dav/here").respond(status: .ok, body: Data("x".utf8))
        // The cooldown runs on a clock the test moves: a loaded machine cannot stretch it.
        let time = ManualTime()
        let dav = WebDAVAccessor(
            baseURL: Self.base, transport: mock, retryLimit: 3, pause: { _ in }, outageCooldown: .seconds(10),
            now: { time.now })
        let first = try await Self.failure { _ = try dav.read(from: Self.base.appending(path: "gone")) }
        #expect(first?.posixCode == .ECONNREFUSED)
        #expect(mock.requests.count == 4, "the first request spent its retries")
        let second = try await Self.failure { _ = try dav.read(from: Self.base.appending(path: "here")) }
        #expect(second?.posixCode == .ECONNREFUSED)
        #expect(
            (second?.userInfo[NSLocalizedFailureReasonErrorKey] as? String)?.contains("not tried again yet") == true)
        #expect(mock.requests.count == 4, "nothing was sent during the outage")
        time.advance(by: .seconds(9))
        _ = try await Self.failure { _ = try dav.read(from: Self.base.appending(path: "here")) }
        #expect(mock.requests.count == 4, "still nothing sent a moment before the cooldown ends")
        time.advance(by: .seconds(1))
        #expect(
            try await BlockingExecutor.shared.run { try dav.read(from: Self.base.appending(path: "here")) }
                == Data("x".utf8))
        // An answer ended the outage: a refused request is retried again in full.
        _ = try await Self.failure { _ = try dav.read(from: Self.base.appending(path: "gone")) }
        #expect(mock.requests.count == 5 + 4)
    }

    @Test("an Apache-style answer reads: prefixes, percent-encoded and absolute hrefs, entities, failed propstats")
    func multistatus() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:ns0="DAV:">
            <D:response xmlns:lp1="DAV:"><D:href>/dav/d/</D:href><D:propstat><D:prop>
            <lp1:resourcetype><D:collection/></lp1:resourcetype><lp1:getlastmodified>Sat, 21 Nov 2026 10:00:00 GMT</lp1:getlastmodified>
            </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>https://dav.test/dav/d/caf%C3%A9%20%231%26.txt</D:href><D:propstat><D:prop>
            <lp1:resourcetype/><lp1:getcontentlength>12</lp1:getcontentlength><lp1:getetag>"abc-&amp;"</lp1:getetag>
            </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
            <D:propstat><D:prop><lp1:getcontentlength>999</lp1:getcontentlength></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
            </D:response></D:multistatus>
            """
        let items = try WebDAVMultistatus.parse(Data(body.utf8))
        #expect(items.count == 2)
        #expect(
            items[0]
                == WebDAVResource(
                    path: "/dav/d", isCollection: true, size: 0, modified: Date(timeIntervalSince1970: 1_795_255_200),
                    etag: nil))
        #expect(items[1].path == "/dav/d/caf\u{E9} #1&.txt")
        #expect(items[1].size == 12)
        #expect(items[1].etag == #""abc-&""#)
        #expect(throws: WebDAVMultistatus.Malformed.self) {
            try WebDAVMultistatus.parse(Data("<D:multistatus><D:response>".utf8))
        }
    }

    @Test("the reader takes comments, CDATA holding markup, attributes, any prefix and white space as a parser would")
    func multistatusEdgeCases() throws {
        let body = """
            <?xml version="1.0"?><!-- a server's note: <not a tag> -->
            <multistatus xmlns="DAV:"><response><href>
              /dav/<![CDATA[a>b]]>%20c/ </href><propstat><prop><x:resourcetype xmlns:x="DAV:"><x:collection
            /></x:resourcetype><getlastmodified>Sun, 6 Nov 1994 08:49:37 GMT</getlastmodified>
            <getetag><![CDATA["t<1>"]]></getetag></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response>
            <response><href>/dav/f%E2%82%AC</href><propstat><prop><getcontentlength> 7 </getcontentlength>
            <getlastmodified>Sun, 06 Nov 1994 08:49:37 GMT</getlastmodified><getetag/></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let items = try WebDAVMultistatus.parse(Data(body.utf8))
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(
            items == [
                WebDAVResource(path: "/dav/a>b c", isCollection: true, size: 0, modified: date, etag: #""t<1>""#),
                WebDAVResource(path: "/dav/f\u{20AC}", isCollection: false, size: 7, modified: date, etag: nil),
            ])
    }

    @Test(
        "a body that is not a multistatus is refused with its reason",
        arguments: [
            ("<D:multistatus><D:response>", "the body ends inside <response>"),
            ("<D:multistatus></D:response>", "</response> does not close <multistatus>"),
            ("<D:multistatus><D:response></D:response></D:multistatus>", "a response has no href"),
            ("<D:multistatus><D:response><D:href>/a", "the body ends inside <href>"),
            ("<D:multistatus><D:response", "a tag is not closed"),
            (
                "<multistatus><response><href>/a%2</href></response></multistatus>",
                "the href /a%2 is not percent-encoded UTF-8"
            ),
            (
                "<multistatus><response><href>/a%FF</href></response></multistatus>",
                "the href /a%FF is not percent-encoded UTF-8"
            ),
            ("<multistatus><response><href>/a&bogus;</href></response></multistatus>", "unknown entity &bogus;"),
            ("<multistatus><!-- open", "a comment is not closed"),
            ("<multistatus><![CDATA[ open", "a CDATA section is not closed"),
        ])
    func malformedMultistatus(body: String, reason: String) {
        #expect(throws: WebDAVMultistatus.Malformed(reason: reason)) { try WebDAVMultistatus.parse(Data(body.utf8)) }
    }

    @Test("an IMF-fixdate's bytes read as the text reader reads them; any other form is left to it")
    func fixdateBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: TimeInterval(Int.random(in: 0...4_102_444_799, using: &generator)))
            let text = HTTPDate.format(date)
            #expect(HTTPDate.parse(fixdate: Array(text.utf8)[...]) == date, "\(text)")
        }
        for text in [
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Xyz 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:49:37 GMT", "Sun, 0a Nov 1994 08:49:37 GMT", "Sun; 06 Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(fixdate: Array(text.utf8)[...]) == nil, "\(text)")
        }
    }

    @Test("a file's identity is its ETag without the weakness mark: Apache's W/ in the second of a write, strong after")
    func weakAndStrongETagsAreOneIdentity() {
        func resource(_ etag: String?) -> WebDAVResource {
            WebDAVResource(
                path: "/dav/f", isCollection: false, size: 3, modified: Date(timeIntervalSince1970: 0), etag: etag)
        }
        let weak = WebDAVAccessor.metadata(resource(#"W/"5-64a""#)).fileIdentifier
        let strong = WebDAVAccessor.metadata(resource(#""5-64a""#)).fileIdentifier
        let other = WebDAVAccessor.metadata(resource(#""5-64b""#)).fileIdentifier
        #expect(weak == strong)
        #expect(strong != other)
        #expect(strong != 0)
        #expect(WebDAVAccessor.metadata(resource(nil)).fileIdentifier == 0)
    }

    @Test("HTTP dates read and write, leap days and the epoch included")
    func httpDates() {
        for seconds in [0, 951_782_400, 1_795_255_200, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.parse("Sat, 21 Nov 2026 10:00:00 GMT") == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(HTTPDate.parse("Saturday, 21-Nov-26 10:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sat, 21 Foo 2026 10:00:00 GMT") == nil)
    }

    @Test(
        "a year no calendar arithmetic can hold is refused, not a crash",
        arguments: ["Sun, 06 Nov 999999999999 08:49:37 GMT", "Sun, 06 Nov 9223372036854775807 08:49:37 GMT"])
    func hugeYears(text: String) throws {
        #expect(HTTPDate.parse(text) == nil)
        #expect(HTTPDate.date(year: Int.max, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") != nil)
        let body = """
            <multistatus xmlns="DAV:"><response><href>/dav/f</href><propstat><prop>
            <getlastmodified>\(text)</getlastmodified><getcontentlength>1</getcontentlength></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        #expect(try WebDAVMultistatus.parse(Data(body.utf8)).map(\.modified) == [Date(timeIntervalSince1970: 0)])
    }

    @Test("a CDATA section's text holds no entities; the text around it does")
    func characterDataKeepsAmpersands() throws {
        func href(_ inner: String) throws -> String? {
            let body = """
                <multistatus xmlns="DAV:"><response><href>\(inner)</href><propstat><prop><resourcetype/></prop>
                <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
                """
            return try WebDAVMultistatus.parse(Data(body.utf8)).first?.path
        }
        #expect(try href("<![CDATA[/dav/a&b]]>") == "/dav/a&b")
        #expect(try href("<![CDATA[/dav/a&amp;b]]>") == "/dav/a&amp;b")
        #expect(try href("/dav/x&amp;<![CDATA[&y]]>&lt;z") == "/dav/x&&y<z")
    }

    @Test(
        "a length is digits only, at any length; past Int64 it is no length",
        arguments: [
            ("7", Int64(7)), ("000000000000000000007", 7), ("9223372036854775807", .max), ("-000000000000000001", nil),
            ("+000000000000000001", nil), ("9223372036854775808", nil), ("-1", nil),
        ] as [(String, Int64?)])
    func lengths(text: String, expected: Int64?) throws {
        let body = """
            <multistatus xmlns="DAV:"><response><href>/dav/f</href><propstat><prop>
            <getcontentlength>\(text)</getcontentlength></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let size = try WebDAVMultistatus.parse(Data(body.utf8)).first?.size
        #expect(size == (expected ?? 0), "\(text)")
    }
}
