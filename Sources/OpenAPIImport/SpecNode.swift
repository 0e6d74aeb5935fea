import TargetSpec
import MoyaKit
import PositionedYAML

/// A node of the OpenAPI document with the JSON pointer that reaches it, so every problem and
/// every note can say where in the spec it comes from (`#/paths/~1users/get/parameters/0`).
struct SpecNode {
    let node: Node
    let pointer: String

    /// The member `key` of a mapping, if this is a mapping that has it.
    subscript(key: String) -> SpecNode? {
        guard case .mapping(let entries, _) = node else { return nil }
        for entry in entries where entry.key.text == key {
            return SpecNode(node: entry.value, pointer: pointer + "/" + Self.escape(key))
        }
        return nil
    }

    /// The mapping's members in document order, or `nil` when this is not a mapping.
    var members: [(key: String, value: SpecNode)]? {
        guard case .mapping(let entries, _) = node else { return nil }
        return entries.map {
            ($0.key.text, SpecNode(node: $0.value, pointer: pointer + "/" + Self.escape($0.key.text)))
        }
    }

    /// The sequence's elements, or `nil` when this is not a sequence.
    var elements: [SpecNode]? {
        guard case .sequence(let items, _) = node else { return nil }
        return items.enumerated().map { SpecNode(node: $0.element, pointer: pointer + "/\($0.offset)") }
    }

    var isMapping: Bool { if case .mapping = node { true } else { false } }

    /// The scalar's value under the core schema, or `nil` for a collection.
    var scalar: ScalarValue? {
        guard case .scalar(let scalar) = node else { return nil }
        return scalar.resolved
    }

    /// The scalar's text when it is a string (quoted, or plain and not a number, bool or null).
    var string: String? {
        guard case .string(let text)? = scalar else { return nil }
        return text
    }

    /// The scalar's text whatever its type (`200` and `"200"` alike), or `nil` for a collection.
    var text: String? {
        guard case .scalar(let scalar) = node else { return nil }
        return scalar.text
    }

    var bool: Bool? {
        guard case .bool(let value)? = scalar else { return nil }
        return value
    }

    var mark: Mark { node.mark }

    /// A JSON pointer token: `~` is `~0`, `/` is `~1` (RFC 6901).
    static func escape(_ token: String) -> String {
        // Bytes, not characters: this runs for every key the importer reads.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// A pointer token read back: `~1` is `/`, `~0` is `~`, and percent-escapes (as URI fragments
    /// carry them) decoded.
    static func unescape(_ token: Substring) -> String {
        var text = String(token)
        if text.contains("%") { text = percentDecoded(text) }
        return text.replacing("~1", with: "/").replacing("~0", with: "~")
    }

    /// `%XX` escapes decoded; a malformed escape, or bytes that are not UTF-8, leave `text` as is.
    static func percentDecoded(_ text: String) -> String {
        PercentEncoding.decoded(text) ?? text
    }
}
