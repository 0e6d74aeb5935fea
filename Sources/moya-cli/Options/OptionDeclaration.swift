import ArgumentParser

/// One option, flag or argument of a command, declared once: its spellings, what it takes, its
/// help and value name, and how its text sets the group's plain value.
///
/// A group's `table` of these, its plain value and its ArgumentParser declaration are generated
/// (`make options`) from one declaration per option in Sources/OptionSpecs/Declarations.
/// `DirectParser` reads the table to parse a plain command line without ArgumentParser; the
/// group's ArgumentParser declaration takes each wrapper's names and help from the same entry
/// (`@Option(RequestOptions.retry) var retry = RequestOptions().retry`), so the two cannot tell
/// different stories.
///
/// The values are plain structs, not ArgumentParser's wrappers: making a wrapper such as
/// `Option<Double?>` costs its generic metadata and conformance checks at run time, which the
/// direct path exists to avoid.
struct OptionDeclaration<Root> {
    typealias Kind = DirectOptionKind

    /// The spellings, e.g. `["-H", "--header"]`; none for the words.
    let names: [String]
    let kind: Kind
    /// What `--help` says of it; empty for ArgumentParser's own `-h`/`--help`, which it words itself.
    let help: String
    /// The name of its value in `--help` (`--retry <n>`); empty: ArgumentParser's, from the name.
    let valueName: String
    /// Sets the value from `text` (appends, for repeated options and words); `false` when `text`
    /// is not a valid value.
    let assign: (inout Root, String) -> Bool

    /// A flag that is `false` unless given; `set` turns it on.
    static func flag(_ names: String..., help: String, set: @escaping (inout Root) -> Void) -> Self {
        Self(
            names: names, kind: .flag, help: help, valueName: "",
            assign: { root, _ in
                set(&root)
                return true
            })
    }

    /// ArgumentParser's own `-h`/`--help` of a command; `set` notes that it was given.
    static func builtInHelp(set: @escaping (inout Root) -> Void) -> Self {
        Self(
            names: ["-h", "--help"], kind: .flag, help: "", valueName: "",
            assign: { root, _ in
                set(&root)
                return true
            })
    }

    /// An option taking one value, at most once; its text is read as ArgumentParser reads it.
    static func option<Value: ExpressibleByArgument>(
        _ names: String..., valueName: String = "", help: String, set: @escaping (inout Root, Value) -> Void
    ) -> Self {
        Self(
            names: names, kind: .value, help: help, valueName: valueName,
            assign: { root, text in
                guard let value = Value(argument: text) else { return false }
                set(&root, value)
                return true
            })
    }

    /// An option whose value is optional, GNU's way: `--record` alone, or `--record=NAME` (never
    /// `--record NAME`, whose NAME stays a word of the command); `set` gets `nil` for the bare form.
    /// ArgumentParser has no such option: it declares a flag, and the `=NAME` form is handed to it
    /// as another option (see `RecordOptions.spelledForArgumentParser`).
    static func optionalValue(
        _ names: String..., valueName: String = "", help: String, set: @escaping (inout Root, String?) -> Void
    ) -> Self {
        Self(
            names: names, kind: .optionalValue, help: help, valueName: valueName,
            assign: { root, text in
                set(&root, text.isEmpty ? nil : text)
                return true
            })
    }

    /// An option that may be given many times; `append` adds each value.
    static func repeated<Value: ExpressibleByArgument>(
        _ names: String..., valueName: String = "", help: String, append: @escaping (inout Root, Value) -> Void
    ) -> Self {
        Self(
            names: names, kind: .repeated, help: help, valueName: valueName,
            assign: { root, text in
                guard let value = Value(argument: text) else { return false }
                append(&root, value)
                return true
            })
    }

    /// The command's words: what ArgumentParser leaves to its positional argument.
    static func words(valueName: String = "", help: String, append: @escaping (inout Root, String) -> Void) -> Self {
        Self(
            names: [], kind: .words, help: help, valueName: valueName,
            assign: { root, text in
                append(&root, text)
                return true
            })
    }

    /// The options of a group the command holds where `access` says, e.g.
    /// `{ $1(&$0.requestOptions) }`. (A closure rather than a key path: making some forty key paths
    /// costs a run more than the closures.)
    static func group<Group>(
        _ options: [OptionDeclaration<Group>], at access: @escaping (inout Root, (inout Group) -> Void) -> Void
    ) -> [Self] {
        options.map { option in
            let assign = option.assign
            return Self(
                names: option.names, kind: option.kind, help: option.help, valueName: option.valueName,
                assign: { root, text in
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
    /// An option whose value is optional and only given after `=` (`--record`, `--record=NAME`).
    case optionalValue
    /// An option taking one value each time it is given (`-H a -H b`).
    case repeated
    /// The words ArgumentParser leaves over (`.allUnrecognized`): the API, the case, its values.
    case words
}
