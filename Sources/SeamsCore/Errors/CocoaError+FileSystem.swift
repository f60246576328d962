public import Foundation

extension CocoaError {
    /// Makes the error Foundation throws for a failed file-system call, so that fakes and live
    /// implementations built on system calls throw exactly what `FileManager` and `Data` throw.
    ///
    /// The code follows Foundation's own mapping (ENOENT reads as `.fileReadNoSuchFile`, writes as
    /// `.fileNoSuchFile`; EACCES and EPERM as `...NoPermission`; ENOSPC as `.fileWriteOutOfSpace`;
    /// EROFS as `.fileWriteVolumeReadOnly`; EEXIST as `.fileWriteFileExists`; anything else as
    /// `.fileReadUnknown` or `.fileWriteUnknown`), the `POSIXError` sits in
    /// `NSUnderlyingErrorKey` and the path in `NSFilePathErrorKey`.
    ///
    /// ```swift
    /// throw CocoaError.fileSystemError(errno: ENOENT, path: url.path, writing: false)
    /// ```
    ///
    /// - Parameters:
    ///   - errno: The C error number.
    ///   - path: The path the call was about.
    ///   - writing: Whether the call changes the file system (it picks the write codes).
    /// - Returns: The error Foundation would throw.
    public static func fileSystemError(errno: Int32, path: String, writing: Bool) -> CocoaError {
        let posix = POSIXErrorCode(rawValue: errno) ?? .EIO
        let code: CocoaError.Code
        if writing {
            switch posix {
            case .ENOENT: code = .fileNoSuchFile
            case .EPERM, .EACCES: code = .fileWriteNoPermission
            case .ENAMETOOLONG: code = .fileWriteInvalidFileName
            case .ENOSPC, .EDQUOT: code = .fileWriteOutOfSpace
            case .EROFS: code = .fileWriteVolumeReadOnly
            case .EEXIST: code = .fileWriteFileExists
            default: code = .fileWriteUnknown
            }
        } else {
            switch posix {
            case .ENOENT: code = .fileReadNoSuchFile
            case .EPERM, .EACCES: code = .fileReadNoPermission
            case .ENAMETOOLONG: code = .fileReadInvalidFileName
            default: code = .fileReadUnknown
            }
        }
        return CocoaError(
            code,
            userInfo: [
                NSFilePathErrorKey: path,
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(posix.rawValue)),
            ]
        )
    }

    /// The error a server's folder (WebDAV, S3) throws for `url`: Foundation's error for `errno`,
    /// with the URL whole as its path and, when given, why in words (`NSLocalizedFailureReasonErrorKey`).
    ///
    /// - Parameters:
    ///   - errno: The C error number the failure stands for.
    ///   - url: The item the call was about.
    ///   - writing: Whether the call changes the server's folder.
    ///   - reason: What the server said or did, for a person.
    /// - Returns: The error.
    package static func remoteError(errno: Int32, url: URL, writing: Bool, reason: String?) -> CocoaError {
        let base = fileSystemError(errno: errno, path: url.absoluteString, writing: writing)
        guard let reason else { return base }
        var info = base.userInfo
        info[NSLocalizedFailureReasonErrorKey] = reason
        return CocoaError(base.code, userInfo: info)
    }

    /// The C error number behind this error, read from `NSUnderlyingErrorKey`, or `nil` when
    /// Foundation recorded none.
    ///
    /// ```swift
    /// #expect((error as? CocoaError)?.posixCode == .ENOENT)
    /// ```
    public var posixCode: POSIXErrorCode? {
        switch userInfo[NSUnderlyingErrorKey] {
        case let posix as POSIXError:
            return posix.code
        case let nsError as NSError where nsError.domain == NSPOSIXErrorDomain:
            return POSIXErrorCode(rawValue: Int32(nsError.code))
        default:
            return nil
        }
    }
}
