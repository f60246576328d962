public import Foundation

/// A boundary's error, kept whole inside one of this package's error values, and compared by
/// what a test can see: its domain, its code and (for file-system errors) the C error number.
///
/// ```swift
/// #expect(throws: SyncError.readFailed(url, UnderlyingError(CocoaError(.fileReadCorruptFile)))) {
///     try await manager.sync()
/// }
/// ```
public struct UnderlyingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error the boundary threw.
    public let error: any Error

    /// Wraps an error; an ``UnderlyingError`` is not wrapped twice.
    ///
    /// - Parameter error: The error the boundary threw.
    public init(_ error: any Error) {
        self.error = (error as? UnderlyingError)?.error ?? error
    }

    /// The error's domain (`NSCocoaErrorDomain` for `CocoaError`, the type's name for Swift errors).
    public var domain: String { (error as NSError).domain }

    /// The error's code within its domain.
    public var code: Int { (error as NSError).code }

    /// The C error number behind a Foundation file-system error, when there is one.
    public var posixCode: POSIXErrorCode? {
        if let cocoa = error as? CocoaError { return cocoa.posixCode }
        if let posix = error as? POSIXError { return posix.code }
        return nil
    }

    /// Equal when domain, code and C error number agree.
    public static func == (lhs: UnderlyingError, rhs: UnderlyingError) -> Bool {
        lhs.domain == rhs.domain && lhs.code == rhs.code && lhs.posixCode == rhs.posixCode
    }

    /// Hashes domain, code and C error number.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(domain)
        hasher.combine(code)
        hasher.combine(posixCode?.rawValue)
    }

    /// The wrapped error's description.
    public var description: String { String(describing: error) }
}
