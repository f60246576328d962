/// What a generated mock does for one call, decided under its lock and carried out after it.
///
/// Generated code switches over it; tests configure it through ``MockStubHandle``:
///
/// ```swift
/// switch action {
/// case .value(let value): return value
/// case .error(let error): throw error
/// case .handler(let handler): return try handler(url)
/// case .unconfigured: // report, then fall back
/// }
/// ```
public enum MockAction<Output, Failure: Error, Handler> {
    /// Return this value.
    case value(Output)
    /// Throw this error.
    case error(Failure)
    /// Call this closure with the call's arguments and return what it returns.
    case handler(Handler)
    /// Nothing was configured for this call (or a sequence ran out).
    case unconfigured
}

extension MockAction: Sendable where Output: Sendable, Handler: Sendable {}
