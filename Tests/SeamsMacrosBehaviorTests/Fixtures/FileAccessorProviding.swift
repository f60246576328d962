import Foundation
import Seams
import SeamsMacros

/// A copy of Seams' `FileAccessorProviding` (whose module must not depend on SeamsMacros), under
/// the same name: the macro writes `MockFileAccessorProviding`, and the SeamsMockNames plugin,
/// which this test target applies, adds the seed's name `MockFileAccessor`.
@Mockable
protocol FileAccessorProviding: Sendable {
    func read(from url: URL) throws -> Data
    func write(_ data: Data, to url: URL) throws
    func fileExists(at url: URL) -> Bool
}

/// The generated mock has exactly the requirements of Seams' protocol, so it conforms to it too.
extension MockFileAccessorProviding: Seams.FileAccessorProviding {}
