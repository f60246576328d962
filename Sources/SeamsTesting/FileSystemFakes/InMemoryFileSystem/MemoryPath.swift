import Foundation

/// A path as the kernel receives it: split into byte names, empty components dropped (`a//b` is
/// `a/b`), and `.` and `..` kept in place, so that ``MemoryTree`` resolves them one component at
/// a time as Linux does (`a/missing/../b` fails with ENOENT; `file/..` with ENOTDIR).
struct MemoryPath: Sendable {
    /// Linux's `PATH_MAX`: a path of this many bytes or more (with its closing NUL, more than
    /// 4,096) is refused with ENAMETOOLONG before any component is looked up.
    static let maximumLength = 4096
    /// Linux's `NAME_MAX`: a component longer than this is refused with ENAMETOOLONG when the
    /// walk reaches it.
    static let maximumNameLength = 255

    static let dot: MemoryName = [UInt8(ascii: ".")]
    static let dotDot: MemoryName = [UInt8(ascii: "."), UInt8(ascii: ".")]

    /// The components, with `.` and `..` still in them until ``MemoryTree/resolve(_:)``.
    var names: [MemoryName]
    /// The path as given, for errors.
    var text: String
    /// Whether some component is `.` or `..`, or longer than `NAME_MAX`, or the whole path is
    /// too long: such a path needs the component-by-component walk.
    var needsWalk: Bool
    /// The last component when it is `.` or `..` (a call that changes that name is refused).
    var finalDot: MemoryName?

    /// Reads the encoded path (cheap) and decodes only when it holds an escape (`url.path`
    /// costs several hundred nanoseconds, most of a fake call). A trailing slash is dropped, as
    /// `url.path` (what the live implementations pass to the kernel) drops it.
    init(_ url: URL) {
        let encoded = url.path(percentEncoded: true)
        if encoded.utf8.contains(UInt8(ascii: "%")) {
            self.init(url.path)
        } else if encoded.utf8.count > 1 && encoded.utf8.last == UInt8(ascii: "/") {
            self.init(String(encoded.dropLast()))
        } else {
            self.init(encoded)
        }
    }

    init(_ path: String) {
        text = path
        var names: [MemoryName] = []
        var needsWalk = path.utf8.count >= Self.maximumLength
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let name = Array(part)
            if Self.isDot(name) || name.count > Self.maximumNameLength { needsWalk = true }
            names.append(name)
        }
        self.names = names
        self.needsWalk = needsWalk
        self.finalDot = names.last.flatMap { Self.isDot($0) ? $0 : nil }
    }

    /// The folder part of `path`: every component but the last, and the text before the last
    /// slash (what `Data.write(to:options: .atomic)` makes its temporary file in).
    var folder: MemoryPath {
        let bytes = Array(text.utf8)
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0
        var folder = MemoryPath(
            resolved: Array(names.dropLast()),
            text: slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self),
            finalDot: nil)
        folder.needsWalk = folder.names.contains { Self.isDot($0) || $0.count > Self.maximumNameLength }
        return folder
    }

    /// A path already resolved to plain names.
    init(resolved names: [MemoryName], text: String, finalDot: MemoryName?) {
        self.names = names
        self.text = text
        self.needsWalk = false
        self.finalDot = finalDot
    }

    static func isDot(_ name: MemoryName) -> Bool {
        name == dot || name == dotDot
    }

    var isRoot: Bool { names.isEmpty }
    var parentNames: ArraySlice<MemoryName> { names.dropLast() }
    var lastName: MemoryName? { names.last }
}
