import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal for running the tool as if in a terminal window: a standard stream given
/// ``follower`` answers `isatty` with 1, and everything written there is collected from the
/// other side by a reader thread, so the tool never blocks on a full terminal buffer.
///
/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r` are looked up with `dlsym`: Swift's
/// `Glibc` module does not declare them (they need `_XOPEN_SOURCE`).
final class PseudoTerminal: Sendable {
    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The terminal's side: give it to the child process as stdout and/or stderr.
    let follower: FileHandle
    private let controller: Int32
    private let collected = Collected()
    private let readerDone = DispatchSemaphore(value: 0)

    /// The bytes read so far, behind a lock (an `NSLock`, which the thread sanitizer sees).
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [UInt8] = []

        func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { storage += bytes } }
        var bytes: [UInt8] { lock.withLock { storage } }
    }

    init() throws {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw Failure(description: "\(name) not found in the C library")
            }
            return unsafeBitCast(pointer, to: type)
        }
        let openpt = try symbol("posix_openpt", as: OpenFunction.self)
        let grantpt = try symbol("grantpt", as: OpenFunction.self)
        let unlockpt = try symbol("unlockpt", as: OpenFunction.self)
        let ptsname = try symbol("ptsname_r", as: NameFunction.self)
        let controller = openpt(O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw Failure(description: "posix_openpt: errno \(errno)") }
        var name = [CChar](repeating: 0, count: 256)
        guard grantpt(controller) == 0, unlockpt(controller) == 0, ptsname(controller, &name, name.count) == 0 else {
            close(controller)
            throw Failure(description: "could not set up the pseudo-terminal: errno \(errno)")
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let follower = open(path, O_RDWR | O_NOCTTY)
        guard follower >= 0 else {
            close(controller)
            throw Failure(description: "open \(path): errno \(errno)")
        }
        self.controller = controller
        self.follower = FileHandle(fileDescriptor: follower, closeOnDealloc: true)
        let thread = Thread { [controller, collected, readerDone] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count > 0 {
                    collected.append(buffer[0..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break  // EIO: every process closed the terminal's side
                }
            }
            readerDone.signal()
        }
        thread.start()
    }

    /// What was written to the terminal so far, while the process still runs.
    var textSoFar: String {
        String(decoding: collected.bytes, as: UTF8.self)
    }

    /// Everything written to the terminal, once every process holding ``follower`` has ended
    /// (this one's copy is closed here). The terminal turns each `\n` into `\r\n`.
    func finish() throws -> String {
        try follower.close()
        readerDone.wait()
        close(controller)
        return String(decoding: collected.bytes, as: UTF8.self)
    }
}
