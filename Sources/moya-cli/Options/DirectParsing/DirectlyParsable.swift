/// A command line `DirectParser` can parse without ArgumentParser: a plain value (`CallInvocation`,
/// `CurlInvocation`) that holds what the command's options say and runs the command.
///
/// Its `table` is made of its option groups' tables and its own entries, which the command's
/// ArgumentParser declaration reads too (see `OptionDeclaration`).
protocol DirectlyParsable: Equatable {
    /// Every option is at its default.
    init()
    /// Every option, flag and argument of the command.
    static var table: [OptionDeclaration<Self>] { get }
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
