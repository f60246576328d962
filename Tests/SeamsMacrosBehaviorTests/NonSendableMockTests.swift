import SeamsMacros
import Testing

/// `@Mockable(sendable: false)`: a mock of a non-`Sendable` protocol records and returns
/// non-`Sendable` values (here the class `Document`), with the same API as a `Sendable` mock.
@Suite struct NonSendableMockTests {
    @Test("returns, handle and calls work with a non-Sendable type, by identity")
    func returnsAndRecords() async throws {
        let mock = MockDocumentStore(root: Document(text: "root"))
        let stored = Document(text: "a")
        mock.stubs.openNamed.returns(stored)
        #expect(try mock.open(named: "a") === stored)

        mock.stubs.openNamed.handle { name in Document(text: name.uppercased()) }
        #expect(try mock.open(named: "b").text == "B")
        #expect(mock.stubs.openNamed.calls == ["a", "b"])

        await mock.save(stored)
        #expect(mock.stubs.save.calls.count == 1)
        #expect(mock.stubs.save.calls.first === stored)
        #expect(mock.stubs.initRoot.calls.map(\.text) == ["root"])
    }

    @Test("errors, sequences and reset")
    func errorsSequencesReset() throws {
        let mock = MockDocumentStore(root: Document(text: "root"))
        struct Gone: Error, Equatable {}
        mock.stubs.openNamed.throwing(Gone())
        #expect(throws: Gone()) { try mock.open(named: "x") }
        mock.stubs.openNamed.returnsInOrder([Document(text: "1"), Document(text: "2")])
        #expect(try mock.open(named: "x").text == "1")
        #expect(try mock.open(named: "x").text == "2")
        #expect(throws: UnconfiguredMockCall(requirement: "open(named:)")) { try mock.open(named: "x") }
        mock.resetMock()
        #expect(mock.stubs.openNamed.callCount == 0)
    }

    @Test("a generic parameter that is not Sendable, a closure argument, a settable property")
    func genericsClosuresProperties() {
        let mock = MockDocumentStore(root: Document(text: "root"))
        mock.stubs.convertTo(Document.self).handle { document, _ in Document(text: document.text + "!") }
        #expect(mock.convert(Document(text: "hi"), to: Document.self).text == "hi!")
        #expect(mock.stubs.convertTo(Document.self).calls.map(\.text) == ["hi"])

        var seen: [String] = []
        mock.stubs.onChange.handle { handler in handler(Document(text: "changed")) }
        mock.onChange { seen.append($0.text) }
        #expect(seen == ["changed"])

        #expect(mock.current == nil)
        mock.current = Document(text: "now")
        #expect(mock.current?.text == "now")
        #expect(mock.stubs.setCurrent.calls.compactMap { $0?.text } == ["now"])
    }

    @Test("static requirements keep a locked, Sendable state")
    func statics() {
        MockDocumentStore.staticStubs.defaultName.returns("untitled")
        #expect(MockDocumentStore.defaultName() == "untitled")
    }

    @Test("strict mode records an issue for an unconfigured call")
    func strict() {
        let strict = MockDocumentStore(strict: true)
        withKnownIssue {
            strict.onChange { _ in }
        } matching: { issue in
            issue.description.contains("Unconfigured mock call: onChange(_:)")
        }
    }

    @Test("the SeamsMockNames plugin names the mocks of ...Providing protocols as the seed does")
    func pluginNames() {
        #expect(MockDocumentStore.self == MockDocumentStoreProviding.self)
        #expect(MockFileAccessor.self == MockFileAccessorProviding.self)
    }
}
