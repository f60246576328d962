import SeamsMacros

/// `Self` in every position, in a protocol that is not class-bound.
@Mockable
protocol Shape: Sendable {
    static func make() -> Self?
    static var zero: Self { get }
    init(copying other: Self)
    func scaled(by factor: Double) -> Self
    func merged(with other: Self) -> [Self]
    func contains(_ other: Self) -> Bool
}

/// `Self` in a class-bound protocol.
@Mockable
protocol TreeNode: AnyObject, Sendable {
    func parent() -> Self?
    func adopt(_ child: Self)
    static func root() -> Self
}

/// Generic code that knows only the protocols, as code under test would.
enum ShapeUser {
    static func makeOrZero<S: Shape>(_ type: S.Type) -> S {
        S.make() ?? S.zero
    }

    static func doubled<S: Shape>(_ shape: S) -> S {
        shape.scaled(by: 2)
    }

    static func copy<S: Shape>(_ shape: S) -> S {
        S(copying: shape)
    }

    static func rootOf<N: TreeNode>(_ node: N) -> N {
        var current = node
        while let parent = current.parent() { current = parent }
        return current
    }
}
