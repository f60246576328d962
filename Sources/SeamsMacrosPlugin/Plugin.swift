import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct SeamsMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = []
}
