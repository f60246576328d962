/// Gives every requirement the name of its stub: the base name followed by the argument labels,
/// `read(from:)` → `readFrom`, `write(_:to:)` → `writeTo`. Overloads that share their labels add
/// their parameter types (`loadIdInt`, `loadIdString`), then a counter; a property's setter is
/// `setName`.
enum StubNaming {
    static func assign(to model: inout ProtocolModel) {
        var used: Set<String> = []
        for index in model.properties.indices {
            let name = model.properties[index].name
            model.properties[index].stubID = unique(name, fallback: name, used: &used)
            if model.properties[index].hasSetter {
                let setter = "set" + capitalized(name)
                model.properties[index].setterStubID = unique(setter, fallback: setter, used: &used)
            }
        }
        for index in model.subscripts.indices {
            // Named by the parameters' names: `subscript(key: String)` → `subscriptKey`.
            let parameters = model.subscripts[index].getter.parameters
            let name = "subscript" + (parameters.isEmpty ? "Value" : parameters.map { capitalized($0.name) }.joined())
            model.subscripts[index].getter.stubID = unique(name, fallback: name + types(parameters), used: &used)
            if model.subscripts[index].hasSetter {
                let setter = "set" + capitalized(model.subscripts[index].getter.stubID)
                model.subscripts[index].setterStubID = unique(setter, fallback: setter, used: &used)
            }
        }
        let preferred = model.methods.map { $0.isOperator ? operatorName($0) : $0.name + labels($0.parameters) }
        for index in model.methods.indices {
            let method = model.methods[index]
            let overloaded = preferred.filter { $0 == preferred[index] }.count > 1
            let fallback = preferred[index] + types(method.parameters)
            model.methods[index].stubID = unique(
                overloaded ? fallback : preferred[index], fallback: fallback, used: &used
            )
        }
        for index in model.initializers.indices {
            let parameters = model.initializers[index].parameters
            model.initializers[index].stubID = unique(
                "init" + labels(parameters), fallback: "init" + labels(parameters) + types(parameters),
                used: &used
            )
        }
    }

    /// `==` → `operatorEqualEqual`, `prefix -` → `prefixOperatorMinus`.
    private static func operatorName(_ method: MethodRequirement) -> String {
        let words: [Character: String] = [
            "=": "Equal", "<": "Less", ">": "Greater", "+": "Plus", "-": "Minus", "*": "Star", "/": "Slash",
            "%": "Percent", "!": "Bang", "&": "And", "|": "Or", "^": "Caret", "~": "Tilde", ".": "Dot",
            "?": "Question",
        ]
        let spelled = method.name.map { words[$0] ?? "Symbol" }.joined()
        return method.fixity.isEmpty ? "operator" + spelled : method.fixity.dropLast() + "Operator" + spelled
    }

    private static func unique(_ preferred: String, fallback: String, used: inout Set<String>) -> String {
        var candidate = used.contains(preferred) ? fallback : preferred
        var counter = 2
        while used.contains(candidate) {
            candidate = fallback + String(counter)
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }

    private static func labels(_ parameters: [Parameter]) -> String {
        parameters.map { $0.label == "_" ? "" : capitalized($0.label) }.joined()
    }

    /// `(id: Int, _ name: String)` → `IntString`; overloads that differ only in their result get
    /// a counter.
    private static func types(_ parameters: [Parameter]) -> String {
        parameters.map(\.type).map { type in
            type.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { capitalized(String($0)) }.joined()
        }.joined()
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
