import SwiftSyntax

/// What `@Mockable` reads from a protocol: its name, isolation, associated types and requirements.
/// Anything it cannot mock is reported through `diagnose`, at the offending declaration.
struct ProtocolModel {
    var name: String
    var access: String
    var isActor = false
    var isMainActor = false
    var isSendable = false
    /// Whether the mock is `Sendable` with its state behind a lock (the default), or, with
    /// `@Mockable(sendable: false)`, a non-`Sendable` class whose state needs no lock.
    var isSendableMock = true
    var associatedTypes: [AssociatedType] = []
    var methods: [MethodRequirement] = []
    var properties: [PropertyRequirement] = []
    var initializers: [InitializerRequirement] = []

    /// The mock's name: `Mock` + the protocol's name. See `Mockable.swift` for why a trailing
    /// `Providing` stays.
    var mockName: String { "Mock" + name }

    var hasStatics: Bool {
        methods.contains(where: \.isStatic) || properties.contains(where: \.isStatic)
    }

    init(_ decl: ProtocolDeclSyntax, sendable: Bool, diagnose: (any SyntaxProtocol, MockableDiagnostic) -> Void) {
        name = decl.name.text
        isSendableMock = sendable
        access = Self.access(of: decl.modifiers)
        isMainActor = decl.attributes.contains { attribute in
            attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor"
        }
        if let whereClause = decl.genericWhereClause { diagnose(whereClause, .protocolWhereClause) }
        for inherited in decl.inheritanceClause?.inheritedTypes ?? [] {
            switch inherited.type.trimmedDescription {
            case "Sendable", "Swift.Sendable": isSendable = true
            case "Actor", "_Concurrency.Actor": isActor = true
            case "AnyObject": break
            default: diagnose(inherited, .unknownInheritance)
            }
        }
        for member in decl.memberBlock.members {
            read(member.decl, diagnose: diagnose)
        }
        if !associatedTypes.isEmpty, hasStatics {
            diagnose(decl.name, .staticWithAssociatedTypes)
        }
        StubNaming.assign(to: &self)
    }

    private mutating func read(_ decl: DeclSyntax, diagnose: (any SyntaxProtocol, MockableDiagnostic) -> Void) {
        if let function = decl.as(FunctionDeclSyntax.self) {
            if let method = MethodReader.method(function, sendableMock: isSendableMock, diagnose: diagnose) { methods.append(method) }
        } else if let variable = decl.as(VariableDeclSyntax.self) {
            properties += MethodReader.properties(variable, diagnose: diagnose)
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            if let requirement = MethodReader.initializer(initializer, diagnose: diagnose) {
                initializers.append(requirement)
            }
        } else if let associated = decl.as(AssociatedTypeDeclSyntax.self) {
            if let whereClause = associated.genericWhereClause {
                diagnose(whereClause, .associatedTypeWhereClause)
            }
            let inheritance = associated.inheritanceClause?.inheritedTypes
                .map { $0.type.trimmedDescription }.joined(separator: " & ") ?? ""
            associatedTypes.append(AssociatedType(name: associated.name.text, inheritance: inheritance))
        } else if decl.is(SubscriptDeclSyntax.self) {
            diagnose(decl, .subscriptRequirement)
        }
    }

    /// The access level the mock gets: internal, or `fileprivate` for a `private`/`fileprivate`
    /// protocol. Never public: the generated code names `Testing` types, which the test file
    /// imports internally (`InternalImportsByDefault`), and a mock is for the module's own tests.
    private static func access(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.fileprivate), .keyword(.private): return "fileprivate "
            default: continue
            }
        }
        return ""
    }
}
