import ArgumentParser

/// A command line `DirectParser` can parse without ArgumentParser: a plain value (`CallInvocation`,
/// `CurlInvocation`) that holds what the command's options say and runs the command.
///
/// The table must list every option of the command; `DirectParserTests` compares it with what
/// ArgumentParser declares and checks that both parse alike.
protocol DirectlyParsable: Equatable {
    /// Every option is at its default.
    init()
    /// Every option, flag and argument of the command.
    static var directOptions: [DirectOption<Self>] { get }
    /// Refuses what ArgumentParser's `validate()` of the command and its groups refuses.
    func validate() throws(OptionsError)
    /// Does what the command does.
    func run() throws
    /// Whether an unknown `--name` is a word of the command (a case value by name, for `call` and
    /// `curl`); when not, such a line is left to ArgumentParser, which refuses it. Default: yes.
    static var takesValueNames: Bool { get }
}

extension DirectlyParsable {
    static var takesValueNames: Bool { true }
}

/// One option of a command, as `DirectParser` sees it: its spellings, what it takes, and how to
/// set it on a value of the command.
///
/// The values are plain structs, not ArgumentParser's wrappers: making a wrapper such as
/// `Option<Double?>` costs its generic metadata and conformance checks at run time, which came to
/// about 0.85 ms a run when the command value itself was made.
struct DirectOption<Root> {
    typealias Kind = DirectOptionKind

    /// The spellings, e.g. `["-H", "--header"]`.
    let names: [String]
    let kind: Kind
    /// Sets the value from `text` (appends, for repeated options and words); `false` when `text`
    /// is not a valid value.
    let assign: (inout Root, String) -> Bool

    /// A flag that is `false` unless given; `set` turns it on.
    static func flag(_ names: String..., set: @escaping (inout Root) -> Void) -> Self {
        Self(names: names, kind: .flag, assign: { root, _ in set(&root); return true })
    }

    /// An option taking one value, at most once; its text is read as ArgumentParser reads it.
    static func option<Value: ExpressibleByArgument>(_ names: String..., set: @escaping (inout Root, Value) -> Void) -> Self {
        Self(names: names, kind: .value, assign: { root, text in
            guard let value = Value(argument: text) else { return false }
            set(&root, value)
            return true
        })
    }

    /// An option that may be given many times; `append` adds each value.
    static func repeated<Value: ExpressibleByArgument>(_ names: String..., append: @escaping (inout Root, Value) -> Void) -> Self {
        Self(names: names, kind: .repeated, assign: { root, text in
            guard let value = Value(argument: text) else { return false }
            append(&root, value)
            return true
        })
    }

    /// The words ArgumentParser leaves to the command (`@Argument(parsing: .allUnrecognized)`).
    static func words(append: @escaping (inout Root, String) -> Void) -> Self {
        Self(names: [], kind: .words, assign: { root, text in append(&root, text); return true })
    }

    /// The options of a group the command holds where `access` says, e.g.
    /// `{ $1(&$0.requestOptions) }`. (A closure rather than a key path: making some forty key paths
    /// costs about 0.4 ms a run.)
    static func group<Group>(_ options: [DirectOption<Group>], at access: @escaping (inout Root, (inout Group) -> Void) -> Void) -> [Self] {
        options.map { option in
            let assign = option.assign
            return Self(names: option.names, kind: option.kind, assign: { root, text in
                var assigned = false
                access(&root) { assigned = assign(&$0, text) }
                return assigned
            })
        }
    }
}

/// What an option takes, for `DirectParser`.
enum DirectOptionKind {
    /// A Boolean flag, `false` unless given.
    case flag
    /// An option taking one value, at most once.
    case value
    /// An option taking one value each time it is given (`-H a -H b`).
    case repeated
    /// The words ArgumentParser leaves over (`.allUnrecognized`): the API, the case, its values.
    case words
}
