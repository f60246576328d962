/// Writes the pieces of one requirement: its stub's type, the test's handle to it, and the
/// implementation that records the call and answers as configured.
struct RequirementEmitter {
    /// `public ` or empty.
    let access: String
    /// `nonisolated ` for actor and main-actor mocks, else empty.
    let isolation: String
    /// `nonisolated ` for main-actor mocks (an actor's initializers are nonisolated already).
    let initializerIsolation: String
    /// Where instance state lives (static state is always locked).
    let instanceStorage: StateStorage
    /// Inherited `@Mockable` protocols, whose mocks an initializer creates too.
    var inherited: [String] = []

    func storage(isStatic: Bool) -> StateStorage {
        isStatic ? .locked : instanceStorage
    }

    // MARK: Types

    static func stubType(
        arguments: String, output: String, effects: Effects, handlerParameters: [String], storage: StateStorage
    ) -> String {
        "MockStub<\(arguments), "
            + typeArguments(output: output, effects: effects, handlerParameters: handlerParameters, storage: storage)
            + ">"
    }

    /// The `MockAction` a stub of these types answers with.
    static func actionType(output: String, effects: Effects, handlerParameters: [String], storage: StateStorage)
        -> String
    {
        "MockAction<"
            + typeArguments(output: output, effects: effects, handlerParameters: handlerParameters, storage: storage)
            + ">"
    }

    /// `Output, Failure, Handler`.
    private static func typeArguments(
        output: String, effects: Effects, handlerParameters: [String], storage: StateStorage
    ) -> String {
        let handler = handlerType(
            output: output, effects: effects, handlerParameters: handlerParameters, storage: storage)
        return "\(output), \(effects.throwsKind.failureType), \(handler)"
    }

    /// The handler's closure type.
    private static func handlerType(
        output: String, effects: Effects, handlerParameters: [String], storage: StateStorage
    ) -> String {
        "\(storage.handlerAttribute)(\(handlerParameters.joined(separator: ", ")))\(effects.handlerClause) -> \(output)"
    }

    static func recordedType(_ parameters: [Parameter]) -> String {
        let recorded = parameters.filter { $0.recordedType != nil }
        switch recorded.count {
        case 0: return "Void"
        case 1: return recorded[0].recordedType!
        default: return "(" + recorded.map { "\($0.name): \($0.recordedType!)" }.joined(separator: ", ") + ")"
        }
    }

    static func recordedValue(_ parameters: [Parameter]) -> String {
        let recorded = parameters.filter { $0.recordedType != nil }
        switch recorded.count {
        case 0: return "()"
        case 1: return recorded[0].name
        default: return "(" + recorded.map { "\($0.name): \($0.name)" }.joined(separator: ", ") + ")"
        }
    }

    static func methodStubType(_ method: MethodRequirement, storage: StateStorage) -> String {
        stubType(
            arguments: recordedType(method.parameters), output: method.returnType ?? "Void",
            effects: method.effects, handlerParameters: method.parameters.map(\.type), storage: storage
        )
    }

    static func handleType(_ stubType: String, storage: StateStorage) -> String {
        storage.handle + stubType.dropFirst("MockStub".count)
    }

    /// The parameters as a signature writes them; `arrays` writes a variadic `T...` as `[T]`;
    /// `bothNames` writes the label even when it is the name (a subscript's `key key: String`,
    /// whose one name alone would mean no label).
    static func signature(_ parameters: [Parameter], arrays: Bool = false, bothNames: Bool = false) -> String {
        parameters.map {
            let type = arrays ? $0.type : $0.declaredType
            return $0.label == $0.name && !bothNames ? "\($0.name): \(type)" : "\($0.label) \($0.name): \(type)"
        }
        .joined(separator: ", ")
    }

    /// The arguments of a call that passes each parameter on (`&` for `inout`); `packsAsArrays`
    /// passes a pack as the array the entry point taking arrays expects.
    static func arguments(_ parameters: [Parameter], labelled: Bool, packsAsArrays: Bool = false) -> String {
        parameters.map { parameter in
            let value =
                if packsAsArrays, let pack = parameter.pack {
                    "\(pack.elements)(repeat each \(parameter.name))"
                } else {
                    (parameter.isInout ? "&" : "") + parameter.name
                }
            return (labelled && parameter.label != "_" ? "\(parameter.label): " : "") + value
        }
        .joined(separator: ", ")
    }

    // MARK: Handles

    func handle(
        id: String, stubType: String, genericClause: String, genericNames: [String], whereClause: String,
        storage: StateStorage
    ) -> String {
        let handle = Self.handleType(stubType, storage: storage)
        guard !genericNames.isEmpty else {
            return """
                \(access)var \(id): \(handle) {
                    let state = self.state
                    return \(storage.handle) { body in state.\(storage.accessor) { body(&$0.\(id)) } }
                }
                """
        }
        let parameters = genericNames.enumerated().map { "_ type\($0.offset): \($0.element).Type" }
        return """
            \(access)func \(id)\(genericClause)(\(parameters.joined(separator: ", "))) -> \(handle)\(whereClause) {
                let state = self.state
                return \(storage.handle) { body in state.\(storage.accessor) { $0.\(id).access(ObjectIdentifier(\(Self.key(genericNames)).self), body) } }
            }
            """
    }

    static func key(_ genericNames: [String]) -> String {
        genericNames.count == 1 ? genericNames[0] : "(" + genericNames.joined(separator: ", ") + ")"
    }

    // MARK: Bodies

    /// The body shared by methods and getters: record under the lock, then answer outside it.
    ///
    /// With `erasedAction`, the type of the action, the record expression returns it erased
    /// (`MockGenericStubs.record(_:_:)`), and the body casts it back.
    static func body(
        display: String, recordExpression: String, state: String, report: String,
        handlerCall: String, effects: Effects, returnType: String?, erasedAction: String? = nil
    ) -> String {
        let returnsVoid = returnType == nil || returnType == "Void" || returnType == "()"
        let tryAwait = effects.callPrefix
        let valueCase = returnsVoid ? "case .value: return" : "case .value(let _mockValue): return _mockValue"
        let errorCase =
            effects.throwsKind == .none || effects.throwsKind == .rethrowing
            ? "case .error(let _mockError): switch _mockError {}" : "case .error(let _mockError): throw _mockError"
        let handlerCase =
            returnsVoid
            ? "case .handler(let _mockHandler): \(tryAwait)\(handlerCall)"
            : "case .handler(let _mockHandler): return \(tryAwait)\(handlerCall)"
        let fallback: String
        let always: Bool
        if returnsVoid {
            (fallback, always) = ("return", false)
        } else if let type = returnType, type.hasSuffix("?") || type.hasPrefix("Optional<") {
            (fallback, always) = ("return nil", false)
        } else if effects.throwsKind == .untyped {
            (fallback, always) = ("throw UnconfiguredMockCall(requirement: \"\(display)\")", false)
        } else {
            (fallback, always) = (
                "fatalError(\"Unconfigured mock call: \(display) has no return value, sequence, handler or error\")",
                true
            )
        }
        let action =
            erasedAction.map {
                "let _mockErased = \(state) { \(recordExpression) }\nlet _mockAction = (_mockErased as? \($0)) ?? .unconfigured"
            } ?? "let _mockAction = \(state) { \(recordExpression) }"
        return """
            \(action)
            switch _mockAction {
            \(valueCase)
            \(errorCase)
            \(handlerCase)
            case .unconfigured:
                \(report)("\(display)", always: \(always))
                \(fallback)
            }
            """
    }

    func method(_ method: MethodRequirement) -> String {
        let storage = storage(isStatic: method.isStatic)
        let lock = (method.isStatic ? "Self._mockStaticState." : "_mockState.") + storage.accessor
        let report = method.isStatic ? "Self._mockStaticReport" : "_mockReport"
        let record = Self.recordedValue(method.parameters)
        let stubType = Self.methodStubType(method, storage: storage)
        let key = "ObjectIdentifier(\(Self.key(method.genericNames)).self)"
        let recordExpression: String
        var erasedAction: String?
        if method.genericNames.isEmpty {
            recordExpression = "$0.\(method.stubID).record(\(record))"
        } else if method.uncheckedGenerics.isEmpty || !storage.isSendable {
            recordExpression =
                "$0.\(method.stubID).access(\(key)) { (stub: inout \(stubType)) in stub.record(\(record)) }"
        } else {
            // Generic types the mock cannot prove `Sendable`: the stub a test configured (with
            // `Sendable` ones) answers through its erased form.
            recordExpression = "$0.\(method.stubID).record(\(key), \(record))"
            erasedAction = Self.actionType(
                output: method.returnType ?? "Void", effects: method.effects,
                handlerParameters: method.parameters.map(\.type), storage: storage)
        }
        let arguments = Self.arguments(method.parameters, labelled: false)
        let returnClause = method.returnType.map { " -> \($0)" } ?? ""
        var body = Self.body(
            display: method.displayName, recordExpression: recordExpression, state: lock, report: report,
            handlerCall: method.effects.throwsKind == .rethrowing
                ? "_mockRethrow(_mockHandler, \(arguments))" : "_mockHandler(\(arguments))",
            effects: method.effects, returnType: method.returnType, erasedAction: erasedAction
        )
        if method.effects.throwsKind == .rethrowing {
            body = Self.rethrowHelper(method, storage: storage) + "\n" + body
        }
        let head = "\(access)\(method.isolation)\(method.isStatic ? "static " : "")\(method.fixity)func "
        let tail = "\(method.effects.clause)\(returnClause)\(method.whereClause)"
        let signature = Self.signature(method.parameters)
        guard method.takesArrays else {
            return """
                \(head)\(method.name)\(method.genericClause)(\(signature))\(tail) {
                \(body)
                }
                """
        }
        // Inside the requirement a variadic parameter is already an array, and a pack becomes one:
        // the body lives in an entry point taking arrays, which a child protocol's mock forwards
        // to as well. A pack is the method's only generic parameter, so that entry is not generic.
        let tryAwait = method.effects.callPrefix
        let target = method.isStatic ? "Self" : "self"
        return """
            \(head)\(method.name)\(method.genericClause)(\(signature))\(tail) {
                return \(tryAwait)\(target).\(method.arraysName)(\(Self.arguments(method.parameters, labelled: true, packsAsArrays: true)))
            }

            \(head)\(method.arraysName)\(method.hasPack ? "" : method.genericClause)(\(Self.signature(method.parameters, arrays: true)))\(tail) {
            \(body)
            }
            """
    }

    /// A `rethrows` requirement's handler, run by a function generic over the closure's error
    /// `E` (a typed-throws function may be called from a `rethrows` one): the closure is handed to
    /// the handler wrapped, so the error it throws is the one the call throws; an error the
    /// handler throws by itself stops the test, since a `rethrows` function cannot throw it.
    static func rethrowHelper(_ method: MethodRequirement, storage: StateStorage) -> String {
        let handlerType = handlerType(
            output: method.returnType ?? "Void", effects: method.effects,
            handlerParameters: method.parameters.map(\.type), storage: storage)
        var parameters: [String] = ["_ _mockHandler: @escaping \(handlerType)"]
        var passed: [String] = []
        var closureName = ""
        var wrapper = ""
        for parameter in method.parameters {
            if let rethrowing = parameter.rethrowing {
                closureName = parameter.name
                parameters.append("_ \(parameter.name): \(rethrowing.typedType)")
                let names = (0..<rethrowing.arity).map { "_mockArgument\($0)" }
                let input = names.isEmpty ? "" : names.joined(separator: ", ") + " in "
                let call =
                    "try \(rethrowing.isAsync ? "await " : "")\(parameter.name)(\(names.joined(separator: ", ")))"
                wrapper =
                    "{ \(input)do throws(_MockFailure) { return \(call) } catch { _mockThrown.withLock { $0 = error }; throw error } }"
                passed.append(wrapper)
            } else {
                parameters.append("_ \(parameter.name): \(parameter.type)")
                passed.append((parameter.isInout ? "&" : "") + parameter.name)
            }
        }
        let returnType = method.returnType ?? "Void"
        let asyncText = method.effects.isAsync ? " async" : ""
        let awaitText = method.effects.isAsync ? "await " : ""
        return """
            func _mockRethrow<_MockFailure: Error>(\(parameters.joined(separator: ", ")))\(asyncText) throws(_MockFailure) -> \(returnType) {
                let _mockThrown = MockLock<_MockFailure?>(nil)
                do {
                    return try \(awaitText)_mockHandler(\(passed.joined(separator: ", ")))
                } catch {
                    if let thrown = _mockThrown.withLock({ $0 }) { throw thrown }
                    fatalError("@Mockable: the handler of \(method.displayName) threw \\(error), which '\(closureName)' did not throw; a rethrows requirement throws only what its closure throws")
                }
            }
            """
    }

    func property(_ property: PropertyRequirement) -> String {
        let storage = storage(isStatic: property.isStatic)
        let lock = (property.isStatic ? "Self._mockStaticState." : "_mockState.") + storage.accessor
        let report = property.isStatic ? "Self._mockStaticReport" : "_mockReport"
        let body = Self.body(
            display: property.name, recordExpression: "$0.\(property.stubID).record(())", state: lock,
            report: report, handlerCall: "_mockHandler()", effects: property.getterEffects, returnType: property.type
        )
        let setter =
            property.hasSetter
            ? "set { \(lock) { _ = $0.\(property.setterStubID).record(newValue); $0.\(property.stubID).configure(.value(newValue)) } }"
            : ""
        return """
            \(access)\(property.isolation)\(property.isStatic ? "static " : "")var \(property.name): \(property.type) {
                get\(property.getterEffects.clause) {
            \(body)
                }
                \(setter)
            }
            """
    }

    func subscriptRequirement(_ requirement: SubscriptRequirement) -> String {
        let getter = requirement.getter
        let storage = storage(isStatic: getter.isStatic)
        let lock = (getter.isStatic ? "Self._mockStaticState." : "_mockState.") + storage.accessor
        let report = getter.isStatic ? "Self._mockStaticReport" : "_mockReport"
        let record = Self.recordedValue(getter.parameters)
        let body = Self.body(
            display: getter.displayName, recordExpression: "$0.\(getter.stubID).record(\(record))", state: lock,
            report: report, handlerCall: "_mockHandler(\(Self.arguments(getter.parameters, labelled: false)))",
            effects: getter.effects, returnType: getter.returnType
        )
        // A set value is what the getter answers for the same arguments from then on.
        let setter =
            requirement.hasSetter
            ? """
            set {
                \(lock) {
                    _ = $0.\(requirement.setterStubID).record(\(Self.recordedValue(requirement.setterParameters)))
                    if type(of: $0.\(getter.stubID)).canCompare(\(record)) {
                        $0.\(getter.stubID).answer(.value(newValue), when: \(record))
                    }
                }
            }
            """ : ""
        return """
            \(access)\(getter.isolation)\(getter.isStatic ? "static " : "")subscript(\(Self.signature(getter.parameters, bothNames: true))) -> \(getter.returnType ?? "Void") {
                get\(getter.effects.clause) {
            \(body)
                }
                \(setter)
            }
            """
    }

    static func subscriptSetterStubType(_ requirement: SubscriptRequirement, storage: StateStorage) -> String {
        stubType(
            arguments: recordedType(requirement.setterParameters), output: "Void", effects: Effects(),
            handlerParameters: requirement.setterParameters.map(\.type), storage: storage
        )
    }

    func initializer(_ initializer: InitializerRequirement) -> String {
        let signature = Self.signature(initializer.parameters)
        return """
            \(access)\(initializerIsolation)init\(initializer.optionalMark)(\(signature))\(initializer.effects.clause) {
                self._mockState = \(instanceStorage.container)(State())
                self._mockStrict = false
                self._mockSourceLocation = MockSourceLocation()\(inherited.map { "\nself._mockInherited\($0) = Mock\($0)()" }.joined())
                _ = _mockState.\(instanceStorage.accessor) { $0.\(initializer.stubID).record(\(Self.recordedValue(initializer.parameters))) }
            }
            """
    }
}
