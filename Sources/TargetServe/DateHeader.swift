import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// The `Date` header's value (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`): every answer
/// carries one, as HTTP/1.1 asks of a server with a clock. Formatted once a second per thread,
/// not per request.
package final class DateHeader {
    private var second = -1
    private var text = ""

    /// Each thread reads and writes only its own value: the variable is shared, its values are not.
    nonisolated(unsafe) private static let cache = ThreadSpecificVariable<DateHeader>()
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Now, as the header writes it.
    static var now: String {
        let cache =
            Self.cache.currentValue
            ?? {
                let created = DateHeader()
                Self.cache.currentValue = created
                return created
            }()
        return cache.value(at: time(nil))
    }

    private func value(at seconds: time_t) -> String {
        if Int(seconds) != second {
            second = Int(seconds)
            text = Self.formatted(seconds)
        }
        return text
    }

    /// `seconds` since the epoch as an IMF-fixdate.
    package static func formatted(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
