public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The system's file watcher: inotify on Linux, FSEvents on Apple platforms.
///
/// Each folder of the watched trees gets a watch of its own (inotify watches one folder, not a
/// tree); a folder made or moved in is watched as it arrives. The kernel limits how many
/// folders one user watches (`fs.inotify.max_user_watches`): past it, the root's events are
/// reported lost with the `sysctl` that raises the limit, and the watcher scans that root whole
/// at every poll instead.
///
/// On Apple platforms one FSEvents stream watches the trees whole (no watch per folder, no limit);
/// events that FSEvents coalesced or dropped are reported lost. That source is written against
/// Apple's documented API but **not built or tested here**: this project's machines are Linux.
/// Elsewhere the source reports ``FileWatchError/unsupported``, and `seams-sync watch` scans both
/// sides whole at every poll.
public struct DefaultFileEventSource: FileEventSource {
    /// Adds one folder's watch: the system's call, or a test's stand-in for it. Returns the watch's
    /// descriptor, or minus the error number.
    private let addWatch: @Sendable (_ instance: Int32, _ path: String, _ mask: UInt32) -> Int32

    /// Creates the source.
    public init() {
        addWatch = Self.systemAddWatch
    }

    /// Creates a source whose folders' watches are added by `addWatch`, which answers as the
    /// system's call does (the watch's descriptor) or with minus an error number: a test
    /// stands in for the kernel's watch limit with it.
    package init(
        addingWatches addWatch: @escaping @Sendable (_ instance: Int32, _ path: String, _ mask: UInt32) -> Int32
    ) {
        self.addWatch = addWatch
    }

    /// Starts watching `roots`; see ``FileEventSource/watch(_:leavingOut:)``.
    public func watch(_ roots: [URL], leavingOut: @escaping @Sendable (Int, String) -> Bool)
        throws(FileWatchError) -> any FileEventWatching
    {
        #if canImport(Glibc)
            return try InotifyWatch(roots: roots, leavingOut: leavingOut, addWatch: addWatch)
        #elseif canImport(CoreServices)
            return try FSEventsWatch(roots: roots, leavingOut: leavingOut)
        #else
            throw .unsupported
        #endif
    }

    /// The system's call that adds a watch, for a test's stand-in to pass on to.
    package static func systemAddWatch(_ instance: Int32, _ path: String, _ mask: UInt32) -> Int32 {
        #if canImport(Glibc)
            let watch = inotify_add_watch(instance, path, mask)
            return watch >= 0 ? watch : -errno
        #else
            return -1
        #endif
    }

    private static let origin = ContinuousClock.now

    /// The time since the first look, on `ContinuousClock` (which counts time asleep).
    public var now: Duration { ContinuousClock.now - Self.origin }

    /// Sleeps the thread.
    @available(*, noasync, message: "blocks its thread while it waits")
    public func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}

#if canImport(Glibc)
    /// One inotify instance watching every folder of some trees.
    final class InotifyWatch: FileEventWatching {
        private struct State {
            /// Each watch's root and folder (relative to the root, `""` for the root).
            var folders: [Int32: (root: Int, path: String)] = [:]
            var isClosed = false
        }

        private let descriptor: Int32
        private let roots: [URL]
        private let leavingOut: @Sendable (Int, String) -> Bool
        private let addWatch: @Sendable (Int32, String, UInt32) -> Int32
        private let state = LockedValue(State())
        /// Roots lost while watches were added, reported by the first ``next(waitingAtMost:)``.
        private let lostAtStart = LockedValue(FileEvents())

        private static let mask: UInt32 =
            UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)
            | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)
            | UInt32(IN_EXCL_UNLINK)

        init(
            roots: [URL], leavingOut: @escaping @Sendable (Int, String) -> Bool,
            addWatch: @escaping @Sendable (Int32, String, UInt32) -> Int32
        ) throws(FileWatchError) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { throw .unavailable(String(cString: strerror(errno))) }
            self.descriptor = descriptor
            self.roots = roots
            self.leavingOut = leavingOut
            self.addWatch = addWatch
            var lost = FileEvents()
            for index in roots.indices { addTree(root: index, path: "", into: &lost) }
            lostAtStart.withLock { $0 = lost }
        }

        func close() {
            let wasOpen = state.withLock { state in
                defer { state.isClosed = true }
                return !state.isClosed
            }
            if wasOpen { _ = Glibc.close(descriptor) }
        }

        deinit { close() }

        func next(waitingAtMost timeout: Duration) -> FileEvents {
            var events = lostAtStart.withLock { events in
                defer { events = FileEvents() }
                return events
            }
            guard events.isEmpty, !state.withLock(\.isClosed) else { return events }
            let (seconds, attoseconds) = timeout.components
            let milliseconds = Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) > 0 else { return events }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                handle(buffer[..<count], into: &events)
            }
            return events
        }

        /// Turns a read's bytes into events, and keeps the watches in step with folders made,
        /// moved and removed.
        private func handle(_ bytes: ArraySlice<UInt8>, into events: inout FileEvents) {
            let header = MemoryLayout<inotify_event>.size
            var offset = bytes.startIndex
            while offset + header <= bytes.endIndex {
                let (wd, mask, length) = bytes[offset..<offset + header].withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = bytes[(offset + header)..<min(offset + header + length, bytes.endIndex)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    events.lost.formUnion(roots.indices)
                    events.reason = "the system's queue of file events overflowed"
                    continue
                }
                guard let (root, folder) = state.withLock({ $0.folders[wd] }) else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    state.withLock { _ = $0.folders.removeValue(forKey: wd) }
                }
                if folder.isEmpty, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
                    events.unwatched.insert(root)
                    events.reason = "\(roots[root].path) was removed, moved or unmounted"
                    continue
                }
                guard !name.isEmpty else { continue }  // about the watched folder itself
                let path = folder.isEmpty ? name : folder + "/" + name
                let isFolder = mask & UInt32(IN_ISDIR) != 0
                if isFolder, mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 {
                    forget(root: root, under: path)
                }
                let isNewFolder = isFolder && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
                if isNewFolder, !FileEvents.isToolsOwn(name) { addTree(root: root, path: path, into: &events) }
                events.record(path, in: root, isNewFolder: isNewFolder)
            }
        }

        /// Stops watching `path` and every folder below it.
        private func forget(root: Int, under path: String) {
            let gone = state.withLock { state in
                let wds = state.folders.filter {
                    $0.value.root == root && ($0.value.path == path || $0.value.path.hasPrefix(path + "/"))
                }.map(\.key)
                for wd in wds { state.folders[wd] = nil }
                return wds
            }
            for wd in gone { inotify_rm_watch(descriptor, wd) }
        }

        /// Watches the folder `path` of root `root` and every folder below it (but those left out).
        private func addTree(root: Int, path: String, into events: inout FileEvents) {
            var pending = [path]
            while let folder = pending.popLast() {
                if !folder.isEmpty, leavingOut(root, folder) { continue }
                let url = folder.isEmpty ? roots[root] : roots[root].appending(path: folder)
                let wd = addWatch(descriptor, url.path, Self.mask)
                if wd < 0 {
                    let code = -wd
                    if code == ENOSPC {
                        events.unwatched.insert(root)
                        events.reason = Self.limitReason()
                        return
                    }
                    if folder.isEmpty {
                        events.unwatched.insert(root)
                        events.reason = "\(url.path) cannot be watched: \(String(cString: strerror(code)))"
                    }
                    continue  // gone meanwhile, or unreadable: the scan says so
                }
                state.withLock { $0.folders[wd] = (root, folder) }
                guard let directory = opendir(url.path) else { continue }
                defer { closedir(directory) }
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    guard name != ".", name != "..", !FileEvents.isToolsOwn(name) else { continue }
                    var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
                    if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                        var info = stat()
                        isFolder = lstat(url.appending(path: name).path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                    }
                    if isFolder { pending.append(folder.isEmpty ? name : folder + "/" + name) }
                }
            }
        }

        /// Why a root's events are lost when the watch limit is reached, with the setting that raises it.
        private static func limitReason() -> String {
            let limit =
                (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            return "the system's limit of watched folders was reached (fs.inotify.max_user_watches = \(limit)); "
                + "raise it with: sudo sysctl fs.inotify.max_user_watches=1048576 (scanning whole at every poll until then)"
        }
    }
#endif
