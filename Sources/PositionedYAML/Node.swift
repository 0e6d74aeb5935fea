/// A YAML node as the loader sees it: the tree libyaml's events describe, every node with its mark.
///
/// Scalars keep their text and style; typing (bool, int, ...) is the validator's business, because
/// only it knows what a key expects.
public indirect enum Node: Sendable, Hashable {
    /// A scalar: its text, whether it was plain (unquoted), its explicit tag if any, and where it starts.
    case scalar(Scalar)
    /// A sequence and where it starts.
    case sequence([Node], Mark)
    /// A mapping, in document order, and where it starts. Duplicate keys never get here: they are load errors.
    case mapping([Entry], Mark)

    /// One entry of a mapping: its key and its value.
    ///
    /// A struct, not a `(key:value:)` tuple: an array of tuples is copied and destroyed through the
    /// runtime's generic tuple witnesses (a tenth of loading a large file went to them), a struct
    /// through its own.
    public struct Entry: Sendable, Hashable {
        /// The key, always a scalar.
        public var key: Scalar
        /// The value.
        public var value: Node

        /// Creates an entry.
        public init(key: Scalar, value: Node) {
            self.key = key
            self.value = value
        }
    }

    /// A scalar's text and presentation.
    public struct Scalar: Sendable, Hashable {
        /// The scalar's text, escapes resolved.
        public var text: String
        /// Whether the scalar was written without quotes (only plain scalars are typed as bool/int/null).
        public var isPlain: Bool
        /// An explicit tag such as `tag:yaml.org,2002:str`, if one was written.
        public var tag: String?
        /// Where the scalar starts.
        public var mark: Mark

        /// Creates a scalar.
        public init(text: String, isPlain: Bool = true, tag: String? = nil, mark: Mark) {
            self.text = text
            self.isPlain = isPlain
            self.tag = tag
            self.mark = mark
        }
    }

    /// Where the node starts.
    public var mark: Mark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .sequence(_, let mark): mark
        case .mapping(_, let mark): mark
        }
    }

    public static func == (lhs: Node, rhs: Node) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): a == b
        case (.sequence(let a, let ma), .sequence(let b, let mb)): a == b && ma == mb
        case (.mapping(let a, let ma), .mapping(let b, let mb)):
            ma == mb && a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mark)
    }
}
