import SeamsMacros
import Testing

/// Subscript requirements: the getter is stubbed like a method, the setter records and answers.
@Suite struct SubscriptTests {
    struct OutOfRange: Error, Equatable {}

    @Test("get set: a set value is answered for its key from then on; sets and gets are recorded")
    func getSet() {
        let mock = MockGrid()
        mock.stubs.subscriptKey.returns(0)
        var grid: any Grid = mock
        grid["a"] = 5
        #expect(grid["a"] == 5)
        #expect(grid["b"] == 0)
        grid["a"] = nil
        #expect(grid["a"] == nil)
        #expect(mock.stubs.subscriptKey.calls == ["a", "b", "a"])
        #expect(mock.stubs.setSubscriptKey.calls.map(\.key) == ["a", "a"])
        #expect(mock.stubs.setSubscriptKey.calls.map(\.newValue) == [5, nil])
    }

    @Test("a throwing getter of two parameters: a handler, an answer for given arguments, an error")
    func throwingGetter() throws {
        let mock = MockGrid(strict: true)
        mock.stubs.subscriptRowColumn.handle { row, column in Double(row * 10 + column) }
        mock.stubs.subscriptRowColumn.throwing(OutOfRange(), when: (row: 9, column: 9))
        let grid: any Grid = mock
        #expect(try grid[1, 2] == 12)
        #expect(throws: OutOfRange()) { try grid[9, 9] }
        #expect(mock.stubs.subscriptRowColumn.calls.map(\.row) == [1, 9])
    }

    @Test("a labelled subscript and a static one")
    func labelledAndStatic() {
        let mock = MockGrid()
        mock.stubs.subscriptIndex.handle { "#\($0)" }
        #expect(mock[at: 3] == "#3")
        MockGrid.staticStubs.subscriptName.returns(7)
        func lookUp<G: Grid>(_ type: G.Type) -> Int { G["x"] }
        #expect(lookUp(MockGrid.self) == 7)
        #expect(MockGrid.staticStubs.subscriptName.calls == ["x"])
    }

    @Test("an unconfigured getter on a strict mock is an issue; the lenient answer is nil")
    func unconfigured() {
        let mock = MockGrid(strict: true)
        withKnownIssue {
            #expect(mock["a"] == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("subscript(_:) on MockGrid") }
        }
    }

    @Test("a child protocol's mock answers the parent's subscripts, set included")
    func inherited() {
        let mock = MockLabelledGrid()
        mock.stubs.subscriptIndex.returns("cell")
        var grid: any LabelledGrid = mock
        grid["k"] = 1
        #expect(grid["k"] == 1)
        #expect(grid[at: 0] == "cell")
        #expect(mock.stubs.setSubscriptKey.calls.map(\.newValue) == [1])
    }
}
