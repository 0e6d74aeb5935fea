import OrderedJSON

/// A path into a JSON document, in the subset of JSONPath (RFC 9535) that names one value:
/// `$`, `$.name`, `$['any name']`, `$.items[0]`, and chains of them (`$.meta.next_cursor`).
///
/// Target files say where a page's items, its next URL or cursor, and a capture are with these.
/// Only single-value selectors are allowed: wildcards, slices, filters and `..` would select
/// several values, and each use here needs exactly one.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of the path.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element, from 0.
        case index(Int)
    }

    /// The steps after `$`, in order.
    public let components: [Component]
    /// The path as written.
    public let source: String

    /// The document itself (`$`).
    public static let root = JSONPath(components: [], source: "$")

    init(components: [Component], source: String) {
        self.components = components
        self.source = source
    }

    /// Parses `text`.
    ///
    /// - Throws: `JSONPathError` saying what is wrong and at which character (0-based).
    public init(parsing text: String) throws(JSONPathError) {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        components = try parser.parse()
        source = text
    }

    public var description: String { source }

    /// The value the path names in `document`, or `nil` when a step finds nothing (a missing
    /// member, an index out of range, or a step into a value of another kind).
    public func value(in document: JSONValue) -> JSONValue? {
        var current = document
        for component in components {
            switch component {
            case .key(let key):
                guard let member = current[key] else { return nil }
                current = member
            case .index(let index):
                guard let element = current[index] else { return nil }
                current = element
            }
        }
        return current
    }

    /// The value the path names in `document`, read in place (as `value(in:)` finds it).
    public func span(in document: JSONSpan) -> JSONSpan? {
        var current = document
        for component in components {
            switch component {
            case .key(let key):
                guard let member = current.member(named: key) else { return nil }
                current = member
            case .index(let index):
                guard let element = current.element(at: index) else { return nil }
                current = element
            }
        }
        return current
    }

    private struct Parser {
        var scalars: [Unicode.Scalar]
        var position = 0

        mutating func parse() throws(JSONPathError) -> [Component] {
            guard scalars.first == "$" else {
                throw JSONPathError(
                    "a JSON path starts with '$' (the whole body), like $.data or $.meta.next_cursor", at: 0)
            }
            position = 1
            var components: [Component] = []
            while position < scalars.count {
                switch scalars[position] {
                case ".":
                    position += 1
                    if position < scalars.count, scalars[position] == "." {
                        throw JSONPathError(
                            "'..' (descendants) selects many values; name one value, like $.data", at: position - 1)
                    }
                    let start = position
                    while position < scalars.count, Self.isNameScalar(scalars[position]) { position += 1 }
                    guard position > start else {
                        if position < scalars.count, scalars[position] == "*" {
                            throw JSONPathError("'*' selects many values; name one member, like $.data", at: position)
                        }
                        throw JSONPathError("expected a member name after '.'", at: position)
                    }
                    components.append(.key(String(String.UnicodeScalarView(scalars[start..<position]))))
                case "[":
                    components.append(try bracket())
                default:
                    throw JSONPathError(
                        "unexpected '\(scalars[position].escaped(asASCII: true))'; write .name, ['name'] or [index]",
                        at: position)
                }
            }
            return components
        }

        /// `['name']`, `["name"]` or `[0]`.
        mutating func bracket() throws(JSONPathError) -> Component {
            let open = position
            position += 1
            guard position < scalars.count else { throw JSONPathError("unclosed '['", at: open) }
            let component: Component
            switch scalars[position] {
            case "'", "\"":
                let quote = scalars[position]
                position += 1
                var name = String.UnicodeScalarView()
                while true {
                    guard position < scalars.count else { throw JSONPathError("unclosed quote in '[...]'", at: open) }
                    let scalar = scalars[position]
                    if scalar == quote { break }
                    if scalar == "\\" {
                        position += 1
                        guard position < scalars.count else {
                            throw JSONPathError("unclosed quote in '[...]'", at: open)
                        }
                    }
                    name.append(scalars[position])
                    position += 1
                }
                position += 1
                component = .key(String(name))
            case "0"..."9":
                let start = position
                while position < scalars.count, ("0"..."9").contains(scalars[position]) { position += 1 }
                let digits = String(String.UnicodeScalarView(scalars[start..<position]))
                guard digits.count <= 9, let index = Int(digits) else {
                    throw JSONPathError("index \(digits) is too large", at: start)
                }
                guard digits == "0" || !digits.hasPrefix("0") else {
                    throw JSONPathError("an index has no leading zeros", at: start)
                }
                component = .index(index)
            case "-":
                throw JSONPathError("negative indices are not supported; count from 0", at: position)
            case "*":
                throw JSONPathError(
                    "'[*]' selects many values; the items of a page are an array: name the array, like $.data",
                    at: position)
            default:
                throw JSONPathError("expected 'name' or an index in '[...]'", at: position)
            }
            guard position < scalars.count, scalars[position] == "]" else {
                throw JSONPathError("expected ']'", at: min(position, scalars.count))
            }
            position += 1
            return component
        }

        static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
            default: scalar.value >= 0x80
            }
        }
    }
}

/// Why a JSON path cannot be read.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The 0-based position (in Unicode scalars) of the problem.
    public var offset: Int

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}
