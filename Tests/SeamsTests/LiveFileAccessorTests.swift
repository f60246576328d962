import Dispatch
import Foundation
import Seams
import Testing

@Suite struct LiveFileAccessorTests {
    let accessor = DefaultFileAccessor()

    @Test("a written file reads back byte for byte, and a second write replaces it")
    func writeThenRead() throws {
        let temp = try TemporaryDirectory()
        let url = temp.file("notes.json")
        let first = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try accessor.write(first, to: url)
        #expect(try accessor.read(from: url) == first)
        try accessor.write(Data("short".utf8), to: url)
        #expect(try accessor.read(from: url) == Data("short".utf8))
    }

    @Test("an empty file is written and read as empty data")
    func emptyFile() throws {
        let temp = try TemporaryDirectory()
        try accessor.write(Data(), to: temp.file("empty"))
        #expect(try accessor.read(from: temp.file("empty")).isEmpty)
    }

    #if os(Linux)
        /// What `InMemoryFileSystem` leaves when a power cut keeps an atomic write's temp file and
        /// loses its rename: the name Foundation gives that temp file here, seen while a large write
        /// is under way (retried until a look lands inside one).
        @Test(
            "an atomic write goes through a temp file beside the target named .dat.nosync…, as the fake's power cuts may leave it"
        )
        func atomicWritesTempName() throws {
            let temp = try TemporaryDirectory()
            let seen = LockedValue<Set<String>>([])
            let writing = LockedValue(false)
            let data = Data(count: 64 << 20)
            for _ in 0..<20 where !seen.withLock({ $0.contains { $0.hasPrefix(".dat.nosync") } }) {
                writing.withLock { $0 = true }
                let done = DispatchSemaphore(value: 0)
                let folder = temp.url.path
                Thread.detachNewThread {
                    while writing.withLock({ $0 }) {
                        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                        seen.withLock { $0.formUnion(names) }
                    }
                    done.signal()
                }
                try accessor.write(data, to: temp.file("big.bin"))
                writing.withLock { $0 = false }
                done.wait()
            }
            let temps = seen.withLock { $0 }.filter { $0 != "big.bin" }
            #expect(!temps.isEmpty && temps.allSatisfy { $0.hasPrefix(".dat.nosync") }, "\(temps)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path) == ["big.bin"])
        }

        /// A process started while a file is open (by any thread, with `Process` or `posix_spawn`)
        /// must not keep it: Foundation opens both without `O_CLOEXEC`, and a child that held a
        /// replaced file of an exfat-fuse volume made the driver abort. Each descriptor is caught
        /// open during a large read or write (retried until a look lands inside one) and its flags
        /// read from `/proc/self/fdinfo`.
        @Test("a whole-file read and an atomic write open their files close-on-exec", arguments: ["read", "write"])
        func closeOnExec(_ call: String) throws {
            let temp = try TemporaryDirectory()
            let target = temp.file("big.bin")
            let data = Data(count: 64 << 20)
            if call == "read" { try accessor.write(data, to: target) }
            let flags = LockedValue<[String: Int]>([:])
            for _ in 0..<20 where flags.withLock({ $0.isEmpty }) {
                let watching = LockedValue(true)
                let done = DispatchSemaphore(value: 0)
                let folder = temp.url.path
                Thread.detachNewThread {
                    while watching.withLock({ $0 }) {
                        for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                        {
                            guard
                                let path = try? FileManager.default.destinationOfSymbolicLink(
                                    atPath: "/proc/self/fd/\(descriptor)"),
                                path.hasPrefix(folder + "/"),
                                let info = try? String(
                                    contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8),
                                let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
                                let value = Int(
                                    line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8)
                            else { continue }
                            flags.withLock { $0[(path as NSString).lastPathComponent] = value }
                        }
                    }
                    done.signal()
                }
                if call == "read" {
                    #expect(try accessor.read(from: target).count == data.count)
                } else {
                    try accessor.write(data, to: target)
                }
                watching.withLock { $0 = false }
                done.wait()
            }
            let seen = flags.withLock { $0 }
            #expect(!seen.isEmpty, "no descriptor of the \(call) was caught open")
            for (name, value) in seen {
                #expect(
                    value & Int(O_CLOEXEC) != 0, "\(name) open with flags \(String(value, radix: 8)), without O_CLOEXEC"
                )
            }
        }
    #endif

    @Test("writes are atomic: nothing but the target is left in the folder")
    func atomicWriteLeavesNoTemporaryFile() throws {
        let temp = try TemporaryDirectory()
        for round in 0..<5 { try accessor.write(Data("round \(round)".utf8), to: temp.file("a.txt")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path) == ["a.txt"])
    }

    @Test("fileExists sees files and folders, not missing paths")
    func fileExists() throws {
        let temp = try TemporaryDirectory()
        try accessor.write(Data("x".utf8), to: temp.file("present"))
        #expect(accessor.fileExists(at: temp.file("present")))
        #expect(accessor.fileExists(at: temp.url))
        #expect(!accessor.fileExists(at: temp.file("absent")))
        #expect(!accessor.fileExists(at: temp.file("absent/child")))
    }

    @Test("names with spaces, Unicode and dots are written and read as given")
    func oddNames() throws {
        let temp = try TemporaryDirectory()
        for name in [
            "with space.txt", "caf\u{E9}.txt", "cafe\u{301}.txt", ".hidden", "日本語", String(repeating: "n", count: 200),
        ] {
            try accessor.write(Data(name.utf8), to: temp.file(name))
            #expect(try accessor.read(from: temp.file(name)) == Data(name.utf8), "\(name)")
        }
    }

    enum Failure: String, CaseIterable, Sendable {
        case readMissing, readDirectory, readThroughFile, writeMissingParent, writeOntoDirectory
    }

    @Test("each failure throws Foundation's code with the errno inside", arguments: Failure.allCases)
    func failures(_ failure: Failure) throws {
        let temp = try TemporaryDirectory()
        try Data("file".utf8).write(to: temp.file("file"))
        try FileManager.default.createDirectory(at: temp.folder("dir"), withIntermediateDirectories: false)
        let expected: (CocoaError.Code, POSIXErrorCode)
        let action: () throws -> Void
        switch failure {
        case .readMissing:
            expected = (.fileReadNoSuchFile, .ENOENT)
            action = { _ = try accessor.read(from: temp.file("missing")) }
        case .readDirectory:
            expected = (.fileReadUnknown, .EISDIR)
            action = { _ = try accessor.read(from: temp.folder("dir")) }
        case .readThroughFile:
            expected = (.fileReadUnknown, .ENOTDIR)
            action = { _ = try accessor.read(from: temp.file("file/child")) }
        case .writeMissingParent:
            expected = (.fileNoSuchFile, .ENOENT)
            action = { try accessor.write(Data(), to: temp.file("missing/child")) }
        case .writeOntoDirectory:
            expected = (.fileWriteUnknown, .EISDIR)
            action = { try accessor.write(Data(), to: temp.folder("dir")) }
        }
        let error = try #require(throws: CocoaError.self) { try action() }
        #expect(error.code == expected.0)
        #expect(error.posixCode == expected.1)
    }

    @Test("a file without read permission throws .fileReadNoPermission (EACCES)")
    func readWithoutPermission() throws {
        let temp = try TemporaryDirectory()
        let url = temp.file("secret")
        try Data("secret".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
        let outcome = try UnprivilegedProbe.run("read", url.path)
        #expect(outcome.error?.code == CocoaError.Code.fileReadNoPermission.rawValue, "\(outcome)")
        #expect(outcome.error?.errno == EACCES, "\(outcome)")
    }

    @Test("writing into a read-only folder throws .fileWriteNoPermission (EACCES) and leaves nothing")
    func writeIntoReadOnlyFolder() throws {
        let temp = try TemporaryDirectory()
        let folder = temp.folder("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let outcome = try UnprivilegedProbe.run("write", folder.appending(path: "new.txt").path, "data")
        #expect(outcome.error?.code == CocoaError.Code.fileWriteNoPermission.rawValue, "\(outcome)")
        #expect(outcome.error?.errno == EACCES, "\(outcome)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("the unprivileged probe really runs without privileges: it can read a readable file")
    func probeCanRead() throws {
        let temp = try TemporaryDirectory()
        let url = temp.file("public")
        try Data("hello".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(try UnprivilegedProbe.run("read", url.path).line == "ok hello")
    }
}
