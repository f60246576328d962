import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who a run is, as its lock records it: host, boot and process, so that the next run can tell
/// a lock whose owner died on this machine (taken over at once) from one held on another
/// machine (judged by watching it, never by comparing that machine's clock with ours).
///
/// ```swift
/// let engine = SyncEngine(directories: DefaultDirectoryAccessor(), files: DefaultFileAccessor())  // .current
///
/// // A test: a lock written by a process that no longer exists.
/// let engine = SyncEngine(directories: fake, files: fake,
///                         process: SyncProcess(host: "h", bootID: "b", pid: 7, isRunning: { _ in false }))
/// ```
public struct SyncProcess: Sendable {
    /// The host name.
    public var host: String
    /// Changes at every boot of the host (Linux: `/proc/sys/kernel/random/boot_id`; Apple
    /// platforms: the boot time); empty when unknown.
    public var bootID: String
    /// The process id.
    public var pid: Int32
    /// Whether a process with this id exists on this host now.
    public var isRunning: @Sendable (Int32) -> Bool

    /// Creates an identity.
    public init(host: String, bootID: String, pid: Int32, isRunning: @escaping @Sendable (Int32) -> Bool) {
        self.host = host
        self.bootID = bootID
        self.pid = pid
        self.isRunning = isRunning
    }

    /// This process.
    public static var current: SyncProcess {
        SyncProcess(
            host: ProcessInfo.processInfo.hostName, bootID: currentBootID(),
            pid: ProcessInfo.processInfo.processIdentifier, isRunning: processExists)
    }

    /// `kill(pid, 0)`: it exists unless the system says ESRCH (EPERM means it exists, owned by another user).
    private static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    private static func currentBootID() -> String {
        #if canImport(Darwin)
            var boot = timeval()
            var size = MemoryLayout<timeval>.size
            guard sysctlbyname("kern.boottime", &boot, &size, nil, 0) == 0 else { return "" }
            return "\(boot.tv_sec).\(boot.tv_usec)"
        #else
            guard let data = FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id") else { return "" }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #endif
    }
}
