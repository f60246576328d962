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
    /// `Equatable` (or `Hashable`) is inherited: the mock is equal only to itself.
    var isEquatable = false
    /// `Hashable` is inherited: the mock hashes its identity.
    var isHashable = false
    /// `Decodable` is inherited: the mock has `init(from:)`, which makes a mock with nothing
    /// configured.
    var isDecodable = false
    /// Requirements of the mock's generic parameters (associated types), from `where` clauses on
    /// the protocol or on its associated types: `A: Hashable`, `A.Element == Int`.
    var genericRequirements: [String] = []

    /// Whether a static requirement names the mock's own type (after `Self` is written as it):
    /// static state is always locked, so such a mock must be `Sendable`.
    var staticRequirementMentionsSelf: Bool {
        let name = mockName
        func types(_ method: MethodRequirement) -> [String] {
            method.parameters.map(\.type) + [method.returnType ?? ""]
        }
        var staticTypes: [String] = properties.filter(\.isStatic).map(\.type)
        for method in methods where method.isStatic { staticTypes += types(method) }
        for requirement in subscripts where requirement.getter.isStatic { staticTypes += types(requirement.getter) }
        return staticTypes.contains { $0.contains(name) }
    }

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
        var standardParents: Set<String> = []
        func inherit(_ type: TypeSyntax) {
            switch type.trimmedDescription {
            case "Sendable", "Swift.Sendable": isSendable = true
            case "Error", "Swift.Error":
                // `Error` inherits `Sendable`.
                isSendable = true
                standardParents.insert("Error")
            case "Actor", "_Concurrency.Actor": isActor = true
            case "AnyObject": isClassBound = true
            case let name where Self.standardParents.contains(name) || Self.standardParents.contains("Swift." + name):
                standardParents.insert(name.hasPrefix("Swift.") ? String(name.dropFirst(6)) : name)
            case let name
            where Self.knownNonMockable.contains(name) || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }):
                diagnose(type, .unknownInheritance)
            case let name: self.inherited.append(name)
            }
        }
        for inherited in decl.inheritanceClause?.inheritedTypes ?? [] { inherit(inherited.type) }
        for member in decl.memberBlock.members {
            read(member.decl, diagnose: diagnose)
        }
        // `where Self: P` is one more parent; `where A: P` (an associated type) constrains the
        // mock's generic parameter; `where ID == T` fixes `Identifiable`'s `ID`.
        var identifierType: String?
        // `Self: P` first, so that `ID == T` finds `Identifiable` wherever it is written.
        let written = Array(decl.genericWhereClause?.requirements ?? [])
        func isOnSelf(_ requirement: GenericRequirementSyntax) -> Bool {
            guard case .conformanceRequirement(let conformance) = requirement.requirement else { return false }
            return conformance.leftType.trimmedDescription == "Self"
        }
        for requirement in written.filter(isOnSelf) + written.filter({ !isOnSelf($0) }) {
            switch requirement.requirement {
            case .conformanceRequirement(let conformance) where conformance.leftType.trimmedDescription == "Self":
                inherit(conformance.rightType)
            case .conformanceRequirement(let conformance)
            where mentionsAssociatedType(conformance.leftType.trimmedDescription):
                genericRequirements.append(conformance.trimmedDescription)
            case .sameTypeRequirement(let sameType)
            where sameType.leftType.trimmedDescription == "ID" && standardParents.contains("Identifiable"):
                identifierType = sameType.rightType.trimmedDescription
            case .sameTypeRequirement(let sameType)
            where mentionsAssociatedType(sameType.leftType.trimmedDescription)
                && sameType.leftType.trimmedDescription.contains("."):
                genericRequirements.append(sameType.trimmedDescription)
            default:
                diagnose(requirement, .protocolWhereClause)
            }
        }
        addStandardRequirements(standardParents, identifierType: identifierType)
        StubNaming.assign(to: &self)
        SelfSubstitution.apply(to: &self)
    }

    /// Standard protocols whose requirements the mock writes itself.
    static let standardParents: Set<String> = [
        "Equatable", "Hashable", "Comparable", "Identifiable", "CustomStringConvertible",
        "CustomDebugStringConvertible", "Encodable", "Decodable", "Codable", "Error",
    ]

    /// Standard protocols whose requirements no `@Mockable` wrote a mock of.
    static let knownNonMockable: Set<String> = [
        "Sequence", "Collection", "IteratorProtocol",
        "AsyncSequence", "RawRepresentable", "CaseIterable", "MainActor", "SendableMetatype",
    ]

    /// Whether `type` is one of the protocol's associated types, or a member of one (`A.Element`).
    private func mentionsAssociatedType(_ type: String) -> Bool {
        let root = type.split(separator: ".").first.map(String.init) ?? ""
        return associatedTypes.contains { $0.name == root }
    }

    /// The requirements of the standard parents, where the protocol does not declare them itself:
    /// `description` and `debugDescription` and `id` (for a fixed `ID`) are properties a test
    /// stubs, `encode(to:)` a method; identity (`==`, `hash(into:)`, `Identifiable`'s default
    /// `id` of a class) and `init(from:)` are written by the generator.
    private mutating func addStandardRequirements(_ parents: Set<String>, identifierType: String?) {
        let isolation = isActor || isMainActor ? "nonisolated " : ""
        func property(_ name: String, _ type: String) {
            guard !properties.contains(where: { $0.name == name }) else { return }
            properties.append(
                PropertyRequirement(
                    name: name, type: type, isStatic: false, hasSetter: false, getterEffects: Effects(),
                    isolation: isolation))
        }
        if parents.contains("CustomStringConvertible") { property("description", "String") }
        if parents.contains("CustomDebugStringConvertible") { property("debugDescription", "String") }
        if let identifierType { property("id", identifierType) }
        // `Comparable`'s `<` is a stubbed operator (`MockX.staticStubs.operatorLess`): an order
        // is behaviour, which identity cannot give.
        /// Whether the protocol declares `name(Self, Self)` itself (an overload on other types
        /// does not count).
        func declaresOnSelf(_ name: String) -> Bool {
            methods.contains { $0.name == name && $0.parameters.map(\.type) == ["Self", "Self"] }
        }
        if parents.contains("Comparable"), !declaresOnSelf("<") {
            let parameters = ["lhs", "rhs"].map {
                Parameter(label: $0, name: $0, type: "Self", recordedType: "Self", isInout: false)
            }
            methods.append(
                MethodRequirement(
                    name: "<", parameters: parameters, genericClause: "", handleGenericClause: "", genericNames: [],
                    whereClause: "", effects: Effects(), returnType: "Bool", isStatic: true, isolation: isolation,
                    isOperator: true))
        }
        // A protocol that declares `==` or `hash(into:)` itself gets them stubbed instead.
        isEquatable =
            (parents.contains("Equatable") || parents.contains("Hashable") || parents.contains("Comparable"))
            && !declaresOnSelf("==")
        isHashable =
            parents.contains("Hashable")
            && !methods.contains { $0.name == "hash" && $0.parameters.map(\.label) == ["into"] }
        if parents.contains("Encodable") || parents.contains("Codable"),
            !methods.contains(where: { $0.name == "encode" && $0.parameters.map(\.label) == ["to"] })
        {
            methods.append(
                MethodRequirement(
                    name: "encode",
                    parameters: [
                        Parameter(label: "to", name: "encoder", type: "any Encoder", recordedType: nil, isInout: false)
                    ],
                    genericClause: "", handleGenericClause: "", genericNames: [], whereClause: "",
                    effects: Effects(isAsync: false, throwsKind: .untyped), returnType: nil, isStatic: false,
                    isolation: isolation))
        }
        isDecodable =
            (parents.contains("Decodable") || parents.contains("Codable"))
            && !initializers.contains { $0.parameters.map(\.label) == ["from"] }
    }

    /// Whether the requirements can be forwarded from a child protocol's mock to this protocol's
    /// mock: a `Sendable` class mock, with no initializers, associated types or `Self`
    /// (an inherited mock cannot return the child's `Self`).
    var isForwardable: Bool {
        isSendableMock && !isActor && !isMainActor && associatedTypes.isEmpty && initializers.isEmpty && !mentionsSelf
            && !isDecodable && !methods.contains(where: \.isOperator)
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
            let inheritance =
                associated.inheritanceClause?.inheritedTypes
                .map { $0.type.trimmedDescription }.joined(separator: " & ") ?? ""
            for requirement in associated.genericWhereClause?.requirements ?? [] {
                genericRequirements.append(requirement.requirement.trimmedDescription)
            }
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
