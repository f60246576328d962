import SeamsMacros

/// A class with mutable state, so not `Sendable`.
final class Document {
    var text: String

    init(text: String) {
        self.text = text
    }
}

/// A protocol that is not `Sendable` and passes non-`Sendable` values both ways: its mock is
/// written with `sendable: false`, and is named `MockDocumentStore` by the SeamsMockNames plugin.
@Mockable(sendable: false)
protocol DocumentStoreProviding {
    init(root: Document)
    func open(named name: String) throws -> Document
    func save(_ document: Document) async
    func convert<Format>(_ document: Document, to format: Format.Type) -> Format
    func onChange(_ handler: @escaping (Document) -> Void)
    var current: Document? { get set }
    static func defaultName() -> String
}
