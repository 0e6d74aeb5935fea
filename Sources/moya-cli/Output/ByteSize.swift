import ArgumentParser
import CurlTransport
import MoyaKit

/// A size in bytes as typed: `1048576`, `64K`, `256M`, `2G` (binary units: K = 1024).
struct ByteSize: Equatable, CustomStringConvertible {
    var bytes: Int

    /// The most a buffered response body may take by default (`--max-body-size`).
    static let defaultBodyLimit = ByteSize(bytes: 256 << 20)

    init(bytes: Int) {
        self.bytes = bytes
    }

    init?(_ text: String) {
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        if digits.hasSuffix("I") { digits = digits.dropLast() }
        var shift = 0
        if let last = digits.last, let unit = ["K": 10, "M": 20, "G": 30, "T": 40][String(last)] {
            shift = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits),
            value > 0, value <= Int.max >> shift
        else { return nil }
        bytes = value << shift
    }

    var description: String { ByteCount.describe(bytes) }
}

extension ByteSize: ExpressibleByArgument {
    init?(argument: String) {
        self.init(argument)
    }

    /// The size in the largest unit it is a whole number of, as typed (`256M`): `--help` shows
    /// the default so.
    var defaultValueDescription: String {
        for (unit, shift) in [("T", 40), ("G", 30), ("M", 20), ("K", 10)] where bytes > 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return String(bytes)
    }
}
