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

/// A parent with a generic requirement: a child's mock reaches its handle through `inherited(_:)`.
@Mockable
protocol LoadingProviding: Sendable {
    func load<T: Decodable & Sendable>(_ type: T.Type, key: String) throws -> T
}

/// A child of a parent with a generic requirement.
@Mockable
protocol CachingProviding: LoadingProviding {
    func evict(key: String)
}

/// Code under test that sees only the parent protocol.
enum ReadingUser {
    static func readAll(_ paths: [String], with reader: some ReadingProviding) throws -> [String] {
        try paths.map { try reader.read(from: $0) }
    }
}
