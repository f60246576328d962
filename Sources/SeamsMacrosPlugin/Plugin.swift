// The compiler plugin that provides the @Mockable macro.
import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct SeamsMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MockableMacro.self]
}
