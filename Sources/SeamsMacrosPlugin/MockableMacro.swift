import SwiftDiagnostics
public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@Mockable`: reads a protocol and writes, beside it, a race-free mock named `Mock` + its name
/// (`@Mockable(sendable: false)`: a mock that is not `Sendable`). Unsupported requirements are
/// reported at their declaration and nothing is generated. As an extension macro it writes the
/// forwarding that lets the mock of a protocol inheriting this one satisfy its requirements.
public struct MockableMacro: PeerMacro, ExtensionMacro {
    /// The generated text is laid out by ``SourceLayout`` and handed over unparsed (``VerbatimSource``).
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let decl = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: MockableDiagnostic.notAProtocol))
            return []
        }
        var failed = false
        let diagnose = { (node: any SyntaxProtocol, message: MockableDiagnostic) in
            failed = true
            context.diagnose(Diagnostic(node: node, message: message))
        }
        let sendable = sendableArgument(of: node, diagnose: diagnose)
        let model = ProtocolModel(decl, sendable: sendable ?? true, diagnose: diagnose)
        if sendable == false, model.isSendable || model.isActor || model.isMainActor {
            diagnose(node, .nonSendableMockOfSendableProtocol)
        } else if sendable == false, model.staticRequirementMentionsSelf {
            diagnose(node, .staticSelfInNonSendableMock)
        }
        guard !failed else { return [] }
        return [VerbatimSource.declaration(SourceLayout.indented(MockGenerator(model: model).generate()))]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // The peer expansion reports what is wrong; this one only stays silent then.
        guard let decl = declaration.as(ProtocolDeclSyntax.self) else { return [] }
        var failed = false
        let ignore = { (_: any SyntaxProtocol, _: MockableDiagnostic) in failed = true }
        let sendable = sendableArgument(of: node, diagnose: ignore) ?? true
        let model = ProtocolModel(decl, sendable: sendable, diagnose: ignore)
        guard !failed, let text = ForwardingGenerator(model: model).generate() else { return [] }
        return [VerbatimSource.extensionDeclaration(SourceLayout.indented(text))]
    }

    /// The literal value of `sendable:`, or `nil` when it is not given (or not a literal, which is
    /// reported).
    private static func sendableArgument(
        of node: AttributeSyntax, diagnose: (any SyntaxProtocol, MockableDiagnostic) -> Void
    ) -> Bool? {
        guard case .argumentList(let arguments) = node.arguments,
            let argument = arguments.first(where: { $0.label?.text == "sendable" })
        else { return nil }
        guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
            diagnose(argument.expression, .sendableArgumentNotLiteral)
            return nil
        }
        return literal.literal.tokenKind == .keyword(.true)
    }
}
