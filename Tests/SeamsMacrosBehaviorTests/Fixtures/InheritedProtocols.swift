import SeamsMacros

/// A parent protocol.
@Mockable
protocol ReadingProviding: Sendable {
    func read(from path: String) throws -> String
    var root: String { get set }
    static func defaultRoot() -> String
}

/// A child of a @Mockable protocol: its mock answers the parent's requirements too.
@Mockable
protocol StorageProviding: ReadingProviding {
    func write(_ text: String, to path: String) throws
}

/// A grandchild, class-bound.
@Mockable
protocol ArchiveProviding: StorageProviding, AnyObject {
    func seal() async -> Bool
}

/// Code under test that sees only the parent protocol.
enum ReadingUser {
    static func readAll(_ paths: [String], with reader: some ReadingProviding) throws -> [String] {
        try paths.map { try reader.read(from: $0) }
    }
}
