/// A text body decoded by the `charset` its `Content-Type` declares, for `--format json`'s
/// `body` member: the one place that reads a body's charset.
///
/// Known charsets (labels compared without case): `utf-8` (`utf8`) and `us-ascii` (`ascii`) give
/// nil, left to the envelope's own UTF-8 path, which streams the bytes as they are (an ASCII body
/// is UTF-8; one with bytes above 0x7F is shown as UTF-8 if it is, else in base64); `iso-8859-1` (`latin1`,
/// `iso_8859-1`, `l1`, `cp819`, `iso-ir-100`), each byte its own code point, as Foundation's
/// `.isoLatin1`; `windows-1252` (`cp1252`,
/// `x-cp1252`), the WHATWG table (its five unassigned bytes as the C1 controls); `utf-16` (a byte
/// order mark says the order, big-endian without one, as RFC 2781), `utf-16le` and `utf-16be`
/// (a leading mark dropped). A body that is not valid in its declared charset, an unknown
/// charset, or none, gives nil: the envelope then does as before — UTF-8 text as text, anything
/// else in `bodyBase64`.
enum TextCharset {
    /// The body's text in the charset `contentType` declares, or nil (see the type's comment).
    static func decode(_ body: some Collection<UInt8>, contentType: String?) -> String? {
        guard let contentType, let label = charset(in: contentType) else { return nil }
        // UTF-8 and US-ASCII (and unknown labels) are the caller's: nil before copying the bytes.
        let known = [
            "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "iso-ir-100", "ibm819",
            "windows-1252", "cp1252", "x-cp1252", "utf-16", "utf-16le", "utf-16be"
        ]
        guard known.contains(label) else { return nil }
        let bytes = Array(body)
        switch label {
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "iso-ir-100", "ibm819":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case "windows-1252", "cp1252", "x-cp1252":
            return String(
                String.UnicodeScalarView(
                    bytes.map { byte in
                        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
                        return Unicode.Scalar(windows1252[Int(byte) - 0x80]) ?? Unicode.Scalar(byte)
                    }))
        case "utf-16":
            if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), bigEndian: false) }
            if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), bigEndian: true) }
            return utf16(bytes[...], bigEndian: true)
        case "utf-16le":
            return utf16(bytes.starts(with: [0xFF, 0xFE]) ? bytes.dropFirst(2) : bytes[...], bigEndian: false)
        case "utf-16be":
            return utf16(bytes.starts(with: [0xFE, 0xFF]) ? bytes.dropFirst(2) : bytes[...], bigEndian: true)
        default:
            return nil
        }
    }

    /// The `charset` parameter of a media type, unquoted and lower-cased.
    static func charset(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                pair[0].trimmingWhitespace().lowercased() == "charset"
            else { continue }
            var value = pair[1].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = value.dropFirst().dropLast()
            }
            return value.isEmpty ? nil : value.lowercased()
        }
        return nil
    }

    /// UTF-16 code units of `bytes` in the order given; nil for an odd length or a lone surrogate.
    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return String(validating: units, as: UTF16.self)
    }

    /// Windows-1252's code points for 0x80–0x9F (WHATWG's index; unassigned bytes as themselves).
    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178
    ]
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[start...end]
    }
}
