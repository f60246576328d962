import SwiftDiagnostics
public import SwiftSyntax
public import SwiftSyntaxMacros
import SwiftSyntaxBuilder

/// `@Mockable`: reads a protocol and writes, beside it, a race-free mock named `Mock` + its name.
/// Unsupported requirements are reported at their declaration and nothing is generated.
public struct MockableMacro: PeerMacro {
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
        let model = ProtocolModel(decl) { node, message in
            failed = true
            context.diagnose(Diagnostic(node: node, message: message))
        }
        guard !failed else { return [] }
        return [DeclSyntax(stringLiteral: MockGenerator(model: model).generate())]
    }
}
