public import Foundation
import Seams

/// A realistic failure a ``FaultInjectingFileSystem`` throws in place of a call, built as
/// Foundation builds it: the `CocoaError` code `FileManager` and `Data` use, with the C error
/// number in `NSUnderlyingErrorKey`.
///
/// | fault | reading call | writing call | errno |
/// |---|---|---|---|
/// | ``diskFull`` | 256 | 640 `.fileWriteOutOfSpace` | ENOSPC |
/// | ``permissionDenied`` | 257 `.fileReadNoPermission` | 513 `.fileWriteNoPermission` | EACCES |
/// | ``ioError`` | 256 `.fileReadUnknown` | 512 `.fileWriteUnknown` | EIO |
/// | ``missingFile`` | 260 `.fileReadNoSuchFile` | 4 `.fileNoSuchFile` | ENOENT |
/// | ``readOnlyVolume`` | 256 | 642 `.fileWriteVolumeReadOnly` | EROFS |
/// | ``hardLinksUnsupported`` | 257 `.fileReadNoPermission` | 513 `.fileWriteNoPermission` | EPERM |
public enum InjectedFault: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No space left on the device (ENOSPC).
    case diskFull
    /// Permission denied (EACCES).
    case permissionDenied
    /// The device failed (EIO).
    case ioError
    /// The file is not there (ENOENT).
    case missingFile
    /// The volume is mounted read-only (EROFS).
    case readOnlyVolume
    /// What `link` says on a file system without hard links: FAT, exFAT, some network shares (EPERM).
    /// Inject it on ``FileSystemOperation/linkItem`` to run code as on a USB stick.
    case hardLinksUnsupported

    /// The C error number.
    public var errno: Int32 {
        switch self {
        case .diskFull: ENOSPC
        case .permissionDenied: EACCES
        case .ioError: EIO
        case .missingFile: ENOENT
        case .readOnlyVolume: EROFS
        case .hardLinksUnsupported: EPERM
        }
    }

    /// The error Foundation throws for this failure in `operation` on `url`.
    ///
    /// - Parameters:
    ///   - operation: The failing call; it picks the read or write codes.
    ///   - url: The path the call was about.
    /// - Returns: A `CocoaError` with the `POSIXError` underneath.
    public func error(for operation: FileSystemOperation, at url: URL?) -> CocoaError {
        CocoaError.fileSystemError(errno: errno, path: url?.path ?? "", writing: operation.isWriting)
    }

    /// The fault's name.
    public var description: String {
        switch self {
        case .diskFull: "disk full"
        case .permissionDenied: "permission denied"
        case .ioError: "I/O error"
        case .missingFile: "missing file"
        case .readOnlyVolume: "read-only volume"
        case .hardLinksUnsupported: "hard links not supported"
        }
    }
}
