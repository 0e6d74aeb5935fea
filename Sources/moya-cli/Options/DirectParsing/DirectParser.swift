/// Parses the plain, well-formed command lines of `call`, `curl`, `validate`, `list` and `check` without ArgumentParser.
///
/// ArgumentParser builds its model of a command by reflection on every run, most of a stubbed
/// call's start-up (budget "call --stub (github zen)", bench/budgets.json). Scripts run `call` in
/// loops, so the common case is parsed here, from the `DirectlyParsable` tables, into the plain
/// invocation (`CallInvocation`) that ArgumentParser's command value would make; no ArgumentParser
/// type is made on the way.
///
/// Anything this parser is not certain of returns `nil`, and the caller hands the line to
/// ArgumentParser, which stays the one source of help, completion and error messages: help and
/// the options ArgumentParser answers itself, `--`, `-`, words starting with one dash that are not
/// an option (`-ik`, `-5`), a value that starts with `-` (also after a case value's `--name`), an
/// option given twice, a flag with `=value`, an invalid value, and anything `validate()` refuses.
enum DirectParser {
    /// Options ArgumentParser answers wherever they appear.
    ///
    /// The lookups here are linear over a few dozen names, without a `Set` or `Dictionary`: a
    /// command line has a handful of words, and the first hashed collection of a type costs a run
    /// a scan of the binary's conformance records for its `Hashable` conformance.
    static let builtInOptions: [String] = [
        "--help", "--help-hidden", "--version", "--experimental-dump-help", "--generate-completion-script"
    ]

    /// `arguments` (after the command's name) parsed as `Command`, or `nil` to leave them to ArgumentParser.
    static func parse<Command: DirectlyParsable>(_ arguments: [String], as _: Command.Type = Command.self) -> Command? {
        let options = Command.table
        guard let words = options.firstIndex(where: { $0.kind == .words }) else { return nil }

        var command = Command()
        // Whether each option was given already (a second time is ArgumentParser's to refuse).
        var given = [Bool](repeating: false, count: options.count)
        var position = 0
        while position < arguments.count {
            let argument = arguments[position]
            position += 1
            guard argument.hasPrefix("-") else {
                _ = options[words].assign(&command, argument)
                continue
            }
            let (name, inlineValue) = split(argument)
            guard !builtInOptions.contains(name), !name.hasPrefix("---") else { return nil }
            guard let index = options.firstIndex(where: { $0.names.contains(name) }) else {
                // An unknown `--name` is a case value by name, left to the command like any word.
                guard Command.takesValueNames, isCaseValueName(name) else { return nil }
                _ = options[words].assign(&command, argument)
                // `--name -x`: whether `-x` is the value or an option is ArgumentParser's to say.
                if inlineValue == nil, position < arguments.count, arguments[position].hasPrefix("-") { return nil }
                continue
            }
            let option = options[index]
            switch option.kind {
            case .flag:
                guard inlineValue == nil, !given[index] else { return nil }
                given[index] = true
                _ = option.assign(&command, "")
            case .value, .repeated:
                guard option.kind == .repeated || !given[index] else { return nil }
                given[index] = true
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard position < arguments.count, !arguments[position].hasPrefix("-") else { return nil }
                    value = arguments[position]
                    position += 1
                }
                guard option.assign(&command, value) else { return nil }
            case .optionalValue:
                // `--record=` (an empty name) is ArgumentParser's to refuse.
                guard !given[index], inlineValue?.isEmpty != true else { return nil }
                given[index] = true
                _ = option.assign(&command, inlineValue ?? "")
            case .words:
                return nil
            }
        }
        do {
            try command.validate()
        } catch {
            return nil
        }
        return command
    }

    /// `--name=value` as its name and value; other words as themselves without a value.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Whether `name` reads as `--name` of a case value: two dashes, then letters, digits, `-` or `_`.
    private static func isCaseValueName(_ name: String) -> Bool {
        let body = name.utf8.dropFirst(2)
        guard name.hasPrefix("--"), let first = body.first, first != UInt8(ascii: "-") else { return false }
        return body.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
    }
}
