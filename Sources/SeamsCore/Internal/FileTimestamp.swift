package import Foundation

/// Converts between `Date` and the nanosecond timestamps file systems keep, the same way for the
/// live implementation and the fakes, so a date read back compares equal on both.
package enum FileTimestamp {
    /// Whole seconds and nanoseconds since 1970, the nanoseconds in `0..<1_000_000_000`.
    package static func split(_ date: Date) -> (seconds: Int64, nanoseconds: Int64) {
        let interval = date.timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var nanoseconds = Int64(((interval - Double(seconds)) * 1_000_000_000).rounded())
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        return (seconds, nanoseconds)
    }

    /// The date for a timestamp.
    package static func date(seconds: Int64, nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// `date` as the file system would store and return it (rounded to the nanosecond).
    package static func quantized(_ date: Date) -> Date {
        let (seconds, nanoseconds) = split(date)
        return self.date(seconds: seconds, nanoseconds: nanoseconds)
    }
}
