import Foundation
import HTTPTypes
import Seams
import SeamsCore
import SeamsWebDAV
import Synchronization

/// The methods of RFC 4918 (and `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`), answered over the
/// backing file system.
extension InMemoryWebDAVServer {
    /// One resource a request names.
    struct Target {
        /// The decoded names under the served folder.
        var segments: [String]
        /// Whether the request spelled it with a trailing slash.
        var asCollection: Bool
        /// Where it lives in the backing file system.
        var url: URL
        /// `/a/b`: the key of its lock.
        var key: String { "/" + segments.joined(separator: "/") }
        var isRoot: Bool { segments.isEmpty }
    }

    /// An item as the server sees it: a file or a collection (links and other kinds are not served).
    enum Item {
        case file(FileMetadata)
        case collection(FileMetadata)
    }

    func answer(_ request: HTTPRequest, body: Data) -> (HTTPResponse, Data) {
        if let credentials, request.headerFields[.authorization] != credentials.authorization {
            var response = HTTPResponse(status: .unauthorized)
            response.headerFields[.wwwAuthenticate] = "Basic realm=\"seams\""
            return (response, Data())
        }
        guard let target = target(request.path ?? "/") else { return status(isServed(request.path ?? "/") ? 400 : 404) }
        switch request.method.rawValue {
        case "OPTIONS":
            var response = HTTPResponse(status: .ok)
            response.headerFields[HTTPField.Name("DAV")!] = "1, 2"
            response.headerFields[.allow] = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, MKCOL, MOVE, COPY, LOCK, UNLOCK"
            return (response, Data())
        case "PROPFIND": return propfind(target, request)
        case "GET", "HEAD": return get(target, request)
        case "PUT": return put(target, request, body)
        case "MKCOL": return mkcol(target, body)
        case "DELETE": return delete(target, request)
        case "MOVE", "COPY": return transfer(target, request, move: request.method.rawValue == "MOVE")
        case "LOCK": return lock(target, request, body)
        case "UNLOCK": return unlock(target, request)
        default: return status(405)
        }
    }

    // MARK: Methods

    private func propfind(_ target: Target, _ request: HTTPRequest) -> (HTTPResponse, Data) {
        var depth = request.headerFields[HTTPField.Name("Depth")!] ?? "infinity"
        if depth == "infinity" && answersInfiniteDepthWithOneLevel { depth = "1" }
        guard depth == "0" || depth == "1" || (depth == "infinity" && answersInfiniteDepth) else {
            return (
                HTTPResponse(status: .forbidden),
                Data(
                    #"<?xml version="1.0" encoding="utf-8"?><D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>"#
                        .utf8)
            )
        }
        guard let item = item(target) else { return status(404) }
        var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n" + #"<D:multistatus xmlns:D="DAV:">"#
        xml += response(target.segments, item, target.url)
        if case .collection = item, depth != "0" {
            // Depth 1: the collection's items; infinity: theirs too, each folder's after it.
            var folders = [(target.segments, target.url)]
            while let (segments, folder) = folders.popLast() {
                guard let entries = try? directories.contentsOfDirectory(at: folder) else { return status(500) }
                for entry in entries {
                    let url = folder.appending(path: entry.name)
                    switch entry.metadata.kind {
                    case .file: xml += response(segments + [entry.name], .file(entry.metadata), url)
                    case .directory:
                        xml += response(segments + [entry.name], .collection(entry.metadata), url)
                        if depth == "infinity" { folders.append((segments + [entry.name], url)) }
                    case .symbolicLink, .other: continue
                    }
                }
            }
        }
        xml += "</D:multistatus>\n"
        var answer = HTTPResponse(status: .init(code: 207))
        answer.headerFields[.contentType] = "application/xml; charset=utf-8"
        return (answer, Data(xml.utf8))
    }

    /// `GET` and `HEAD`, with `If-Match` and one `Range: bytes=first-last` (206 with
    /// `Content-Range`; 416 past the end), as Apache and rclone answer them.
    private func get(_ target: Target, _ request: HTTPRequest) -> (HTTPResponse, Data) {
        let existing = item(target)
        switch existing {
        case nil: return status(404)
        case .collection?: return status(405)
        case .file(let metadata)?:
            guard let data = try? files.read(from: target.url) else { return status(404) }
            if let failed = precondition(request, existing, target) { return failed }
            var response = HTTPResponse(status: .ok)
            response.headerFields[.eTag] = etag(metadata, data)
            response.headerFields[.lastModified] = HTTPDate.format(metadata.modificationDate)
            response.headerFields[.contentType] = "application/octet-stream"
            response.headerFields[.acceptRanges] = "bytes"
            guard let range = request.headerFields[.range].flatMap(Self.byteRange) else { return (response, data) }
            guard range.first < data.count else {
                var refused = status(416)
                refused.0.headerFields[.contentRange] = "bytes */\(data.count)"
                return refused
            }
            let last = min(range.last ?? data.count - 1, data.count - 1)
            response.status = .init(code: 206)
            response.headerFields[.contentRange] = "bytes \(range.first)-\(last)/\(data.count)"
            return (response, Data(data[data.startIndex + range.first...data.startIndex + last]))
        }
    }

    /// The one range of `bytes=first-` or `bytes=first-last`; other forms are ignored (the whole
    /// file is answered), as RFC 9110 allows.
    private static func byteRange(_ header: String) -> (first: Int, last: Int?)? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]) else { return nil }
        if parts[1].isEmpty { return (first, nil) }
        guard let last = Int(parts[1]), last >= first else { return nil }
        return (first, last)
    }

    private func put(_ target: Target, _ request: HTTPRequest, _ body: Data) -> (HTTPResponse, Data) {
        if target.asCollection || target.isRoot { return status(405) }
        let existing = item(target)
        if case .collection? = existing { return status(405) }
        guard case .collection? = parentItem(target) else { return status(409) }
        if refusedByLock(target, request) { return status(423) }
        if let failed = precondition(request, existing, target) { return failed }
        do {
            try files.write(body, to: target.url)
            try? directories.synchronizeFile(at: target.url)
            try? directories.synchronizeDirectory(at: target.url.deletingLastPathComponent())
        } catch {
            return status(500)
        }
        var response = HTTPResponse(status: existing == nil ? .created : .noContent)
        if case .file(let metadata)? = item(target) { response.headerFields[.eTag] = etag(metadata, body) }
        return (response, Data())
    }

    private func mkcol(_ target: Target, _ body: Data) -> (HTTPResponse, Data) {
        if !body.isEmpty { return status(415) }
        if item(target) != nil || exists(target.url) { return status(405) }
        guard case .collection? = parentItem(target) else { return status(409) }
        do {
            try directories.createDirectory(at: target.url, withIntermediateDirectories: false)
            try? directories.synchronizeDirectory(at: target.url.deletingLastPathComponent())
        } catch {
            return status(500)
        }
        return status(201)
    }

    private func delete(_ target: Target, _ request: HTTPRequest) -> (HTTPResponse, Data) {
        guard let existing = item(target), !target.isRoot else { return status(target.isRoot ? 403 : 404) }
        if case .file = existing, target.asCollection { return status(404) }
        if refusedByLock(target, request, descendants: true) { return status(423) }
        if let failed = precondition(request, existing, target) { return failed }
        do {
            try directories.removeItem(at: target.url, recursively: true)
            try? directories.synchronizeDirectory(at: target.url.deletingLastPathComponent())
        } catch {
            return status(500)
        }
        dropLocks(under: target.key)
        return status(204)
    }

    private func transfer(_ source: Target, _ request: HTTPRequest, move: Bool) -> (HTTPResponse, Data) {
        guard let header = request.headerFields[HTTPField.Name("Destination")!] else { return status(400) }
        guard let url = URL(string: header) else { return status(400) }
        if url.host() != nil, url.host() != baseURL.host() || url.port != baseURL.port { return status(502) }
        guard let destination = target(url.path(percentEncoded: true)) else { return status(400) }
        guard let existing = item(source), !source.isRoot else { return status(source.isRoot ? 403 : 404) }
        if case .file = existing, source.asCollection { return status(404) }
        if destination.key == source.key { return status(403) }
        if destination.key.hasPrefix(source.key + "/") || destination.isRoot { return status(403) }
        guard case .collection? = parentItem(destination) else { return status(409) }
        if move, refusedByLock(source, request, descendants: true) { return status(423) }
        if let failed = precondition(request, existing, source) { return failed }
        let overwrite = request.headerFields[HTTPField.Name("Overwrite")!]?.uppercased() != "F"
        let replaced = item(destination) != nil
        if replaced {
            guard overwrite else { return status(412) }
            if refusedByLock(destination, request, descendants: true) { return status(423) }
        }
        do {
            if replaced {
                // As Apache's mod_dav does: the old item goes first, then the new one comes.
                try directories.removeItem(at: destination.url, recursively: true)
                dropLocks(under: destination.key)
            }
            if move {
                try directories.moveItem(at: source.url, to: destination.url, replacingExisting: false)
                dropLocks(under: source.key)
            } else if case .collection = existing, request.headerFields[HTTPField.Name("Depth")!] == "0" {
                try directories.createDirectory(at: destination.url, withIntermediateDirectories: false)
            } else {
                try directories.copyItem(at: source.url, to: destination.url)
            }
            try? directories.synchronizeDirectory(at: destination.url.deletingLastPathComponent())
            if move { try? directories.synchronizeDirectory(at: source.url.deletingLastPathComponent()) }
        } catch {
            return status(500)
        }
        return status(replaced ? 204 : 201)
    }

    private func lock(_ target: Target, _ request: HTTPRequest, _ body: Data) -> (HTTPResponse, Data) {
        let now = self.now()
        let seconds = Self.timeout(request.headerFields[HTTPField.Name("Timeout")!])
        if body.isEmpty {
            // A refresh: the `If` header names the lock.
            let tokens = Self.tokens(request)
            let refreshed = state.withLock { state -> String? in
                guard var held = state.locks[target.key], held.expires > now, tokens.contains(held.token) else {
                    return nil
                }
                held.expires = now.addingTimeInterval(seconds)
                state.locks[target.key] = held
                return held.token
            }
            guard let refreshed else { return status(412) }
            return lockAnswer(.ok, token: refreshed, seconds: seconds, target: target)
        }
        if target.isRoot { return status(403) }
        let existing = item(target)
        if existing == nil {
            if exists(target.url) { return status(405) }
            guard case .collection? = parentItem(target), !target.asCollection else { return status(409) }
        }
        let token = "opaquelocktoken:" + UUID().uuidString.lowercased()
        let taken = state.withLock { state -> Bool in
            if let held = state.locks[target.key], held.expires > now { return true }
            state.locks[target.key] = HeldLock(token: token, expires: now.addingTimeInterval(seconds))
            return false
        }
        if taken { return status(423) }
        if existing == nil {
            // RFC 4918 §7.3: locking an unmapped name makes an empty resource there.
            do {
                try files.createFile(Data(), at: target.url)
                try? directories.synchronizeDirectory(at: target.url.deletingLastPathComponent())
            } catch {
                dropLocks(under: target.key)
                return status(500)
            }
            return lockAnswer(.created, token: token, seconds: seconds, target: target)
        }
        return lockAnswer(.ok, token: token, seconds: seconds, target: target)
    }

    private func unlock(_ target: Target, _ request: HTTPRequest) -> (HTTPResponse, Data) {
        guard let header = request.headerFields[HTTPField.Name("Lock-Token")!] else { return status(400) }
        let token = header.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
        let now = self.now()
        let released = state.withLock { state -> Bool in
            guard let held = state.locks[target.key], held.expires > now, held.token == token else { return false }
            state.locks[target.key] = nil
            return true
        }
        return status(released ? 204 : 409)
    }

    // MARK: Helpers

    /// The resource a percent-encoded request path names, or `nil` when the path is not under the
    /// served collection or holds `.`/`..` or undecodable bytes.
    func target(_ requestPath: String) -> Target? {
        var path = requestPath
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        var base = baseURL.path(percentEncoded: true)
        if base.hasSuffix("/") { base.removeLast() }
        guard path == base || path.hasPrefix(base + "/") else { return nil }
        let rest = path.dropFirst(base.count)
        var segments: [String] = []
        for part in rest.split(separator: "/", omittingEmptySubsequences: true) {
            guard let name = part.removingPercentEncoding, name != ".", name != "..", !name.isEmpty else { return nil }
            segments.append(name)
        }
        let url = segments.reduce(folder) { $0.appending(path: $1) }
        return Target(segments: segments, asCollection: rest.hasSuffix("/"), url: url)
    }

    /// Whether a percent-encoded request path is under the served collection.
    private func isServed(_ requestPath: String) -> Bool {
        var base = baseURL.path(percentEncoded: true)
        if base.hasSuffix("/") { base.removeLast() }
        let path =
            requestPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? requestPath
        return path == base || path.hasPrefix(base + "/")
    }

    static func decodedRequestPath(_ requestPath: String) -> String {
        var path = requestPath
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        return path.removingPercentEncoding ?? path
    }

    func item(_ target: Target) -> Item? {
        guard let metadata = try? directories.metadata(at: target.url) else { return nil }
        switch metadata.kind {
        case .file: return target.asCollection ? nil : .file(metadata)
        case .directory: return .collection(metadata)
        case .symbolicLink, .other: return nil
        }
    }

    private func exists(_ url: URL) -> Bool { (try? directories.metadata(at: url)) != nil }

    private func parentItem(_ target: Target) -> Item? {
        guard !target.isRoot else { return nil }
        var parent = target
        parent.segments.removeLast()
        parent.asCollection = true
        parent.url = target.url.deletingLastPathComponent()
        return item(parent)
    }

    /// The ETag of a file: its identity, size, date and a hash of its bytes, so any change of
    /// content changes it, even in the same second with the same size.
    func etag(_ metadata: FileMetadata, _ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let nanoseconds = Int64((metadata.modificationDate.timeIntervalSince1970 * 1e9).rounded())
        return
            "\"\(String(metadata.fileIdentifier, radix: 16))-\(String(metadata.size, radix: 16))-\(String(nanoseconds, radix: 16))-\(String(hash, radix: 16))\""
    }

    private func currentETag(_ item: Item?, _ target: Target) -> String? {
        guard case .file(let metadata)? = item, let data = try? files.read(from: target.url) else { return nil }
        return etag(metadata, data)
    }

    /// `If-None-Match` and `If-Match` (RFC 9110 §13), and the ETag conditions of an `If` header
    /// (RFC 4918 §10.4): the 412 answer when one fails.
    private func precondition(_ request: HTTPRequest, _ existing: Item?, _ target: Target) -> (HTTPResponse, Data)? {
        if !ifHeaderHolds(request, target) { return status(412) }
        if let noneMatch = request.headerFields[.ifNoneMatch] {
            if noneMatch.trimmingCharacters(in: .whitespaces) == "*" {
                if existing != nil { return status(412) }
            } else if let tag = currentETag(existing, target), Self.entityTags(noneMatch).contains(tag) {
                return status(412)
            }
        }
        if let match = request.headerFields[.ifMatch] {
            if match.trimmingCharacters(in: .whitespaces) == "*" {
                if existing == nil { return status(412) }
            } else if !(currentETag(existing, target).map { Self.entityTags(match).contains($0) } ?? false) {
                return status(412)
            }
        }
        return nil
    }

    /// Whether the ETag conditions of the request's `If` header hold, as Apache's `mod_dav`
    /// evaluates them: each resource the header names (by a tag `<url>`, or the request's own
    /// target for untagged lists) must match one of its lists that holds an ETag condition
    /// (`["etag"]`, or `Not ["etag"]`), compared weakly. Lock tokens are the locks' business
    /// (``refusedByLock(_:_:descendants:)``), so a list of tokens alone is not judged here.
    private func ifHeaderHolds(_ request: HTTPRequest, _ target: Target) -> Bool {
        guard let header = request.headerFields[HTTPField.Name("If")!] else { return true }
        struct Condition {
            var negated: Bool
            var tag: String
        }
        var lists: [(resource: String?, conditions: [Condition])] = []
        var resource: String?
        var rest = Substring(header)
        while let next = rest.first {
            switch next {
            case "<":
                guard let close = rest.firstIndex(of: ">") else { return false }
                resource = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            case "(":
                guard let close = rest.firstIndex(of: ")") else { return false }
                var list = rest[rest.index(after: rest.startIndex)..<close]
                var conditions: [Condition] = []
                var negated = false
                while let first = list.first {
                    if first == "[", let end = list.firstIndex(of: "]") {
                        conditions.append(
                            Condition(negated: negated, tag: String(list[list.index(after: list.startIndex)..<end])))
                        negated = false
                        list = list[list.index(after: end)...]
                    } else if first == "<", let end = list.firstIndex(of: ">") {
                        negated = false  // a state token: not judged here
                        list = list[list.index(after: end)...]
                    } else if list.hasPrefix("Not") {
                        negated = true
                        list = list.dropFirst(3)
                    } else {
                        list = list.dropFirst()
                    }
                }
                lists.append((resource, conditions))
                rest = rest[rest.index(after: close)...]
            default:
                rest = rest.dropFirst()
            }
        }
        let judged = lists.filter { !$0.conditions.isEmpty }
        for name in Set(judged.map(\.resource)) {
            let subject: Target?
            if let name {
                guard let url = URL(string: name) else { return false }
                subject = self.target(url.path(percentEncoded: true))
            } else {
                subject = target
            }
            let current = subject.flatMap { currentETag(item($0), $0) }.map { Self.entityTags($0)[0] }
            let holds = judged.filter { $0.resource == name }.contains { list in
                list.conditions.allSatisfy { condition in
                    (current != nil && current == Self.entityTags(condition.tag).first) != condition.negated
                }
            }
            if !holds { return false }
        }
        return true
    }

    private static func entityTags(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map {
            $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0
        }
    }

    /// Whether a lock held by someone else (its token not in the `If` header) forbids writing
    /// `target` (and, with `descendants`, anything under it).
    private func refusedByLock(_ target: Target, _ request: HTTPRequest, descendants: Bool = false) -> Bool {
        let now = self.now()
        let tokens = Self.tokens(request)
        let key = target.key
        return state.withLock { state in
            state.locks = state.locks.filter { $0.value.expires > now }
            return state.locks.contains { lockKey, held in
                (lockKey == key || (descendants && lockKey.hasPrefix(key == "/" ? "/" : key + "/")))
                    && !tokens.contains(held.token)
            }
        }
    }

    private func dropLocks(under key: String) {
        state.withLock { state in
            state.locks = state.locks.filter { $0.key != key && !$0.key.hasPrefix(key + "/") }
        }
    }

    /// The lock tokens an `If` header names (`(<opaquelocktoken:…>)`).
    static func tokens(_ request: HTTPRequest) -> Set<String> {
        guard let header = request.headerFields[HTTPField.Name("If")!] else { return [] }
        var tokens = Set<String>()
        var rest = header[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            tokens.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return tokens
    }

    /// Seconds from a `Timeout` header (`Second-60`, `Infinite`), at most an hour.
    static func timeout(_ header: String?) -> TimeInterval {
        guard let first = header?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) else { return 3600 }
        if first.hasPrefix("Second-"), let seconds = Int(first.dropFirst(7)), seconds > 0 {
            return TimeInterval(min(seconds, 3600))
        }
        return 3600
    }

    private func lockAnswer(_ code: HTTPResponse.Status, token: String, seconds: TimeInterval, target: Target) -> (
        HTTPResponse, Data
    ) {
        var response = HTTPResponse(status: code)
        response.headerFields[HTTPField.Name("Lock-Token")!] = "<\(token)>"
        response.headerFields[.contentType] = "application/xml; charset=utf-8"
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:prop xmlns:D="DAV:"><D:lockdiscovery><D:activelock><D:locktype><D:write/></D:locktype>\
            <D:lockscope><D:exclusive/></D:lockscope><D:depth>0</D:depth><D:timeout>Second-\(Int(seconds))</D:timeout>\
            <D:locktoken><D:href>\(token)</D:href></D:locktoken><D:lockroot><D:href>\(Self.escaped(href(target.segments, collection: false)))</D:href></D:lockroot>\
            </D:activelock></D:lockdiscovery></D:prop>
            """
        return (response, Data(xml.utf8))
    }

    private func response(_ segments: [String], _ item: Item, _ url: URL) -> String {
        var xml = "<D:response><D:href>"
        switch item {
        case .collection(let metadata):
            xml +=
                Self.escaped(href(segments, collection: true))
                + "</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype>"
            xml += "<D:getlastmodified>\(HTTPDate.format(metadata.modificationDate))</D:getlastmodified>"
        case .file(let metadata):
            xml += Self.escaped(href(segments, collection: false)) + "</D:href><D:propstat><D:prop><D:resourcetype/>"
            xml += "<D:getcontentlength>\(metadata.size)</D:getcontentlength>"
            xml += "<D:getlastmodified>\(HTTPDate.format(metadata.modificationDate))</D:getlastmodified>"
            if let data = try? files.read(from: url) {
                xml += "<D:getetag>\(Self.escaped(etag(metadata, data)))</D:getetag>"
            }
        }
        return xml + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
    }

    /// The percent-encoded path of an item (only RFC 3986's unreserved bytes left as they are).
    func href(_ segments: [String], collection: Bool) -> String {
        var base = baseURL.path(percentEncoded: true)
        if !base.hasSuffix("/") { base += "/" }
        let path =
            base
            + segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? $0 }.joined(
                separator: "/")
        return collection && !segments.isEmpty ? path + "/" : path
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    func status(_ code: Int) -> (HTTPResponse, Data) {
        (HTTPResponse(status: .init(code: code)), Data())
    }
}
