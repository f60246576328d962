#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP on 127.0.0.1, for the parts of this package that start a local server and wait until it
/// answers: `seams-sync demo --webdav` and `SeamsTesting`'s `LocalWebDAVServer`.
package enum Loopback {
    /// Why a free port could not be found: the call that failed and its `errno`.
    package struct Failure: Error, CustomStringConvertible {
        package let call: String
        package let errno: Int32

        package var description: String { "\(call) on 127.0.0.1: errno \(errno)" }
    }

    /// The ports ``freePort()`` has given out in this process.
    private static let givenOut = LockedValue<Set<Int>>([])

    /// A TCP port of 127.0.0.1 free right now (bound with port 0, read back, released) that this
    /// process was never given before.
    ///
    /// The kernel may hand a released port out again at once. Two servers started at once on the
    /// same port (tests run in parallel) would both seem to answer: the one that lost the bind
    /// still runs while the other answers on its port, and its caller then talks to the other.
    ///
    /// - Throws: ``Failure`` naming the call that failed.
    package static func freePort() throws(Failure) -> Int {
        while true {
            let port = try unusedPort()
            if givenOut.withLock({ $0.insert(port).inserted }) { return port }
        }
    }

    private static func unusedPort() throws(Failure) -> Int {
        let fd = socket(AF_INET, streamSocket | closeOnExec, 0)
        guard fd >= 0 else { throw Failure(call: "socket", errno: errno) }
        defer { close(fd) }
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(call: "bind", errno: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure(call: "getsockname", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    package static func acceptsConnections(port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocket | closeOnExec, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// `SOCK_CLOEXEC` where sockets take it at creation (not on Apple platforms).
    private static var closeOnExec: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_CLOEXEC.rawValue)
        #elseif canImport(Musl)
            SOCK_CLOEXEC
        #else
            0
        #endif
    }

    private static var streamSocket: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }
}
