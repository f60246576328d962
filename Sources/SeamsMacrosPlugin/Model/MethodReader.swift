import SwiftSyntax

/// Reads method, property and initializer requirements into the model.
enum MethodReader {
    typealias Diagnose = (any SyntaxProtocol, MockableDiagnostic) -> Void

    /// The names of the mock's own API.
    static let reservedNames: Set<String> = ["stubs", "staticStubs", "resetMock", "mockInherited"]

    /// - Parameter sendableMock: Whether the method's stubs live in a `Sendable` mock (or static
    ///   state), whose generic parameters must be `Sendable`.
    static func method(_ decl: FunctionDeclSyntax, sendableMock: Bool, diagnose: Diagnose) -> MethodRequirement? {
        // An operator (`static func == (lhs: Self, rhs: Self) -> Bool`) is a static method whose
        // stub is named after its symbols (`operatorEqualEqual`).
        let fixity =
            decl.modifiers.contains { $0.name.tokenKind == .keyword(.prefix) }
            ? "prefix " : decl.modifiers.contains { $0.name.tokenKind == .keyword(.postfix) } ? "postfix " : ""
        if reservedNames.contains(decl.name.text) {
            diagnose(decl.name, .reservedName)
            return nil
        }
        var genericNames: [String] = []
        var unchecked: [String] = []
        var clause: [String] = []
        var handleClause: [String] = []
        let whereText = decl.genericWhereClause?.trimmedDescription ?? ""
        // The generic parameters the `where` clause constrains to `Sendable` (`T: Hashable & Sendable`).
        let sendableInWhere: Set<String> = Set(
            (decl.genericWhereClause?.requirements ?? []).compactMap { requirement in
                guard case .conformanceRequirement(let conformance) = requirement.requirement,
                    mentionsSendable(conformance.rightType.trimmedDescription)
                else { return nil }
                return conformance.leftType.trimmedDescription
            })
        // A generic parameter a `Sendable` mock cannot prove `Sendable`: its values are not
        // recorded, and a test configures the stub with a `Sendable` type.
        func add(_ name: String, inherited: String) {
            genericNames.append(name)
            clause.append(inherited.isEmpty ? name : "\(name): \(inherited)")
            let needsSendable =
                (sendableMock || isStatic(decl.modifiers)) && !mentionsSendable(inherited)
                && !sendableInWhere.contains(name)
            if needsSendable {
                unchecked.append(name)
                handleClause.append("\(name): " + (inherited.isEmpty ? "Sendable" : "\(inherited) & Sendable"))
            } else {
                handleClause.append(clause.last!)
            }
        }
        // Type parameter packs (`each T`): named in the requirement's generic clause only; their
        // values are recorded as one array (see `packed(_:packs:in:sendable:hasOtherGenerics:diagnose:)`).
        var packs: [GenericParameterSyntax] = []
        for generic in decl.genericParameterClause?.parameters ?? [] {
            if generic.specifier != nil {
                packs.append(generic)
                clause.append(
                    "each \(generic.name.text)" + (generic.inheritedType.map { ": \($0.trimmedDescription)" } ?? ""))
                continue
            }
            add(generic.name.text, inherited: generic.inheritedType?.trimmedDescription ?? "")
        }
        guard let effects = effects(decl.signature.effectSpecifiers, decl: decl, diagnose: diagnose),
            let (read, opaque) = parameters(
                decl.signature.parameterClause, isRethrowing: effects.throwsKind == .rethrowing, diagnose: diagnose)
        else { return nil }
        // A rethrows method is mocked when exactly one parameter is a throwing closure (see
        // `rethrowing(_:)`): the mock runs that closure in the handler's place.
        if effects.throwsKind == .rethrowing, read.count(where: { $0.rethrowing != nil }) != 1 {
            diagnose(decl, .rethrowsRequirement)
            return nil
        }
        var parameters = read
        if !packs.isEmpty {
            guard
                let packed = packed(
                    parameters, packs: packs, in: decl, sendable: sendableMock || isStatic(decl.modifiers),
                    hasOtherGenerics: !genericNames.isEmpty, diagnose: diagnose)
            else { return nil }
            parameters = packed
        }
        // `some P` is the generic parameter it stands for: the mock names it, stubs and records it
        // per type as any generic parameter.
        for parameter in opaque { add(parameter.name, inherited: parameter.constraint) }
        for index in parameters.indices
        where parameters[index].recordedType.map({ mentionsAny(of: unchecked, in: $0) }) == true {
            parameters[index].recordedType = nil
        }
        let genericClause = clause.isEmpty ? "" : "<" + clause.joined(separator: ", ") + ">"
        let handleGenericClause = clause.isEmpty ? "" : "<" + handleClause.joined(separator: ", ") + ">"
        return MethodRequirement(
            name: decl.name.text,
            parameters: parameters,
            genericClause: genericClause,
            handleGenericClause: handleGenericClause,
            genericNames: genericNames,
            uncheckedGenerics: unchecked,
            whereClause: whereText.isEmpty ? "" : " " + whereText,
            effects: effects,
            returnType: decl.signature.returnClause?.type.trimmedDescription,
            isStatic: isStatic(decl.modifiers),
            isolation: isolation(decl.modifiers),
            fixity: fixity,
            isOperator: decl.name.tokenKind != .identifier(decl.name.text)
        )
    }

    static func properties(_ decl: VariableDeclSyntax, diagnose: Diagnose) -> [PropertyRequirement] {
        decl.bindings.compactMap { binding in
            let name = binding.pattern.trimmedDescription
            if reservedNames.contains(name) {
                diagnose(binding.pattern, .reservedName)
                return nil
            }
            guard let type = binding.typeAnnotation?.type.trimmedDescription else {
                diagnose(binding, .untypedProperty)
                return nil
            }
            var hasSetter = false
            var getterEffects = Effects()
            if case .accessors(let accessors) = binding.accessorBlock?.accessors {
                for accessor in accessors {
                    if accessor.accessorSpecifier.tokenKind == .keyword(.set) { hasSetter = true }
                    if accessor.accessorSpecifier.tokenKind == .keyword(.get),
                        let specifiers = accessor.effectSpecifiers
                    {
                        getterEffects.isAsync = specifiers.asyncSpecifier != nil
                        getterEffects.throwsKind = throwsKind(specifiers.throwsClause)
                    }
                }
            }
            return PropertyRequirement(
                name: name, type: type, isStatic: isStatic(decl.modifiers), hasSetter: hasSetter,
                getterEffects: getterEffects, isolation: isolation(decl.modifiers)
            )
        }
    }

    static func subscriptRequirement(_ decl: SubscriptDeclSyntax, diagnose: Diagnose) -> SubscriptRequirement? {
        if let generics = decl.genericParameterClause {
            diagnose(generics, .subscriptRequirement)
            return nil
        }
        guard let (read, opaque) = parameters(decl.parameterClause, diagnose: diagnose) else { return nil }
        if let first = opaque.first {
            diagnose(first.node, .subscriptRequirement)
            return nil
        }
        if let variadic = decl.parameterClause.parameters.first(where: { $0.ellipsis != nil }) {
            diagnose(variadic, .subscriptRequirement)
            return nil
        }
        // A subscript's parameter has no argument label unless it is given two names.
        var parameters = read
        for (index, parameter) in decl.parameterClause.parameters.enumerated() where parameter.secondName == nil {
            parameters[index].label = "_"
        }
        var hasSetter = false
        var getterEffects = Effects()
        if case .accessors(let accessors) = decl.accessorBlock?.accessors {
            for accessor in accessors {
                if accessor.accessorSpecifier.tokenKind == .keyword(.set) { hasSetter = true }
                if accessor.accessorSpecifier.tokenKind == .keyword(.get), let specifiers = accessor.effectSpecifiers {
                    getterEffects.isAsync = specifiers.asyncSpecifier != nil
                    getterEffects.throwsKind = throwsKind(specifiers.throwsClause)
                }
            }
        }
        let getter = MethodRequirement(
            name: "subscript", parameters: parameters, genericClause: "", handleGenericClause: "", genericNames: [],
            whereClause: "", effects: getterEffects, returnType: decl.returnClause.type.trimmedDescription,
            isStatic: isStatic(decl.modifiers), isolation: isolation(decl.modifiers)
        )
        return SubscriptRequirement(getter: getter, hasSetter: hasSetter)
    }

    static func initializer(_ decl: InitializerDeclSyntax, diagnose: Diagnose) -> InitializerRequirement? {
        if let generics = decl.genericParameterClause {
            diagnose(generics, .genericInitializer)
            return nil
        }
        guard let effects = effects(decl.signature.effectSpecifiers, decl: decl, diagnose: diagnose),
            let (parameters, opaque) = parameters(decl.signature.parameterClause, diagnose: diagnose)
        else { return nil }
        if let first = opaque.first {
            // An initializer requirement cannot be generic in the mock (its stub is one value).
            diagnose(first.node, .opaqueParameter)
            return nil
        }
        return InitializerRequirement(
            parameters: parameters, optionalMark: decl.optionalMark?.text ?? "", effects: effects
        )
    }

    private static func effects(
        _ specifiers: FunctionEffectSpecifiersSyntax?, decl: some SyntaxProtocol, diagnose: Diagnose
    ) -> Effects? {
        if specifiers?.throwsClause?.throwsSpecifier.tokenKind == .keyword(.rethrows) {
            // Only a method can be mocked rethrowing; `method(_:sendableMock:diagnose:)` checks its
            // closures once it has read its parameters.
            guard decl.is(FunctionDeclSyntax.self) else {
                diagnose(decl, .rethrowsRequirement)
                return nil
            }
            return Effects(isAsync: specifiers?.asyncSpecifier != nil, throwsKind: .rethrowing)
        }
        return Effects(isAsync: specifiers?.asyncSpecifier != nil, throwsKind: throwsKind(specifiers?.throwsClause))
    }

    /// For a throwing closure type with no `inout` parameter, possibly behind attributes such as
    /// `@escaping`: the type with `throws(E)`, its parameter count, and whether it is `async`.
    static func rethrowing(_ type: TypeSyntax) -> (typedType: String, arity: Int, isAsync: Bool)? {
        var base = type
        var attributed: AttributedTypeSyntax?
        if let outer = type.as(AttributedTypeSyntax.self) {
            if outer.specifiers.contains(where: { $0.trimmedDescription == "inout" }) { return nil }
            attributed = outer
            base = outer.baseType
        }
        guard let function = base.as(FunctionTypeSyntax.self),
            let effects = function.effectSpecifiers, let throwsClause = effects.throwsClause,
            throwsClause.type == nil,
            !function.parameters.contains(where: { $0.type.is(AttributedTypeSyntax.self) })
        else { return nil }
        let typedClause = ThrowsClauseSyntax(
            throwsSpecifier: .keyword(.throws), leftParen: .leftParenToken(),
            type: TypeSyntax(IdentifierTypeSyntax(name: .identifier("_MockFailure"))), rightParen: .rightParenToken()
        ).with(\.trailingTrivia, throwsClause.trailingTrivia)
        let typed = function.with(\.effectSpecifiers, effects.with(\.throwsClause, typedClause))
        let text =
            attributed.map { $0.with(\.baseType, TypeSyntax(typed)).trimmedDescription } ?? typed.trimmedDescription
        return (text, function.parameters.count, effects.asyncSpecifier != nil)
    }

    private static func throwsKind(_ clause: ThrowsClauseSyntax?) -> ThrowsKind {
        guard let clause else { return .none }
        if let type = clause.type {
            let text = type.trimmedDescription
            return text == "any Error" || text == "Error" ? .untyped : (text == "Never" ? .none : .typed(text))
        }
        return .untyped
    }

    /// A `some P` parameter, as the generic parameter the mock declares for it.
    struct OpaqueParameter {
        /// `_Opaque0`, `_Opaque1`, … in the order of the parameters.
        var name: String
        /// `P`, what the parameter conforms to.
        var constraint: String
        var node: Syntax
    }

    /// `parameters` with each pack parameter (`_ values: repeat each T`) made an array the mock
    /// records and hands to its handler, or `nil` (diagnosed) when the method uses its packs in a
    /// way one stub cannot: beside other generic parameters or a `where` clause, in its result, in
    /// a parameter that is not a whole pack (`(repeat each T)`, `[repeat each T]`), or, in a
    /// `Sendable` mock, with elements not constrained to `Sendable`.
    private static func packed(
        _ parameters: [Parameter], packs: [GenericParameterSyntax], in decl: FunctionDeclSyntax, sendable: Bool,
        hasOtherGenerics: Bool, diagnose: Diagnose
    ) -> [Parameter]? {
        let names = Set(packs.map(\.name.text))
        let mentionsPack = { (type: TypeSyntax) in
            type.tokens(viewMode: .sourceAccurate).contains { names.contains($0.text) }
        }
        let wholePack = { (type: TypeSyntax) -> Bool in
            guard let expansion = type.as(PackExpansionTypeSyntax.self),
                let element = expansion.repetitionPattern.as(PackElementTypeSyntax.self)
            else { return false }
            return element.pack.as(IdentifierTypeSyntax.self).map { names.contains($0.name.text) } == true
        }
        let declared = decl.signature.parameterClause.parameters.map(\.type)
        let unsupported =
            hasOtherGenerics || decl.genericWhereClause != nil
            || decl.signature.returnClause.map { mentionsPack($0.type) } == true
            || declared.contains { mentionsPack($0) && !wholePack($0) }
            || (sendable && packs.contains { !mentionsSendable($0.inheritedType?.trimmedDescription ?? "") })
        guard !unsupported else {
            diagnose(packs[0], .parameterPack)
            return nil
        }
        var result = parameters
        for (index, type) in declared.enumerated() where wholePack(type) {
            let array = sendable ? "[any Sendable]" : "[Any]"
            result[index].type = array
            result[index].recordedType = array
            result[index].pack = (type.trimmedDescription, sendable ? "MockPack.sendableElements" : "MockPack.elements")
        }
        return result
    }

    /// The parameters as the mock uses them; with `isRethrowing`, each throwing closure's typed form
    /// (`rethrowing(_:)`) too.
    private static func parameters(
        _ clause: FunctionParameterClauseSyntax, isRethrowing: Bool = false, diagnose: Diagnose
    ) -> ([Parameter], [OpaqueParameter])? {
        var result: [Parameter] = []
        var opaque: [OpaqueParameter] = []
        for (index, parameter) in clause.parameters.enumerated() {
            var base = parameter.type
            var isInout = false
            if let attributed = base.as(AttributedTypeSyntax.self) {
                isInout = attributed.specifiers.contains { $0.trimmedDescription == "inout" }
                base = attributed.baseType
            }
            var type = parameter.type.trimmedDescription
            let isOpaque = base.as(SomeOrAnyTypeSyntax.self)?.someOrAnySpecifier.tokenKind == .keyword(.some)
            if !isOpaque,
                parameter.type.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.some) })
            {
                // `[some P]`, `(some P)?`: no generic parameter stands for it as a whole.
                diagnose(parameter, .opaqueParameter)
                return nil
            }
            if let some = base.as(SomeOrAnyTypeSyntax.self), some.someOrAnySpecifier.tokenKind == .keyword(.some) {
                let name = "_Opaque\(opaque.count)"
                opaque.append(
                    OpaqueParameter(name: name, constraint: some.constraint.trimmedDescription, node: Syntax(parameter))
                )
                base = TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
                type =
                    parameter.type.as(AttributedTypeSyntax.self)?.with(\.baseType, base).trimmedDescription
                    ?? name
            }
            let rethrowing = isRethrowing ? rethrowing(parameter.type) : nil
            // A variadic parameter is an array inside the mock: recorded, stubbed and handed to the
            // handler as one.
            let isVariadic = parameter.ellipsis != nil
            if isVariadic { type = "[\(type)]" }
            let internalName = (parameter.secondName ?? parameter.firstName).text
            result.append(
                Parameter(
                    label: parameter.firstName.text,
                    name: internalName == "_" ? "arg\(index)" : internalName,
                    type: type,
                    recordedType: isFunction(base) || isMetatype(base)
                        ? nil : (isVariadic ? type : base.trimmedDescription),
                    isInout: isInout,
                    isVariadic: isVariadic,
                    rethrowing: rethrowing
                )
            )
        }
        return (result, opaque)
    }

    /// Whether `type` is a closure, possibly optional or parenthesized.
    private static func isFunction(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) { return true }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isFunction(attributed.baseType) }
        if let optional = type.as(OptionalTypeSyntax.self) { return isFunction(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return isFunction(unwrapped.wrappedType)
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return isFunction(only.type)
        }
        return false
    }

    /// Whether `type` is a metatype such as `T.Type` (not `Sendable` for a generic `T`, so not recorded).
    private static func isMetatype(_ type: TypeSyntax) -> Bool {
        type.is(MetatypeTypeSyntax.self)
    }

    /// Whether `text` names one of `names` as a whole identifier.
    private static func mentionsAny(of names: [String], in text: String) -> Bool {
        guard !names.isEmpty else { return false }
        return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains {
            names.contains(String($0))
        }
    }

    private static func mentionsSendable(_ text: String) -> Bool {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains("Sendable")
    }

    private static func isolation(_ modifiers: DeclModifierListSyntax) -> String {
        modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) } ? "nonisolated " : ""
    }

    private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }
}
