import SeamsCore

/// The progress line of a run on a terminal, as the CLI draws it: what the run does, how much of
/// it is done, how fast, and how long the rest will take.
///
/// ```
/// scanning: 12,345 items found
/// syncing: 1,234/30,306 items, 512.0 MiB/1.2 GiB, 41%, 85.2 MiB/s, 0:12 left
/// ```
package final class ProgressLine: Sendable {
    private struct State {
        var lastShown: ContinuousClock.Instant?
        var lastPhase: SyncProgress.Phase?
        /// When the applying phase began.
        var applyingSince: ContinuousClock.Instant?
        var finished = false
    }

    private let state = LockedValue(State())

    /// A line not drawn yet.
    package init() {}

    /// How often the line is redrawn at most.
    package static let interval: Duration = .milliseconds(100)

    /// The text to write for `progress` at `now` (a carriage return, the line, and a clear to the
    /// line's end; a line end after the last update), or `nil` when the line was drawn less than
    /// ``interval`` ago in the same phase.
    package func update(_ progress: SyncProgress, now: ContinuousClock.Instant) -> String? {
        state.withLock { state -> String? in
            if state.finished { return nil }
            let last = progress.phase == .applying && progress.completed >= progress.total
            if progress.phase == .applying, state.applyingSince == nil { state.applyingSince = now }
            if !last, state.lastPhase == progress.phase, let shown = state.lastShown, now - shown < Self.interval {
                return nil
            }
            state.lastShown = now
            state.lastPhase = progress.phase
            let elapsed = state.applyingSince.map { now - $0 } ?? .zero
            if last { state.finished = true }
            return "\r" + Self.text(progress, elapsed: elapsed) + "\u{1B}[K" + (last ? "\n" : "")
        }
    }

    /// The line for `progress`, `elapsed` after the applying phase began.
    package static func text(_ progress: SyncProgress, elapsed: Duration) -> String {
        switch progress.phase {
        case .scanning:
            return "scanning: \(grouped(progress.completed)) \(progress.completed == 1 ? "item" : "items") found"
        case .applying:
            var parts = ["syncing: \(grouped(progress.completed))/\(grouped(progress.total)) items"]
            if progress.bytesTotal > 0 {
                parts.append("\(bytes(progress.bytesCompleted))/\(bytes(progress.bytesTotal))")
            }
            parts.append("\(Int((progress.fractionCompleted * 100).rounded(.down)))%")
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if progress.bytesTotal > 0, seconds >= 0.5, progress.bytesCompleted > 0 {
                let rate = Double(progress.bytesCompleted) / seconds
                parts.append("\(bytes(Int64(rate)))/s")
                let left = Double(progress.bytesTotal - progress.bytesCompleted) / rate
                if progress.bytesCompleted < progress.bytesTotal { parts.append("\(clock(left)) left") }
            }
            return parts.joined(separator: ", ")
        }
    }

    /// `12,345`.
    package static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// `512 B`, `4.0 KiB`, `85.2 MiB`, `1.2 GiB`.
    package static func bytes(_ count: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `0:12`, `1:02:03`.
    package static func clock(_ seconds: Double) -> String {
        let total = Int(min(seconds, 359_999).rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
