import Foundation
import Seams

/// The assertions conformance behaviours use; each throws ``ConformanceFailure``.
enum Check {
    static func that(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message()) }
    }

    static func equal<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws {
        if actual != expected { throw ConformanceFailure("\(what): expected \(expected), got \(actual)") }
    }

    /// Requires `body` to throw the `CocoaError` with `code` and the C error `errno` underneath.
    static func fails(
        _ code: CocoaError.Code, _ errno: Int32, _ what: String, _ body: () throws -> Void
    ) throws {
        do {
            try body()
        } catch let error as CocoaError {
            let expected = POSIXErrorCode(rawValue: errno)
            if error.code != code || error.posixCode != expected {
                throw ConformanceFailure(
                    "\(what): expected CocoaError \(code.rawValue) (\(expected.map { "\($0)" } ?? "-")), "
                        + "got \(error.code.rawValue) (\(error.posixCode.map { "\($0)" } ?? "no errno"))")
            }
            return
        } catch {
            throw ConformanceFailure("\(what): expected CocoaError \(code.rawValue), got \(error)")
        }
        throw ConformanceFailure("\(what): expected CocoaError \(code.rawValue), but it succeeded")
    }
}
