import SwiftSyntax
import Testing

@testable import SeamsMacrosPlugin

/// The macro hands its generated text to the compiler unparsed: the nodes it returns must print
/// that text byte for byte, and a text that does not parse must still be caught by the tests.
@Suite struct VerbatimSourceTests {
    @Test("a declaration prints its text exactly")
    func declaration() {
        let text = "#if DEBUG\n/// Ünïcode, tabs\tand a \"quote\".\nfinal class MockP: P {\n    func f() {}\n}\n#endif"
        #expect(VerbatimSource.declaration(text).description == text)
    }

    @Test("an extension prints its text exactly, and nothing of its own missing tokens")
    func extensionDeclaration() {
        let text =
            "extension P where Self: MockInheriting {\n    func f() {\n        mockInherited(MockP.self)!.f()\n    }\n}"
        let declaration = VerbatimSource.extensionDeclaration(text)
        #expect(declaration.description == text)
        #expect(declaration.extensionKeyword.presence == .missing)
    }

    @Test("an expanded source that does not parse is reported as a syntax diagnostic")
    func syntaxErrorsReported() {
        let expansion = Expansion(
            """
            @Mockable
            protocol P: Sendable {
                func f(_ value: Int -> Int
            }
            """)
        #expect(expansion.diagnostics.contains { $0.hasPrefix("syntax ") })
    }
}

/// The layout pass that stands in for swift-syntax's formatter on the generated text.
@Suite struct SourceLayoutTests {
    @Test("lines are indented by the brackets open before them; a line of closers by what they close to")
    func depth() {
        let text = """
              final class A {
            func f() throws {
            do {
                  try g(
            1)
            } catch {
            h { x in
            [x,
            2] }
            }
            }
            }
            """
        #expect(
            SourceLayout.indented(text) == """
                final class A {
                    func f() throws {
                        do {
                            try g(
                                1)
                        } catch {
                            h { x in
                                [x,
                                    2] }
                        }
                    }
                }
                """)
    }

    @Test("case labels sit at their switch's depth")
    func caseLabels() {
        let text = "switch a {\ncase .b: return\ncase .c:\nf()\nreturn\ndefault: break\n}"
        #expect(
            SourceLayout.indented(text)
                == "switch a {\ncase .b: return\ncase .c:\n    f()\n    return\ndefault: break\n}")
    }

    @Test("brackets in string literals and comments do not count")
    func stringsAndComments() {
        let text = "func f() {\nprint(\"{ \\\"(\\\" [\")\n// {\n/// } ``A`` {\ng()\n}\nh()"
        #expect(
            SourceLayout.indented(text)
                == "func f() {\n    print(\"{ \\\"(\\\" [\")\n    // {\n    /// } ``A`` {\n    g()\n}\nh()")
    }

    @Test("blank lines stay empty, and none is kept before a closing brace; trailing spaces go")
    func blankLines() {
        let text = "struct S {  \n   \nvar a = 1\n\n  \n}\n\nlet b = 2"
        #expect(SourceLayout.indented(text) == "struct S {\n\n    var a = 1\n}\n\nlet b = 2")
    }
}
