import Foundation
import Seams
import SeamsMacros
import Testing

/// A copy of Seams' `FileAccessorProviding` (whose module must not depend on SeamsMacros), so the
/// macro writes a mock of our own boundary.
@Mockable
protocol FileAccessing: Sendable {
    func read(from url: URL) throws -> Data
    func write(_ data: Data, to url: URL) throws
    func fileExists(at url: URL) -> Bool
}

/// The generated mock has exactly the requirements of the real protocol, so it conforms to it.
extension MockFileAccessing: FileAccessorProviding {}

/// The seed's spelling of the name, one line beside the protocol (see `Mockable`'s docs for why
/// the macro cannot drop `Providing` itself).
typealias MockFileAccessor = MockFileAccessing
