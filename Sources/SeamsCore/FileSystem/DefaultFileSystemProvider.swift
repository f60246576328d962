public import Foundation

/// The live ``FileSystemProviding``.
///
/// On Apple platforms the container is the app's iCloud ubiquity container. On Linux there is no
/// iCloud: the container is a directory, given at init or by default
/// `$XDG_DATA_HOME/seams/container` (`~/.local/share/seams/container` when `XDG_DATA_HOME` is unset
/// or not absolute).
///
/// The container is reported only while that directory exists, and it is never created here:
/// an unmounted network folder must read as "container not available", never as an empty folder
/// whose files were all deleted.
///
/// ```swift
/// let provider = DefaultFileSystemProvider()                       // the default location
/// let pinned = DefaultFileSystemProvider(containerDirectory: URL(filePath: "/srv/sync"))
/// ```
public struct DefaultFileSystemProvider: FileSystemProviding {
    private let containerDirectory: URL?
    private let environment: [String: String]

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - containerDirectory: The container directory to use for every purpose. `nil` picks the
    ///     platform default (iCloud on Apple platforms, the XDG data directory on Linux).
    ///   - environment: The environment the Linux default is read from; tests pass their own.
    public init(
        containerDirectory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.containerDirectory = containerDirectory
        self.environment = environment
    }

    /// The container directory when it exists and is a directory, otherwise `nil`.
    ///
    /// - Parameter purpose: What the container is for. Every purpose shares one container.
    /// - Returns: The container's URL, or `nil` when it is not available.
    public func containerURL(for purpose: Purpose) -> URL? {
        guard let candidate = containerDirectory ?? platformDefault() else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { return nil }
        return candidate
    }

    private func platformDefault() -> URL? {
        #if canImport(Darwin)
            return FileManager.default.url(forUbiquityContainerIdentifier: nil)
        #else
            return Self.linuxDefaultContainer(environment: environment)
        #endif
    }

    /// `$XDG_DATA_HOME/seams/container`, or `$HOME/.local/share/seams/container`.
    ///
    /// - Parameter environment: The environment to read `XDG_DATA_HOME` and `HOME` from.
    /// - Returns: The default container location, whether or not it exists; `nil` when neither
    ///   variable gives an absolute path.
    public static func linuxDefaultContainer(environment: [String: String]) -> URL? {
        XDGDirectory.data.url(environment: environment)?
            .appending(path: "seams", directoryHint: .isDirectory)
            .appending(path: "container", directoryHint: .isDirectory)
    }
}
