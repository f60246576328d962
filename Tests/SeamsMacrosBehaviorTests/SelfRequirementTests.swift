import SeamsMacros
import Testing

/// `Self` requirements work through generic code that sees only the protocol. Static state is
/// shared by every test of the process, so the suite that touches it runs serialized.
@Suite(.serialized) struct SelfRequirementTests {
    @Test("a static factory returning Self? answers the configured mock, and falls back to nil")
    func staticOptionalFactory() {
        MockShape.staticStubs.make.reset()
        MockShape.staticStubs.zero.reset()
        let made = MockShape()
        MockShape.staticStubs.make.returns(made)
        #expect(ShapeUser.makeOrZero(MockShape.self) === made)
        MockShape.staticStubs.make.reset()
        let zero = MockShape()
        MockShape.staticStubs.zero.returns(zero)
        #expect(ShapeUser.makeOrZero(MockShape.self) === zero)
        #expect(MockShape.staticStubs.make.callCount == 1)
        MockShape.staticStubs.zero.reset()
    }

    @Test("an instance method returning Self and taking Self records and answers mocks")
    func instanceSelf() {
        let shape = MockShape()
        let bigger = MockShape()
        shape.stubs.scaledBy.returns(bigger)
        #expect(ShapeUser.doubled(shape) === bigger)
        #expect(shape.stubs.scaledBy.calls == [2])
        shape.stubs.mergedWith.handle { other in [other, other] }
        #expect(shape.merged(with: bigger).count == 2)
        #expect(shape.stubs.mergedWith.calls.first === bigger)
    }

    @Test("an initializer taking Self records the instance it copied")
    func initializerSelf() {
        let original = MockShape()
        let copy = ShapeUser.copy(original)
        #expect(copy.stubs.initCopying.calls.first === original)
    }

    @Test("a class-bound protocol's Self results and parameters")
    func classBound() {
        let root = MockTreeNode()
        let child = MockTreeNode()
        child.stubs.parent.returns(root)
        #expect(ShapeUser.rootOf(child) === root)
        root.adopt(child)
        #expect(root.stubs.adopt.calls.first === child)
        MockTreeNode.staticStubs.root.returns(root)
        #expect(MockTreeNode.root() === root)
        MockTreeNode.staticStubs.root.reset()
    }
}
