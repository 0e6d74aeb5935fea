import OrderedJSON

/// The JSON body of `moya-cli request`'s data items, built as HTTPie 3 and xh build it from
/// their nested-JSON paths: `user[name]=Ada` sets the key `name` of the object `user`,
/// `tags[]=x` appends to an array, `list[2]=x` sets an index (the missing ones `null`), `[]:=1`
/// makes the body a top-level array, and `\[`, `\]`, `\\` and `\1` (a number as a key) escape.
///
/// A container's type is set by its first use: a key of an array, an index of an object or a
/// nested path through a string is refused naming the item, as HTTPie's "Type Error" does. A key
/// given again replaces its value where it first stood (`x=1 x=2` sends `{"x":"2"}`).
struct NestedJSONBody {
    /// One step of a path: a key of an object, an index of an array, or an append to one.
    enum Step: Equatable {
        case key(String)
        case index(Int)
        case append

        /// As written back in a message: `a` at the root, else `[a]`, `[0]`, `[]`.
        func written(atRoot: Bool) -> String {
            switch self {
            case .key(let key): atRoot ? key : "[\(key)]"
            case .index(let index): "[\(index)]"
            case .append: "[]"
            }
        }
    }

    /// A value being built; a `null` leaf counts as an empty slot, as in HTTPie.
    indirect enum Node {
        case leaf(JSONValue)
        case object([(String, Node)])
        case array([Node])

        init(_ value: JSONValue) {
            switch value {
            case .object(let members): self = .object(members.map { ($0.0, Node($0.1)) })
            case .array(let items): self = .array(items.map(Node.init))
            default: self = .leaf(value)
            }
        }

        var json: JSONValue {
            switch self {
            case .leaf(let value): value
            case .object(let members): .object(members.map { ($0.0, $0.1.json) })
            case .array(let items): .array(items.map(\.json))
            }
        }

        /// HTTPie's names of the JSON types.
        var typeName: String {
            switch self {
            case .object: "object"
            case .array: "array"
            case .leaf(.string): "string"
            case .leaf(.bool): "boolean"
            case .leaf(.null): "null"
            case .leaf: "number"
            }
        }

        var isEmptySlot: Bool {
            if case .leaf(.null) = self { return true }
            return false
        }
    }

    /// The highest array index a path may name: a sparse array is filled with `null`s up to it.
    static let maximumIndex = 100_000

    private var root: Node?

    /// The body: an object (`{}` when nothing was set), or the top-level array.
    var json: JSONValue { root?.json ?? .object([]) }

    /// Puts `value` where `key` (the item's name, its escapes as typed) says.
    mutating func set(_ key: String, to value: JSONValue, item: String) throws(AdHocRequestError) {
        let steps = try Self.steps(of: key, item: item)
        if root == nil { root = Self.container(for: steps[0]) }
        try Self.insert(value, into: &root!, steps: steps[...], done: [], item: item)
    }

    private static func container(for step: Step) -> Node {
        if case .key = step { return .object([]) }
        return .array([])
    }

    private static func insert(
        _ value: JSONValue, into node: inout Node, steps: ArraySlice<Step>, done: [Step], item: String
    ) throws(AdHocRequestError) {
        let step = steps.first!
        let rest = steps.dropFirst()
        let isLast = rest.isEmpty
        switch (step, node) {
        case (.key(let key), .object(var members)):
            node = .leaf(.null)  // let `members` be the only copy while it changes
            let at = members.firstIndex { $0.0 == key }
            if isLast {
                if let at { members[at].1 = Node(value) } else { members.append((key, Node(value))) }
            } else {
                let index = at ?? members.endIndex
                if at == nil { members.append((key, container(for: rest.first!))) }
                do {
                    try insert(value, into: &members[index].1, steps: rest, done: done + [step], item: item)
                } catch {
                    node = .object(members)
                    throw error
                }
            }
            node = .object(members)
        case (.index, .array(var items)), (.append, .array(var items)):
            node = .leaf(.null)
            var position = items.count
            if case .index(let index) = step {
                while items.count <= index { items.append(.leaf(.null)) }
                position = index
            } else {
                items.append(.leaf(.null))
            }
            if isLast {
                items[position] = Node(value)
            } else {
                if items[position].isEmptySlot { items[position] = container(for: rest.first!) }
                do {
                    try insert(value, into: &items[position], steps: rest, done: done + [step], item: item)
                } catch {
                    node = .array(items)
                    throw error
                }
            }
            node = .array(items)
        default:
            let kind: String
            let needed: String
            switch step {
            case .key: (kind, needed) = ("key", "object")
            case .index: (kind, needed) = ("index", "array")
            case .append: (kind, needed) = ("append", "array")
            }
            let path = done.enumerated().map { $0.element.written(atRoot: $0.offset == 0) }.joined()
            throw AdHocRequestError(
                item: item,
                "cannot do \(kind) based access (\(step.written(atRoot: done.isEmpty))) on '\(path)', which is "
                    + "\(article(node.typeName)) \(node.typeName) from an earlier item; it needs \(article(needed)) \(needed)"
            )
        }
    }

    private static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }
}

extension NestedJSONBody {
    private enum Token: Equatable {
        case text(String)
        case number(Int)
        case open
        case close
    }

    /// The path `key` writes, HTTPie 3's grammar: a root (a key, `[N]` or `[]`), then any number of
    /// `[key]`, `[N]` and `[]`.
    static func steps(of key: String, item: String) throws(AdHocRequestError) -> [Step] {
        let tokens = try tokens(of: key, item: item)
        var steps: [Step] = []
        var position = 0
        func next(_ expected: String) throws(AdHocRequestError) -> Token {
            guard position < tokens.count else {
                throw AdHocRequestError(item: item, "has a path that ends early: '\(key)' needs \(expected) next")
            }
            position += 1
            return tokens[position - 1]
        }
        func fail(_ expected: String) -> AdHocRequestError {
            AdHocRequestError(item: item, "has a path that is not HTTPie's: '\(key)' needs \(expected) there")
        }
        func index(_ value: Int) throws(AdHocRequestError) -> Step {
            guard value >= 0 else { throw AdHocRequestError(item: item, "has a negative index (\(value)) in '\(key)'") }
            guard value <= maximumIndex else {
                throw AdHocRequestError(item: item, "has an index over \(maximumIndex) (\(value)) in '\(key)'")
            }
            return .index(value)
        }
        // The root: a key, `[N]` or `[]`.
        switch try next("a name or '['") {
        case .text(let text): steps.append(.key(text))
        case .number(let number): steps.append(.key(String(number)))
        case .open:
            switch try next("a number or ']'") {
            case .number(let number):
                steps.append(try index(number))
                guard try next("']'") == .close else { throw fail("']'") }
            case .close: steps.append(.append)
            default: throw fail("a number or ']'")
            }
        case .close: throw fail("a name or '['")
        }
        while position < tokens.count {
            guard try next("'['") == .open else { throw fail("'['") }
            switch try next("a name, a number or ']'") {
            case .close: steps.append(.append)
            case .text(let text):
                steps.append(.key(text))
                guard try next("']'") == .close else { throw fail("']'") }
            case .number(let number):
                steps.append(try index(number))
                guard try next("']'") == .close else { throw fail("']'") }
            case .open: throw fail("a name, a number or ']'")
            }
            guard steps.count <= JSONValue.maximumParsingDepth else {
                throw AdHocRequestError(item: item, "nests deeper than \(JSONValue.maximumParsingDepth) levels")
            }
        }
        return steps
    }

    /// `[` and `]` are brackets unless a backslash escapes them; `\\` is a backslash; a run of
    /// digits (with a `-`) is a number unless escaped (`\1` is the key `1`).
    private static func tokens(of key: String, item: String) throws(AdHocRequestError) -> [Token] {
        var tokens: [Token] = []
        var buffer = ""
        var escaped = false
        func flush() {
            guard !buffer.isEmpty else { return }
            if !escaped, let number = Self.number(buffer) {
                tokens.append(.number(number))
            } else if !escaped, buffer.hasPrefix("\\"), Self.number(String(buffer.dropFirst())) != nil {
                tokens.append(.text(String(buffer.dropFirst())))
            } else {
                tokens.append(.text(buffer))
            }
            buffer = ""
            escaped = false
        }
        var characters = key[...]
        while let character = characters.popFirst() {
            switch character {
            case "[":
                flush()
                tokens.append(.open)
            case "]":
                flush()
                tokens.append(.close)
            case "\\":
                if let following = characters.first, "[]\\".contains(following) {
                    buffer.append(following)
                    escaped = true
                    characters = characters.dropFirst()
                } else {
                    buffer.append(character)
                }
            default:
                buffer.append(character)
            }
        }
        flush()
        return tokens
    }

    /// `text` as an integer when it is one: an optional `-`, then ASCII digits.
    private static func number(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
    }
}
