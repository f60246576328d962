import SeamsMacros
import Testing

/// Operator requirements are static methods whose stubs are named after their symbols.
@Suite struct OperatorTests {
    @Test("binary and prefix operators, and a stubbed ==, through generic code")
    func operators() {
        let one = MockMoney()
        let two = MockMoney()
        MockMoney.staticStubs.operatorPlus.handle { lhs, _ in lhs }
        MockMoney.staticStubs.prefixOperatorMinus.handle { $0 }
        MockMoney.staticStubs.operatorEqualEqual.handle { lhs, rhs in lhs === rhs }
        MockMoney.staticStubs.operatorLess.handle { _, amount in amount > 0 }
        func total<M: Money>(_ a: M, _ b: M) -> M { a + b }
        func negated<M: Money>(_ a: M) -> M { -a }
        #expect(total(one, two) === one)
        #expect(negated(two) === two)
        #expect(one == one && one != two)
        #expect(one < 5 && !(one < 0))
        #expect(MockMoney.staticStubs.operatorLess.calls.map(\.rhs) == [5, 0])
        #expect(MockMoney.staticStubs.operatorPlus.callCount == 1)
        #expect(
            MockMoney.staticStubs.operatorEqualEqual.callCount == 2, "the protocol's own == is the stub, not identity")
    }
}
