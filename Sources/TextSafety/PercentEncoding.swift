/// Percent-encoding as Alamofire and RFC 3986 do it, on UTF-8 bytes.
public enum PercentEncoding {
    /// Escapes a query key or value as Alamofire's `URLEncoding.escape`: every reserved character
    /// is escaped except `?` and `/`, which RFC 3986 section 3.4 allows in a query.
    public static func escapeQueryComponent(_ string: String) -> String {
        escape(string) { byte in isUnreserved(byte) || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "/") }
    }

    /// Escapes everything but RFC 3986's unreserved characters, so that `segment` stays one
    /// path segment (a `/` in it becomes `%2F`).
    ///
    /// `.` and `..` are escaped too (`%2E`, `%2E%2E`): left as they are, they are dot segments
    /// that libcurl and servers resolve, and a value would climb out of its segment.
    public static func escapePathSegment(_ segment: String) -> String {
        if segment == "." || segment == ".." { return String(repeating: "%2E", count: segment.count) }
        return escape(segment, keeping: isUnreserved)
    }

    /// `text` with its `%XX` escapes decoded, as Foundation's `removingPercentEncoding` does;
    /// `nil` when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    public static func decoded(_ text: String) -> String? {
        var output: [UInt8] = []
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = bytes.popFirst(), let low = bytes.popFirst(), isHexDigit(high), isHexDigit(low) else {
                return nil
            }
            output.append(hexValue(high) << 4 | hexValue(low))
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: digit - UInt8(ascii: "A") + 10
        }
    }

    /// Escapes what a path cannot hold, keeping valid `%XX` escapes and the path delimiters.
    package static func escapePath(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2])
            {
                output.append(contentsOf: bytes[index...index + 2])
                index += 3
                continue
            }
            if isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
                || byte == UInt8(ascii: "/")
            {
                output.append(byte)
            } else {
                appendEscaped(byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func escape(_ string: String, keeping isAllowed: (UInt8) -> Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isAllowed(byte) { output.append(byte) } else { appendEscaped(byte, to: &output) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default: return false
        }
    }
}
