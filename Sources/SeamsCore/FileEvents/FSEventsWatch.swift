// The FSEvents source of Apple platforms. Not built on the machines this project is tested on
// (Linux only): written against Apple's documented API, kept small, and said so in the docs.
#if canImport(CoreServices) && !canImport(Glibc)
    import CoreServices
    import Foundation

    /// What the stream's callback hands over: the events not asked for yet, and a signal for a
    /// waiting ``FSEventsWatch/next(waitingAtMost:)``.
    final class FSEventsSink: Sendable {
        let roots: [String]
        let leavingOut: @Sendable (Int, String) -> Bool
        let pending = LockedValue(FileEvents())
        let arrived = DispatchSemaphore(value: 0)

        init(roots: [URL], leavingOut: @escaping @Sendable (Int, String) -> Bool) {
            // FSEvents reports paths with symbolic links resolved (`/private/var`, not `/var`).
            self.roots = roots.map { $0.resolvingSymlinksInPath().path }
            self.leavingOut = leavingOut
        }

        /// Records one event of the stream.
        func take(_ path: String, flags: FSEventStreamEventFlags) {
            let has = { (flag: Int) in flags & FSEventStreamEventFlags(flag) != 0 }
            pending.withLock { events in
                let matches = roots.indices.filter { path == roots[$0] || path.hasPrefix(roots[$0] + "/") }
                guard let root = matches.max(by: { roots[$0].count < roots[$1].count }) else { return }
                if has(kFSEventStreamEventFlagRootChanged) || has(kFSEventStreamEventFlagUnmount) {
                    events.unwatched.insert(root)
                    events.reason = "\(roots[root]) was removed, moved or unmounted"
                    return
                }
                if has(kFSEventStreamEventFlagMustScanSubDirs) || has(kFSEventStreamEventFlagUserDropped)
                    || has(kFSEventStreamEventFlagKernelDropped)
                {
                    events.lost.insert(root)
                    events.reason = "the system's file events were coalesced or dropped"
                    return
                }
                guard path.count > roots[root].count else { return }  // about the root folder itself
                let relative = String(path.dropFirst(roots[root].count + 1))
                var folder = ""
                for part in relative.split(separator: "/").dropLast() {
                    folder = folder.isEmpty ? String(part) : folder + "/" + part
                    if leavingOut(root, folder) { return }
                }
                var isNewFolder = false
                if has(kFSEventStreamEventFlagItemIsDir),
                    has(kFSEventStreamEventFlagItemCreated) || has(kFSEventStreamEventFlagItemRenamed)
                {
                    var info = stat()
                    isNewFolder = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                }
                events.record(relative, in: root, isNewFolder: isNewFolder)
            }
            arrived.signal()
        }
    }

    /// One FSEvents stream over some trees (FSEvents watches a tree whole: no watch per folder,
    /// no limit to reach).
    final class FSEventsWatch: FileEventWatching {
        private let sink: FSEventsSink
        private let queue = DispatchQueue(label: "seams.file-events")
        private let stream: LockedValue<FSEventStreamRef?>

        init(roots: [URL], leavingOut: @escaping @Sendable (Int, String) -> Bool) throws(FileWatchError) {
            let sink = FSEventsSink(roots: roots, leavingOut: leavingOut)
            var context = FSEventStreamContext(
                version: 0, info: Unmanaged.passUnretained(sink).toOpaque(), retain: nil, release: nil,
                copyDescription: nil)
            let callback: FSEventStreamCallback = { _, info, count, paths, flags, _ in
                guard let info else { return }
                let sink = Unmanaged<FSEventsSink>.fromOpaque(info).takeUnretainedValue()
                let names = paths.assumingMemoryBound(to: UnsafePointer<CChar>.self)
                for index in 0..<count { sink.take(String(cString: names[index]), flags: flags[index]) }
            }
            let flags =
                kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer | kFSEventStreamCreateFlagWatchRoot
            guard
                let created = FSEventStreamCreate(
                    kCFAllocatorDefault, callback, &context, sink.roots as CFArray,
                    FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.05, FSEventStreamCreateFlags(flags))
            else { throw .unavailable("FSEventStreamCreate failed") }
            FSEventStreamSetDispatchQueue(created, queue)
            guard FSEventStreamStart(created) else {
                FSEventStreamInvalidate(created)
                FSEventStreamRelease(created)
                throw .unavailable("FSEventStreamStart failed")
            }
            self.sink = sink
            stream = LockedValue(created)
        }

        func next(waitingAtMost timeout: Duration) -> FileEvents {
            let (seconds, attoseconds) = timeout.components
            let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
            while true {
                let events = sink.pending.withLock { events in
                    defer { events = FileEvents() }
                    return events
                }
                guard events.isEmpty, stream.withLock({ $0 != nil }) else { return events }
                if sink.arrived.wait(timeout: deadline) == .timedOut { return events }
            }
        }

        func close() {
            let wasOpen = stream.withLock { stream in
                defer { stream = nil }
                guard let open = stream else { return false }
                FSEventStreamStop(open)
                FSEventStreamInvalidate(open)
                FSEventStreamRelease(open)
                return true
            }
            // A callback already queued runs before the sink can go.
            if wasOpen { queue.sync {} }
        }

        deinit { close() }
    }
#endif
