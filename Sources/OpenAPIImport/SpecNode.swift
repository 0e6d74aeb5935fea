import PositionedYAML
import TargetModel
import TextSafety

/// A node of the OpenAPI document with the JSON pointer that reaches it, so every problem and
/// every note can say where in the spec it comes from (`#/paths/~1users/get/parameters/0`).
struct SpecNode {
    let node: Node
    private let path: Path

    /// The JSON pointer, written out: only problems and notes need it, so it is made when asked
    /// rather than at every step down the document.
    var pointer: String { path.text }

    /// The pointer of the document's root the node is in (`#`, or `schemas/user.yaml#`).
    var rootPointer: String { path.rootPointer }

    init(node: Node, pointer: String) {
        self.node = node
        path = Path(parent: nil, token: .root(pointer))
    }

    private init(node: Node, parent: Path, token: Path.Token) {
        self.node = node
        path = Path(parent: parent, token: token)
    }

    /// The member `key` of a mapping, if this is a mapping that has it.
    subscript(key: String) -> SpecNode? {
        guard case .mapping(let entries, _) = node else { return nil }
        for entry in entries where entry.key.text == key {
            return SpecNode(node: entry.value, parent: path, token: .key(key))
        }
        return nil
    }

    /// The mapping's members in document order, or `nil` when this is not a mapping.
    var members: [(key: String, value: SpecNode)]? {
        guard case .mapping(let entries, _) = node else { return nil }
        return entries.map { ($0.key.text, SpecNode(node: $0.value, parent: path, token: .key($0.key.text))) }
    }

    /// The sequence's elements, or `nil` when this is not a sequence.
    var elements: [SpecNode]? {
        guard case .sequence(let items, _) = node else { return nil }
        return items.enumerated().map { SpecNode(node: $0.element, parent: path, token: .index($0.offset)) }
    }

    /// The way from the document's root to a node, one token a step.
    private final class Path: Sendable {
        enum Token: Sendable {
            /// The pointer of the root (`#`, or `schemas/user.yaml#` for another file).
            case root(String)
            case key(String)
            case index(Int)
        }

        let parent: Path?
        let token: Token

        init(parent: Path?, token: Token) {
            self.parent = parent
            self.token = token
        }

        var rootPointer: String {
            var path = self
            while let parent = path.parent { path = parent }
            guard case .root(let pointer) = path.token else { return "#" }
            return pointer
        }

        var text: String {
            var steps: [Path] = []
            var step: Path? = self
            while let path = step {
                steps.append(path)
                step = path.parent
            }
            var text = ""
            for path in steps.reversed() {
                switch path.token {
                case .root(let pointer): text += pointer
                case .key(let key):
                    text += "/"
                    text += SpecNode.escape(key)
                case .index(let index):
                    text += "/"
                    text += String(index)
                }
            }
            return text
        }
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
        // Bytes, not characters, and no `replacing(_:with:)`: keys are escaped for every note.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.utf8.count + 4)
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
