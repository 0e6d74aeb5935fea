#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Retry-After` (RFC 9110 10.2.3): a number of seconds, or an HTTP date.
package enum RetryAfter {
    /// The seconds to wait that `value` asks for, from `now`; `nil` when it is neither form. A
    /// date in the past is 0.
    package static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let text = String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let seconds = Double(text) {
            return seconds
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, the form servers must send.
    package static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
