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
    var subscripts: [SubscriptRequirement] = []
    var initializers: [InitializerRequirement] = []
    /// Inherited protocols other than `Sendable`, `Actor` and `AnyObject`: `@Mockable` protocols
    /// whose mocks (`Mock` + the name) the mock holds and whose requirements it forwards to them.
    var inherited: [String] = []
    /// Whether the protocol inherits `AnyObject`.
    var isClassBound = false
    /// Whether a requirement mentions `Self` (set before `Self` is written as the mock's name).
    var mentionsSelf = false

    /// The mock's name: `Mock` + the protocol's name. See `Mockable.swift` for why a trailing
    /// `Providing` stays.
    var mockName: String { "Mock" + name }

    var hasStatics: Bool {
        methods.contains(where: \.isStatic) || properties.contains(where: \.isStatic)
            || subscripts.contains(where: \.getter.isStatic)
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
            case "AnyObject": isClassBound = true
            case let name
            where Self.knownNonMockable.contains(name) || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }):
                diagnose(inherited, .unknownInheritance)
            case let name: self.inherited.append(name)
            }
        }
        for member in decl.memberBlock.members {
            read(member.decl, diagnose: diagnose)
        }
        if !associatedTypes.isEmpty, hasStatics {
            diagnose(decl.name, .staticWithAssociatedTypes)
        }
        StubNaming.assign(to: &self)
        SelfSubstitution.apply(to: &self)
    }

    /// Standard protocols whose requirements no `@Mockable` wrote a mock of.
    static let knownNonMockable: Set<String> = [
        "Equatable", "Hashable", "Comparable", "Identifiable", "Codable", "Encodable", "Decodable", "Error",
        "CustomStringConvertible", "CustomDebugStringConvertible", "Sequence", "Collection", "IteratorProtocol",
        "AsyncSequence", "RawRepresentable", "CaseIterable", "MainActor", "SendableMetatype",
    ]

    /// Whether the requirements can be forwarded from a child protocol's mock to this protocol's
    /// mock: a `Sendable` class mock, with no initializers, associated types or `Self`
    /// (an inherited mock cannot return the child's `Self`).
    var isForwardable: Bool {
        isSendableMock && !isActor && !isMainActor && associatedTypes.isEmpty && initializers.isEmpty && !mentionsSelf
    }

    private mutating func read(_ decl: DeclSyntax, diagnose: (any SyntaxProtocol, MockableDiagnostic) -> Void) {
        if let function = decl.as(FunctionDeclSyntax.self) {
            if let method = MethodReader.method(function, sendableMock: isSendableMock, diagnose: diagnose) {
                methods.append(method)
            }
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
            let inheritance =
                associated.inheritanceClause?.inheritedTypes
                .map { $0.type.trimmedDescription }.joined(separator: " & ") ?? ""
            associatedTypes.append(AssociatedType(name: associated.name.text, inheritance: inheritance))
        } else if let subscriptDecl = decl.as(SubscriptDeclSyntax.self) {
            if let requirement = MethodReader.subscriptRequirement(subscriptDecl, diagnose: diagnose) {
                subscripts.append(requirement)
            }
        }
    }

    /// The access level the mock gets: the protocol's own, so a public protocol's mock, its `stubs`
    /// and its handles can be used from another module's tests with a plain `import`
    /// (`fileprivate` for a `private` protocol, whose peer must stay visible to the file).
    private static func access(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            case .keyword(.fileprivate), .keyword(.private): return "fileprivate "
            default: continue
            }
        }
        return ""
    }
}
