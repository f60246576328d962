package import Foundation

/// HTTP dates (RFC 9110's IMF-fixdate, `Sat, 21 Nov 2026 10:00:00 GMT`), read and written without
/// a `DateFormatter`: WebDAV listings carry one per item, and a formatter costs more than the
/// rest of the parse. The calendar arithmetic is shared with the S3 client's timestamps.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday

    /// The date an IMF-fixdate names, or `nil` when `text` is not one (the obsolete RFC 850 and
    /// asctime forms are not sent by the servers we speak to and are refused).
    package static func parse(_ text: some StringProtocol) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
            let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), (0...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSince1970(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The date an IMF-fixdate's UTF-8 bytes name, read without making a `String`: `nil` when
    /// `bytes` are not exactly that form (``parse(_:)`` reads the rest). A WebDAV listing of
    /// 100,000 items carries 100,000 of them.
    package static func parse(fixdate bytes: ArraySlice<UInt8>) -> Date? {
        bytes.withUnsafeBufferPointer { parse(fixdate: $0) }
    }

    /// The same, of bytes read in place.
    package static func parse(fixdate bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // `Sun, 06 Nov 1994 08:49:37 GMT`
        guard bytes.count == 29 else { return nil }
        let b = bytes.startIndex
        func byte(_ offset: Int) -> UInt8 { bytes[b + offset] }
        func number(_ offset: Int, _ length: Int) -> Int? {
            var value = 0
            for index in offset..<(offset + length) {
                let digit = byte(index) &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard byte(3) == UInt8(ascii: ","), byte(4) == 0x20, byte(7) == 0x20, byte(11) == 0x20, byte(16) == 0x20,
            byte(19) == UInt8(ascii: ":"), byte(22) == UInt8(ascii: ":"), byte(25) == 0x20,
            bytes[(b + 26)...].elementsEqual("GMT".utf8),
            let monthIndex = monthBytes.firstIndex(where: { bytes[(b + 8)..<(b + 11)].elementsEqual($0) }),
            let day = number(5, 2), let year = number(12, 4), let hour = number(17, 2), let minute = number(20, 2),
            let second = number(23, 2)
        else { return nil }
        return date(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
    }

    private static let monthBytes = months.map { Array($0.utf8) }

    /// The UTC fields of `date`, whole seconds (the fraction is dropped).
    package static func fields(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return (year, month, day, inDay / 3_600, inDay / 60 % 60, inDay % 60)
    }

    /// The date of UTC fields, or `nil` when one is out of range (a year outside 0 through 9999
    /// among them: a server's date is never trusted to keep the arithmetic from overflowing).
    package static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// `date` as an IMF-fixdate, whole seconds (the fraction is dropped).
    package static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(inDay / 3_600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) GMT"
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (negative: before).
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
