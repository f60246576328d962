/// One parameter of a method or initializer requirement, as the mock spells it.
struct Parameter {
    /// The argument label, or `_`.
    var label: String
    /// The name the mock's implementation uses.
    var name: String
    /// The type as written, e.g. `inout Int` or `@escaping @Sendable () -> Void`; `[T]` for a
    /// variadic `T...`, and `_Opaque0` for the first `some P`.
    var type: String
    /// The type recorded for a call, or `nil` for a closure (closures are passed on, not recorded).
    var recordedType: String?
    /// Whether the parameter is `inout`.
    var isInout: Bool
    /// Whether the parameter is variadic (`T...`, whose `type` is `[T]`).
    var isVariadic = false
    /// For the throwing closure of a `rethrows` requirement: its type with `throws(E)`, the number
    /// of its parameters, and whether it is `async`.
    var rethrowing: (typedType: String, arity: Int, isAsync: Bool)?

    /// For a parameter pack (`_ values: repeat each T`): the type as written, and the runtime
    /// function that makes the array (`type`, `[any Sendable]` or `[Any]`) the mock records.
    var pack: (declaredType: String, elements: String)?

    /// The type in a signature: `T...` for a variadic parameter, `repeat each T` for a pack.
    var declaredType: String {
        if let pack { return pack.declaredType }
        return isVariadic ? String(type.dropFirst().dropLast()) + "..." : type
    }
}

/// Whether and what a requirement throws.
enum ThrowsKind: Equatable {
    case none
    case untyped
    case typed(String)
    /// `rethrows`: the mock throws only what its closure argument throws, so no error can be
    /// configured (the failure type is `Never`), and the handler, which gets the closure, throws.
    case rethrowing

    /// The stub's failure type.
    var failureType: String {
        switch self {
        case .none, .rethrowing: "Never"
        case .untyped: "any Error"
        case .typed(let type): type
        }
    }

    /// The clause to write after the parameters.
    var clause: String {
        switch self {
        case .none: ""
        case .untyped: " throws"
        case .typed(let type): " throws(\(type))"
        case .rethrowing: " rethrows"
        }
    }

    /// The clause of the handler's type (`throws` for `rethrows`).
    var handlerClause: String { self == .rethrowing ? " throws" : clause }
}

/// `async` and `throws` of a requirement.
struct Effects {
    var isAsync = false
    var throwsKind = ThrowsKind.none

    /// `async throws(E)` as written after a signature, with a leading space when not empty.
    var clause: String { (isAsync ? " async" : "") + throwsKind.clause }

    /// The same for the handler's type.
    var handlerClause: String { (isAsync ? " async" : "") + throwsKind.handlerClause }

    /// `try await ` as a call of such a requirement needs it, each word only where it must be.
    var callPrefix: String { (throwsKind == .none ? "" : "try ") + (isAsync ? "await " : "") }
}

/// A method requirement.
struct MethodRequirement {
    var name: String
    var parameters: [Parameter]
    var genericClause: String
    /// The generic clause of the test's handle: `genericClause` with `Sendable` added to each
    /// parameter in `uncheckedGenerics` (a test configures a stub with `Sendable` types).
    var handleGenericClause: String
    var genericNames: [String]
    /// Generic parameters not known to be `Sendable`, of a method whose stubs live in `Sendable`
    /// state: values of these types are not recorded, and the stub is reached through
    /// `MockGenericStubs.record(_:_:)`.
    var uncheckedGenerics: [String] = []
    var whereClause: String
    var effects: Effects
    var returnType: String?
    var isStatic: Bool
    /// `nonisolated ` when the requirement is, else empty.
    var isolation = ""
    /// `prefix ` or `postfix ` for such an operator, else empty.
    var fixity = ""
    /// Whether the requirement is an operator (`==`, `+`, `prefix -`).
    var isOperator = false
    var stubID = ""

    /// `read(from:)`.
    var displayName: String {
        "\(name)(" + parameters.map { "\($0.label):" }.joined() + ")"
    }

    /// Whether a parameter is variadic or a pack: the mock then has a second entry point, taking
    /// arrays (not generic: a pack is a method's only generic parameter), which forwarding from a
    /// child protocol's mock can call.
    var takesArrays: Bool { parameters.contains { $0.isVariadic || $0.pack != nil } }

    /// Whether a parameter is a pack.
    var hasPack: Bool { parameters.contains { $0.pack != nil } }

    /// The name of the entry point taking arrays.
    var arraysName: String { "_mockArrays_\(stubID)" }
}

/// A subscript requirement: its getter is stubbed and recorded like a method (`subscriptKey`
/// for `subscript(key: String)`), its setter like a property's (`setSubscriptKey`, recording the
/// arguments and the new value, after which the getter answers that value for those arguments).
struct SubscriptRequirement {
    /// The getter, as a method named `subscript` whose parameters carry their real labels (`_`
    /// for a parameter with one name, as a subscript's parameters have none by default).
    var getter: MethodRequirement
    var hasSetter: Bool
    var setterStubID = ""

    /// The parameters of the setter's stub: the getter's and `newValue`.
    var setterParameters: [Parameter] {
        getter.parameters + [
            Parameter(
                label: "newValue", name: "newValue", type: getter.returnType ?? "Void",
                recordedType: getter.returnType ?? "Void", isInout: false)
        ]
    }
}

/// A property requirement.
struct PropertyRequirement {
    var name: String
    var type: String
    var isStatic: Bool
    var hasSetter: Bool
    var getterEffects: Effects
    /// `nonisolated ` when the requirement is, else empty.
    var isolation = ""
    var stubID = ""
    var setterStubID = ""
}

/// An initializer requirement.
struct InitializerRequirement {
    var parameters: [Parameter]
    var optionalMark: String
    var effects: Effects
    var stubID = ""

    /// `init(config:)`.
    var displayName: String {
        "init(" + parameters.map { "\($0.label):" }.joined() + ")"
    }
}

/// An associated type, which becomes a generic parameter of the mock.
struct AssociatedType {
    var name: String
    var inheritance: String
}
