import Testing

/// Records the Swift Testing issue of an unimplemented double at the place the double was made.
struct UnimplementedReporter: Sendable {
    let sourceLocation: SourceLocation

    /// Records "Unimplemented: …" and returns the error to throw.
    @discardableResult
    func report(_ requirement: String, _ detail: String) -> UnimplementedError {
        Issue.record(
            "Unimplemented: \(requirement) was called (\(detail)). Inject a double that handles it.",
            sourceLocation: sourceLocation
        )
        return UnimplementedError(requirement: requirement)
    }
}
