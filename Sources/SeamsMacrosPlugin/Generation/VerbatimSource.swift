import SwiftSyntax

/// Generated source handed to the compiler as it is, not parsed in the plugin.
///
/// The compiler receives an expansion as text (the returned node's `description`) and parses it
/// itself. Parsing the generated text in the plugin first, only to print the same text again, was
/// most of an edit's build: the plugin is built in the package's configuration, and in a debug
/// build swift-syntax's parser took three fifths of the module's emit job
/// (`Benchmarks/mock-build-bench.sh`). So the text is carried as one token, whose description is
/// the text byte for byte; with ``MockableMacro/formatMode`` `.disabled` nothing reformats it.
/// The expansion tests parse every expansion they check, as the compiler does.
enum VerbatimSource {
    /// A declaration whose description is `text`.
    static func declaration(_ text: String) -> DeclSyntax {
        DeclSyntax(MissingDeclSyntax(placeholder: token(text)))
    }

    /// An extension whose description is `text`, which must be one extension: its own tokens are
    /// missing (they print nothing) and `text` stands before them.
    static func extensionDeclaration(_ text: String) -> ExtensionDeclSyntax {
        ExtensionDeclSyntax(
            UnexpectedNodesSyntax([Syntax(token(text))]),
            extensionKeyword: .keyword(.extension, presence: .missing),
            extendedType: MissingTypeSyntax(placeholder: .identifier("", presence: .missing)),
            memberBlock: MemberBlockSyntax(
                leftBrace: .leftBraceToken(presence: .missing), members: [],
                rightBrace: .rightBraceToken(presence: .missing))
        )
    }

    private static func token(_ text: String) -> TokenSyntax {
        TokenSyntax(.unknown(text), presence: .present)
    }
}
