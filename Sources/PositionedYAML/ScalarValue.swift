/// What a scalar means under the YAML 1.2 core schema, restricted as the target-file format says:
/// plain `true`/`false` are bools, plain decimal integers ints, plain decimals doubles, plain
/// `null`/`~`/nothing null; everything else — quoted text, `yes`/`no`, `0x1F`, `.inf` — is a string.
package enum ScalarValue: Sendable, Hashable {
    /// `null`, `Null`, `NULL`, `~`, or an empty plain scalar.
    case null
    /// `true`/`True`/`TRUE` or `false`/`False`/`FALSE`.
    case bool(Bool)
    /// A decimal integer with an optional sign that fits in 64 bits: `42`, `-12`, `+7`.
    case int(Int)
    /// A decimal number with a fraction or an exponent: `1.5`, `-0.25`, `1e3`, `.5`.
    case double(Double)
    /// Anything else, and every quoted scalar.
    case string(String)
}

extension Node.Scalar {
    /// The core-schema tags a scalar may carry explicitly (`!!int 3`); any other tag means string.
    private enum CoreTag {
        static let prefix = "tag:yaml.org,2002:"
        static let null = prefix + "null"
        static let bool = prefix + "bool"
        static let int = prefix + "int"
        static let float = prefix + "float"
    }

    /// The scalar's value: plain scalars are resolved by the core schema; quoted ones, and ones
    /// tagged `!!str` or with any non-core tag, are strings. A core tag (`!!int "3"`) forces that
    /// type when the text fits it, and gives a string when it does not.
    package var resolved: ScalarValue {
        switch tag {
        case nil:
            return isPlain ? Self.resolvePlain(text) : .string(text)
        case CoreTag.null?:
            return Self.resolveNull(text) ?? .string(text)
        case CoreTag.bool?:
            return Self.resolveBool(text) ?? .string(text)
        case CoreTag.int?:
            return Self.resolveInt(text) ?? .string(text)
        case CoreTag.float?:
            return Self.resolveInt(text).flatMap { value -> ScalarValue? in
                guard case .int(let integer) = value else { return nil }
                return .double(Double(integer))
            } ?? Self.resolveDouble(text) ?? .string(text)
        default:
            return .string(text)
        }
    }

    private static func resolvePlain(_ text: String) -> ScalarValue {
        // The first byte rules out every non-string form cheaply, which most scalars (keys,
        // paths, words) take.
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"):
            return resolveNull(text) ?? .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            return resolveBool(text) ?? .string(text)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            // Integer syntax that overflows stays a string: a double would silently lose digits.
            if hasIntegerSyntax(text) { return resolveInt(text) ?? .string(text) }
            return resolveDouble(text) ?? .string(text)
        default:
            return .string(text)
        }
    }

    private static func resolveNull(_ text: String) -> ScalarValue? {
        switch text {
        case "", "~", "null", "Null", "NULL": .null
        default: nil
        }
    }

    private static func resolveBool(_ text: String) -> ScalarValue? {
        switch text {
        case "true", "True", "TRUE": .bool(true)
        case "false", "False", "FALSE": .bool(false)
        default: nil
        }
    }

    /// Whether `text` is `[-+]?[0-9]+`. (Bytes, not characters: a sign followed by a combining
    /// mark is one character but still not a digit, so the answer is the same, without grapheme
    /// breaking.)
    private static func hasIntegerSyntax(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            var digits = bytes[...]
            if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                digits = digits.dropFirst()
            }
            return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }

    /// `[-+]?[0-9]+` that fits in 64 bits, as `Int(_:)` reads it, without its generic parsing.
    private static func resolveInt(_ text: String) -> ScalarValue? {
        guard hasIntegerSyntax(text) else { return nil }
        return text.withUTF8Bytes { bytes -> ScalarValue? in
            var digits = bytes[...]
            let isNegative = digits.first == UInt8(ascii: "-")
            if isNegative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            // Accumulated on the sign's side, so Int.min fits.
            var value = 0
            for digit in digits {
                let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
                let (next, overflowedAdd) =
                    isNegative
                    ? shifted.subtractingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                    : shifted.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                guard !overflowedShift && !overflowedAdd else { return nil }
                value = next
            }
            return .int(value)
        }
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` — no `.inf` or `.nan`.
    private static func resolveDouble(_ text: String) -> ScalarValue? {
        var bytes = Substring(text).utf8[...]
        func skipDigits() -> Int {
            let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var mantissaDigits = skipDigits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissaDigits += skipDigits()
        }
        guard mantissaDigits > 0 else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            guard skipDigits() > 0 else { return nil }
        }
        guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return .double(value)
    }
}
