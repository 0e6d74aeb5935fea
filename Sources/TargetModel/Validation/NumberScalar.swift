import OrderedJSON
import PositionedYAML

/// Which scalars of a JSON-shaped node (`json:` bodies, `parameters`, `query`, JSON samples) are
/// numbers, and the text they are sent as.
///
/// The rule is the core schema's number syntax, whatever the value's size: a plain (or `!!int` /
/// `!!float` tagged) decimal numeral, `[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?`.
/// Its digits are kept as written, so `12345678901234567890`, `-0` and `1e400` are sent as such;
/// only what JSON does not allow is respelled (`+1` → `1`, `.5` → `0.5`, `007` → `7`, `5.` → `5`).
/// Other YAML spellings (`0x1F`, `0o17`, `1_000`, `.inf`, `.nan`) are strings, as everywhere in a
/// target file.
public enum NumberScalar {
    private static let integerTag = "tag:yaml.org,2002:int"
    private static let floatTag = "tag:yaml.org,2002:float"

    /// The number `scalar` is, as JSON text; `nil` when it is not a number.
    public static func jsonNumber(_ scalar: Node.Scalar) -> JSONNumber? {
        switch scalar.tag {
        case nil: guard scalar.isPlain else { return nil }
        case integerTag?, floatTag?: break
        default: return nil
        }
        // Cheap first-byte test: most scalars are words, which are never numbers.
        guard let first = scalar.text.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return nil }
        return JSONNumber(decimal: scalar.text)
    }
}
