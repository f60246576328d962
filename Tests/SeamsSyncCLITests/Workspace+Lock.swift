import Foundation

extension Workspace {
    /// A lock record as a process of this host writes it: host, boot id and, by default, this test
    /// process's id (a process that exists, so the tool judges the lock by its heartbeat alone).
    static func lockRecord(owner: String, heartbeat: Date, pid: Int32 = ProcessInfo.processInfo.processIdentifier)
        -> String
    {
        let boot =
            (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let host = ProcessInfo.processInfo.hostName
        return
            #"{"owner":"\#(owner)","heartbeat":\#(heartbeat.timeIntervalSince1970),"host":"\#(host)","boot":"\#(boot)","pid":\#(pid)}"#
    }
}
