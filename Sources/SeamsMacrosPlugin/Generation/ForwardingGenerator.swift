/// Writes the extension that lets a child protocol's mock satisfy this protocol's requirements:
/// each one forwarded to the child mock's instance of this protocol's mock.
///
/// ```swift
/// extension Parent where Self: MockInheriting {
///     #if DEBUG || SEAMS_MOCKS
///     func ping() { mockInherited(MockParent.self)!.ping() }
///     #endif
/// }
/// ```
///
/// A macro attached to the child sees only the child's declaration, never the parent's
/// requirements, so the parent's own `@Mockable` writes them out once. The extension names only
/// `MockInheriting` (from SeamsMacros) outside its `#if`, so release builds keep an empty
/// extension and no mock type.
struct ForwardingGenerator {
    let model: ProtocolModel

    /// The extension's text, or `nil` when the protocol's requirements cannot be forwarded. (A
    /// child protocol's mock gets `==` and `hash(into:)` by identity from SeamsMacros'
    /// `extension MockInheriting where Self: AnyObject`: an operator in a macro's extension is
    /// not found as a witness.)
    func generate() -> String? {
        guard model.isForwardable, !model.methods.isEmpty || !model.properties.isEmpty || !model.subscripts.isEmpty
        else { return nil }
        let members =
            model.properties.map(property) + model.subscripts.map(subscriptRequirement) + model.methods.map(method)
        return """
            extension \(model.name) where Self: MockInheriting {
            #if DEBUG || SEAMS_MOCKS
            \(members.joined(separator: "\n\n"))
            #endif
            }
            """
    }

    private func target(isStatic: Bool) -> String {
        isStatic ? model.mockName : "mockInherited(\(model.mockName).self)!"
    }

    private func method(_ method: MethodRequirement) -> String {
        let tryAwait = method.effects.callPrefix
        let arguments = RequirementEmitter.arguments(method.parameters, labelled: true, packsAsArrays: true)
        let returnClause = method.returnType.map { " -> \($0)" } ?? ""
        // A variadic parameter cannot be passed on as one: the mock's entry point takes arrays.
        let callee = method.takesArrays ? method.arraysName : method.name
        return """
            \(model.access)\(method.isStatic ? "static " : "")func \(method.name)\(method.genericClause)(\(RequirementEmitter.signature(method.parameters)))\(method.effects.clause)\(returnClause)\(method.whereClause) {
                \(tryAwait)\(target(isStatic: method.isStatic)).\(callee)(\(arguments))
            }
            """
    }

    private func subscriptRequirement(_ requirement: SubscriptRequirement) -> String {
        let getter = requirement.getter
        let tryAwait = getter.effects.callPrefix
        let target = target(isStatic: getter.isStatic)
        let arguments = RequirementEmitter.arguments(getter.parameters, labelled: true)
        let setterModifier = getter.isStatic || model.isClassBound ? "" : "nonmutating "
        let setter =
            requirement.hasSetter ? "\n    \(setterModifier)set { \(target)[\(arguments)] = newValue }" : ""
        return """
            \(model.access)\(getter.isStatic ? "static " : "")subscript(\(RequirementEmitter.signature(getter.parameters, bothNames: true))) -> \(getter.returnType ?? "Void") {
                get\(getter.effects.clause) { \(tryAwait)\(target)[\(arguments)] }\(setter)
            }
            """
    }

    private func property(_ property: PropertyRequirement) -> String {
        let effects = property.getterEffects
        let tryAwait = effects.callPrefix
        let target = target(isStatic: property.isStatic)
        let setterModifier = property.isStatic || model.isClassBound ? "" : "nonmutating "
        let setter = property.hasSetter ? "\n    \(setterModifier)set { \(target).\(property.name) = newValue }" : ""
        return """
            \(model.access)\(property.isStatic ? "static " : "")var \(property.name): \(property.type) {
                get\(effects.clause) { \(tryAwait)\(target).\(property.name) }\(setter)
            }
            """
    }
}
