/// Writes `Self` in a requirement's types as the mock's own name.
///
/// The mock is a `final class` or an actor, so its own type satisfies `Self` in any position
/// (results, parameters, closures, static factories, initializers), and spelling it out keeps
/// `Self` from meaning something else inside the mock: in its nested `State` and `Stubs` types
/// `Self` would name those structs.
enum SelfSubstitution {
    /// `text` with every `Self` identifier (not `self`, not part of a longer name, not after a
    /// dot) replaced by `mockName`.
    static func replacingSelf(in text: String, with mockName: String) -> String {
        guard text.contains("Self") else { return text }
        var result = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let isCandidate = index + 4 <= characters.count && String(characters[index..<index + 4]) == "Self"
            let before = index > 0 ? characters[index - 1] : " "
            let after = index + 4 < characters.count ? characters[index + 4] : " "
            if isCandidate, !isIdentifier(before), before != ".", !isIdentifier(after) {
                result += mockName
                index += 4
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
    }

    private static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The model with `Self` written as the mock's name in every type it uses.
    static func apply(to model: inout ProtocolModel) {
        let name = model.mockName
        var mentionsSelf = false
        let replace = { (text: String) -> String in
            let replaced = replacingSelf(in: text, with: name)
            if replaced != text { mentionsSelf = true }
            return replaced
        }
        defer { model.mentionsSelf = mentionsSelf }
        func replaceParameters(_ parameters: inout [Parameter]) {
            for index in parameters.indices {
                parameters[index].type = replace(parameters[index].type)
                parameters[index].recordedType = parameters[index].recordedType.map(replace)
                if let rethrowing = parameters[index].rethrowing {
                    parameters[index].rethrowing = (replace(rethrowing.typedType), rethrowing.arity, rethrowing.isAsync)
                }
            }
        }
        func replaceEffects(_ effects: inout Effects) {
            if case .typed(let type) = effects.throwsKind { effects.throwsKind = .typed(replace(type)) }
        }
        for index in model.methods.indices {
            replaceParameters(&model.methods[index].parameters)
            model.methods[index].returnType = model.methods[index].returnType.map(replace)
            model.methods[index].whereClause = replace(model.methods[index].whereClause)
            model.methods[index].genericClause = replace(model.methods[index].genericClause)
            model.methods[index].handleGenericClause = replace(model.methods[index].handleGenericClause)
            replaceEffects(&model.methods[index].effects)
        }
        for index in model.subscripts.indices {
            replaceParameters(&model.subscripts[index].getter.parameters)
            model.subscripts[index].getter.returnType = model.subscripts[index].getter.returnType.map(replace)
            replaceEffects(&model.subscripts[index].getter.effects)
        }
        for index in model.properties.indices {
            model.properties[index].type = replace(model.properties[index].type)
            replaceEffects(&model.properties[index].getterEffects)
        }
        for index in model.initializers.indices {
            replaceParameters(&model.initializers[index].parameters)
            replaceEffects(&model.initializers[index].effects)
        }
        model.genericRequirements = model.genericRequirements.map(replace)
    }
}
