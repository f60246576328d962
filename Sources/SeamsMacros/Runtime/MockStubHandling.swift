/// A test's view of one requirement of a generated mock: configure its answer, read its calls.
/// ``MockStubHandle`` (for the usual `Sendable` mock) and ``MockNonSendableStubHandle`` (for
/// `@Mockable(sendable: false)`) share this API; they differ only in how they reach the stub.
///
/// ```swift
/// let mock = MockFileAccessor()
/// mock.stubs.readFrom.returns(Data("{}".utf8))
/// mock.stubs.writeTo.throwing(CocoaError(.fileWriteOutOfSpace))
/// _ = try mock.read(from: url)
/// #expect(mock.stubs.readFrom.calls == [url])
/// ```
public protocol MockStubHandling {
    /// What one call records: the argument, a labelled tuple of them, or `Void`.
    associatedtype Arguments
    /// What the requirement returns.
    associatedtype Output
    /// What the requirement throws (`Never` when it does not).
    associatedtype Failure: Error
    /// The closure type that `handle(_:)` takes.
    associatedtype Handler

    /// Runs `body` on the stub, under the mock's lock where it has one.
    ///
    /// - Parameter body: Reads or changes the stub.
    func withStub(_ body: (inout MockStub<Arguments, Output, Failure, Handler>) -> Void)
}

extension MockStubHandling {
    /// Answers every call with `value`.
    ///
    /// - Parameter value: The value to return.
    public func returns(_ value: Output) {
        withStub { $0.configure(.value(value)) }
    }

    /// Answers calls whose arguments equal `arguments` with `value`, without a closure; calls with
    /// other arguments get what the rest of the configuration says (`returns(_:)`, `handle(_:)`…)
    /// and, when there is none, are unconfigured calls. Give one answer per argument value; a
    /// later one for the same value replaces the earlier one.
    ///
    /// ```swift
    /// mock.stubs.temperatureIn.returns(21.5, when: "Oslo")
    /// mock.stubs.distanceFromTo.returns(1_750, when: (from: "Oslo", to: "Tromsø"))   // several arguments
    /// ```
    ///
    /// The argument must be `Equatable`, or each of several arguments must be; otherwise the
    /// answer is refused with an issue at the caller's line.
    ///
    /// - Parameters:
    ///   - value: The value to return.
    ///   - arguments: The argument the value is for, or the labelled tuple of several.
    ///   - fileID: Where a refusal is reported; by default the caller's file.
    ///   - filePath: That file's full path.
    ///   - line: That line.
    ///   - column: That column.
    public func returns(
        _ value: Output, when arguments: Arguments,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        answer(
            .value(value), when: arguments,
            at: MockSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Makes calls whose arguments equal `arguments` throw `error`; other calls are answered as
    /// for ``returns(_:when:fileID:filePath:line:column:)``.
    ///
    /// - Parameters:
    ///   - error: The error to throw.
    ///   - arguments: The argument the error is for, or the labelled tuple of several.
    ///   - fileID: Where a refusal is reported; by default the caller's file.
    ///   - filePath: That file's full path.
    ///   - line: That line.
    ///   - column: That column.
    public func throwing(
        _ error: Failure, when arguments: Arguments,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        answer(
            .error(error), when: arguments,
            at: MockSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func answer(
        _ behavior: MockStub<Arguments, Output, Failure, Handler>.Behavior, when arguments: Arguments,
        at location: MockSourceLocation
    ) {
        guard MockStub<Arguments, Output, Failure, Handler>.canCompare(arguments) else {
            MockIssue.report(
                "returns(_:when:) and throwing(_:when:) need Equatable arguments; \(type(of: arguments)) is not, so use handle(_:)",
                at: location
            )
            return
        }
        withStub { $0.answer(behavior, when: arguments) }
    }

    /// Answers the next calls with `values`, one per call, in order; after the last one a call
    /// is unconfigured.
    ///
    /// - Parameter values: The values to return.
    public func returnsInOrder(_ values: [Output]) {
        withStub { $0.configure(.sequence(values)) }
    }

    /// Makes every call throw `error`.
    ///
    /// - Parameter error: The error to throw.
    public func throwing(_ error: Failure) {
        withStub { $0.configure(.error(error)) }
    }

    /// Answers every call by calling `handler` with the call's arguments.
    ///
    /// - Parameter handler: Computes the answer; may throw where the requirement throws.
    public func handle(_ handler: Handler) {
        withStub { $0.configure(.handler(handler)) }
    }

    /// Every call's arguments, in order. Closure arguments are not recorded; several arguments
    /// come as a tuple labelled with the parameter names.
    public var calls: [Arguments] {
        var result: [Arguments] = []
        withStub { result = $0.calls }
        return result
    }

    /// How many calls the requirement received.
    public var callCount: Int {
        var result = 0
        withStub { result = $0.calls.count }
        return result
    }

    /// Forgets the calls and the configuration.
    public func reset() {
        withStub { $0.reset() }
    }
}
