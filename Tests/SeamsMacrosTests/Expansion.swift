import SeamsMacrosPlugin
import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// The result of expanding `@Mockable` in a source text.
struct Expansion {
    /// The expanded source, formatted.
    var source: String
    /// The macro's diagnostics, as `line:column: message`, then any syntax error of the expanded
    /// source, as `syntax line:column: message`. The macro hands its text to the compiler
    /// unparsed, so this is where a generated text that does not parse is caught.
    var diagnostics: [String]

    /// Expands `@Mockable` in `text` with the real macro type.
    init(_ text: String) {
        let file = Parser.parse(source: text)
        let context = BasicMacroExpansionContext()
        let expanded = file.expand(
            macroSpecs: ["Mockable": MacroSpec(type: MockableMacro.self)], contextGenerator: { _ in context },
            indentationWidth: .spaces(4)
        )
        source = expanded.description
        let converter = SourceLocationConverter(fileName: "test.swift", tree: file)
        diagnostics = context.diagnostics.map { diagnostic in
            let location = diagnostic.location(converter: converter)
            return "\(location.line):\(location.column): \(diagnostic.message)"
        }
        let expandedTree = Parser.parse(source: source)
        let expandedConverter = SourceLocationConverter(fileName: "expanded.swift", tree: expandedTree)
        diagnostics += ParseDiagnosticsGenerator.diagnostics(for: expandedTree).map { diagnostic in
            let location = diagnostic.location(converter: expandedConverter)
            return "syntax \(location.line):\(location.column): \(diagnostic.message)"
        }
    }

    /// The expanded source with runs of whitespace collapsed, for `contains` checks that ignore
    /// indentation.
    var compact: String {
        source.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether the compact source contains `fragment` (also compacted).
    func contains(_ fragment: String) -> Bool {
        compact.contains(fragment.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }
}
