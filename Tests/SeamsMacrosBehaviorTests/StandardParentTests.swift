import Foundation
import SeamsMacros
import Testing

/// Standard parents: `Equatable`/`Hashable` by identity, stubbed `description` and `id`,
/// `Codable` that encodes what a handler writes and decodes a fresh mock; `where` clauses.
@Suite struct StandardParentTests {
    @Test("Equatable and Hashable by identity: a mock equals only itself, and works as a set element and key")
    func identity() {
        let first = MockAccount()
        let second = MockAccount()
        #expect(first == first)
        #expect(first != second)
        let set: Set<MockAccount> = [first, second, first]
        #expect(set.count == 2)
        func same<A: Account>(_ a: A, _ b: A) -> Bool { a == b }
        #expect(same(first, first) && !same(first, second))
    }

    @Test("description and a fixed-type id are stubbed like properties")
    func descriptionAndID() {
        let account = MockAccount(strict: true)
        account.stubs.description.returns("savings")
        account.stubs.id.returns("acct-1")
        #expect("\(account)" == "savings")
        #expect(account.id == "acct-1")
        func identifier<A: Identifiable>(_ value: A) -> A.ID { value.id }
        #expect(identifier(account) == "acct-1")
        #expect(account.stubs.description.callCount == 1)
    }

    @Test("Identifiable with no fixed ID: a class mock's id is its identity")
    func classIdentity() {
        let note = MockNote()
        #expect(note.id == ObjectIdentifier(note))
    }

    @Test("Codable: encode(to:) runs the handler with the encoder; init(from:) makes a mock with nothing configured")
    func codable() throws {
        let note = MockNote()
        note.stubs.encodeTo.handle { encoder in
            var container = encoder.singleValueContainer()
            try container.encode("draft")
        }
        let data = try JSONEncoder().encode(note)
        #expect(String(decoding: data, as: UTF8.self) == "\"draft\"")
        #expect(note.stubs.encodeTo.callCount == 1)
        let decoded = try JSONDecoder().decode(MockNote.self, from: data)
        #expect(decoded.stubs.encodeTo.callCount == 0)
        decoded.stubs.title.returns("decoded")
        #expect(decoded.title == "decoded")
        #expect(decoded !== note)
    }

    @Test("a child of an Equatable protocol: its mock is equal only to itself, and answers the parent's requirements")
    func childOfEquatable() {
        let first = MockSavingsAccount()
        let second = MockSavingsAccount()
        first.stubs.balance.returns(10)
        #expect(first == first && first != second)
        #expect(Set([first, second, first]).count == 2)
        #expect(first.balance() == 10)
    }

    @Test("where clauses on the protocol and an associated type constrain the generic mock")
    func whereClauses() {
        let catalog = MockCatalog<String, Int>()
        catalog.stubs.itemFor.returns("x", when: 1)
        #expect(catalog.item(for: 1) == "x")
        #expect(catalog.item(for: 2) == nil)
        func largest<C: Catalog>(_ catalog: C, _ keys: [C.Key]) -> C.Item? {
            keys.max().flatMap { catalog.item(for: $0) }
        }
        #expect(largest(catalog, [0, 1]) == "x")
    }
}

/// A generic mock's static requirements keep one state per specialization.
@Suite struct GenericStaticTests {
    @Test("each specialization of a generic mock has its own static stubs")
    func perSpecialization() {
        MockFactory<Int>.staticStubs.makeNamed.handle { $0.count }
        MockFactory<String>.staticStubs.makeNamed.handle { $0.uppercased() }
        func make<F: Factory>(_ type: F.Type, _ name: String) -> F.Product { F.make(named: name) }
        #expect(make(MockFactory<Int>.self, "four") == 4)
        #expect(make(MockFactory<String>.self, "abc") == "ABC")
        #expect(MockFactory<Int>.staticStubs.makeNamed.calls == ["four"])
        #expect(MockFactory<String>.staticStubs.makeNamed.calls == ["abc"])
        MockFactory<Int>.staticStubs.count.returns(1)
        #expect(MockFactory<Int>.count == 1)
        #expect(MockFactory<Double>.staticStubs.count.callCount == 0)
    }
}
