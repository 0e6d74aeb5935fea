import TargetModel
import TextSafety

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The values of `{$uuid}`, `{$timestamp}` and `{$isoDate}` for one request, made when it is
/// sent; every marker of that request (`DynamicValue.marker`) is replaced by the same value.
public struct DynamicValues: Sendable {
    /// The time the values are made at, in whole seconds since 1970 (SigV4 signs with it too).
    public let seconds: Int
    public let uuid: String

    /// Values made now.
    public init() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        self.init(seconds: Int(now.tv_sec), uuid: UUID().uuidString.lowercased())
    }

    /// Values for a given time and UUID.
    public init(seconds: Int, uuid: String) {
        self.seconds = seconds
        self.uuid = uuid
    }

    /// The value of `value`.
    public func text(of value: DynamicValue) -> String {
        switch value {
        case .uuid: uuid
        case .timestamp: String(seconds)
        case .isoDate: Self.isoDate(seconds)
        }
    }

    /// Whether `text` holds a marker.
    public static func hasMarker(_ text: String) -> Bool {
        // Byte for byte: the standard library's `contains` of a string costs ~400,000 instructions of
        // generic metadata and conformance lookups at its first use, on every request's way out.
        TextSearch.contains(text, DynamicValue.markerPrefix)
    }

    /// `text` with every marker replaced by its value.
    public func substituting(in text: String) -> String {
        guard Self.hasMarker(text) else { return text }
        var result = text
        for value in DynamicValue.allCases { result = result.replacing(value.marker, with: self.text(of: value)) }
        return result
    }

    /// Whether `data` holds a marker, byte for byte (memchr for the first byte, memcmp for the
    /// rest): `Data.firstRange(of:)` is generic over both collections, some 80,000 instructions for
    /// a small sample body, on every check of a live sweep (issue 42).
    public static func hasMarker(in data: Data) -> Bool {
        let prefix = Array(DynamicValue.markerPrefix.utf8)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress, let first = prefix.first, raw.count >= prefix.count else { return false }
            let last = raw.count - prefix.count
            var start = 0
            while start <= last {
                guard let found = memchr(base + start, Int32(first), last - start + 1) else { return false }
                let offset = base.distance(to: UnsafeRawPointer(found))
                if prefix.withUnsafeBytes({ memcmp(base + offset, $0.baseAddress!, prefix.count) }) == 0 {
                    return true
                }
                start = offset + 1
            }
            return false
        }
    }

    /// `data` with every marker replaced by its value; `nil` when it holds none.
    public func substituting(in data: Data) -> Data? {
        guard Self.hasMarker(in: data) else { return nil }
        var bytes = Array(data)
        for value in DynamicValue.allCases {
            bytes = bytes.replacing(Array(value.marker.utf8), with: Array(text(of: value).utf8))
        }
        return Data(bytes)
    }

    /// `seconds` as `2024-12-06T16:00:00Z`.
    public static func isoDate(_ seconds: Int) -> String {
        let parts = utc(seconds)
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }

    /// `seconds` as SigV4's basic form `20241206T160000Z`.
    public static func basicISODate(_ seconds: Int) -> String {
        let parts = utc(seconds)
        return "\(pad(parts.year, 4))\(pad(parts.month, 2))\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2))\(pad(parts.minute, 2))\(pad(parts.second, 2))Z"
    }

    /// The civil date and time in UTC of `seconds` since 1970 (Howard Hinnant's days-to-civil).
    static func utc(_ seconds: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let within = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, within / 3600, within % 3600 / 60, within % 60)
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
