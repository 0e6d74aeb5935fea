/// One option, flag or positional argument of a command, as `generate-options` writes it into
/// moya-cli: its spellings, what it takes, its help, the plain field it sets and the
/// ArgumentParser property that declares it.
///
/// Text here is Swift source as it is written into the generated files: `help` is the contents of
/// a string literal (so `\(PagingOptions.defaultMaxPages)` is an interpolation there), `type`,
/// `initial` and `completion` are a type and expressions.
package struct OptionSpec {
    package enum Kind {
        /// `false` unless given.
        case flag
        /// One value, at most once.
        case option
        /// `--record` or `--record=NAME`; ArgumentParser sees a flag.
        case optionalValue
        /// One value each time it is given.
        case repeated
        /// The command's positional words.
        case words
    }

    /// The ArgumentParser property and, unless `entry` names another, the table entry (`static var`).
    package var property: String
    package var kind: Kind
    /// `["-H", "--header"]`; none for words.
    package var names: [String]
    package var valueName = ""
    package var help: String
    /// The ArgumentParser property's type and initial value; `initial` nil: none (an optional,
    /// or `Bool` of a table flag). For a table option: `nil` type means `= Root().property`.
    package var propertyType: String?
    package var propertyInitial: String?
    /// The table entry's closure, `{ ... }`, setting the plain value from the text.
    package var assign = ""
    package var completion: String?
    /// ArgumentParser's parsing strategy (`.allUnrecognized`, `.singleValue`).
    package var parsing: String?
    /// Hidden from `--help` (shown by `--help-hidden`).
    package var hidden = false
    /// A valid value, for the tests' lines that give every option.
    package var sample: String?
    /// The table entry's name when it is not the property's.
    package var entry: String?

    /// The table entry's name.
    var entryName: String { entry ?? property }

    package init(
        property: String, kind: Kind, names: [String], valueName: String = "", help: String,
        propertyType: String? = nil, propertyInitial: String? = nil, assign: String = "", completion: String? = nil,
        parsing: String? = nil, hidden: Bool = false, sample: String? = nil, entry: String? = nil
    ) {
        self.property = property
        self.kind = kind
        self.names = names
        self.valueName = valueName
        self.help = help
        self.propertyType = propertyType
        self.propertyInitial = propertyInitial
        self.assign = assign
        self.completion = completion
        self.parsing = parsing
        self.hidden = hidden
        self.sample = sample
        self.entry = entry
    }
}

/// A field of a plain value (an option group or a command line): what moya-cli's code reads.
package struct PlainField {
    package var name: String
    package var type: String
    /// The initial value; `nil` for an optional.
    package var initial: String?
    package var doc: [String]
    /// How the ArgumentParser side's value makes it (`timeout?.value`); default: the property of
    /// the same name.
    package var mapping: String?
}

/// One item of a group or command: an option with the field it sets, an option alone, or a field alone.
package struct OptionItem {
    package var option: OptionSpec?
    package var field: PlainField?
}

/// An option group: a plain value (`RequestOptions`), its table, and its ArgumentParser declaration
/// (`RequestArguments`), all three written from `items`.
package struct OptionGroupSpec {
    /// The plain value's name.
    package var name: String
    /// The ArgumentParser declaration's name.
    package var arguments: String
    package var doc: [String]
    /// Modules the generated file imports besides ArgumentParser.
    package var imports: [String] = []
    package var items: [OptionItem]
    /// Whether the declaration's `validate()` runs the plain value's.
    package var validates = true
    /// Whether the declaration spells its `CodingKeys` out.
    package var codingKeys = false
    /// The file the generated code goes to, under Sources/moya-cli.
    package var folder: String
}

/// A command: its ArgumentParser `ParsableCommand`'s stored properties and, for a command
/// `DirectParser` parses, its plain invocation (fields, table, and the conversion from the
/// command ArgumentParser parsed).
package struct CommandSpec {
    /// `MoyaCommand.Call`: the parent and the name.
    package var parent: String
    package var name: String
    package var doc: [String] = []
    package var imports: [String] = []
    package var members: [CommandMember]
    /// The plain invocation, for commands `DirectParser` parses.
    package var invocation: InvocationSpec?
    package var folder: String
}

package struct InvocationSpec {
    package var name: String
    package var conformances: [String]
    package var doc: [String]
    /// The fields in the order of the memberwise initializer, by name.
    package var fieldOrder: [String]
}

/// A stored property of a command.
package enum CommandMember {
    /// `@OptionGroup(title:) var property: Arguments`; with an invocation, its field `field` of
    /// type `group`.
    case group(title: String?, property: String, group: String, arguments: String, field: String)
    /// An option of the command's own.
    case own(OptionItem)
    /// ArgumentParser's own `-h`/`--help`, noted in the invocation's field `help`.
    case builtInHelp
}
