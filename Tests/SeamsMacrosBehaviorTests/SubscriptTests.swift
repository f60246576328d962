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

/// Shapes found by review: each compiles and answers.
@Suite struct EdgeShapeTests {
    @Test("a subscript whose label is its name, a generic E beside rethrows, and hash(_:) beside Hashable")
    func edges() throws {
        let mock = MockEdges()
        mock.stubs.subscriptKey.returns(3)
        mock.stubs.map(Int.self).handle { xs, f in try xs.map(f) }
        mock.stubs.hash.returns(7)
        #expect(mock[key: "a"] == 3)
        #expect(mock.map([1, 2]) { $0 + 1 } == [2, 3])
        #expect(mock.hash("x") == 7)
        #expect(Set([mock, mock]).count == 1)
    }

    @Test("a mock that is not Sendable takes variadic, subscript, rethrows and some requirements")
    func looseShapes() {
        final class Box {}
        let mock = MockLooseShapes()
        mock.stubs.subscriptIndex.returns("")
        mock.log("a", "b")
        mock[1] = "one"
        #expect(mock[1] == "one")
        mock.stubs.each.handle { body in try body(5) }
        var seen = 0
        mock.each { seen = $0 }
        #expect(seen == 5)
        let box = Box()
        mock.keep(box)
        #expect(mock.stubs.keep(Box.self).calls.first === box)
        #expect(mock.stubs.log.calls == [["a", "b"]])
    }
}
