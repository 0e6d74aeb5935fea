/// What would make the generated code wrong or not compile, found in the declarations before
/// anything is written: `generate-options` refuses to write while there is one, and
/// `OptionSpecsTests` fails.
package enum DeclarationProblems {
    /// One line per problem, naming the command and the option.
    package static func all() -> [String] {
        var problems: [String] = []
        for (command, _) in GeneratedFiles.commands {
            let place = "\(command.parent).\(command.name)"
            var spellings: [String] = []
            for option in options(of: command) {
                problems += check(option, in: place)
                for name in option.names {
                    if spellings.contains(name) { problems.append("\(place): \(name) is declared twice") }
                    spellings.append(name)
                }
            }
        }
        return problems + curlLetterProblems()
    }

    /// Each of `call`, `curl`, `check` and `request` declares every curl letter of `CurlLetter.all`
    /// (but those ArgumentParser refuses itself), so that none falls through to the words.
    static func curlLetterProblems() -> [String] {
        var problems: [String] = []
        for (command, _) in GeneratedFiles.commands
        where CurlLetter.commands.contains(command.name.lowercased()) {
            let names =
                options(of: command).flatMap(\.names)
                + (command.members.contains { if case .builtInHelp = $0 { true } else { false } } ? ["-h"] : [])
            for letter in CurlLetter.all where !names.contains(letter.name) {
                if case .notAnOption = letter.answer { continue }
                problems.append("\(command.parent).\(command.name): curl's \(letter.name) is not declared")
            }
        }
        return problems
    }

    /// The options of `command`, its groups' included.
    static func options(of command: CommandSpec) -> [OptionSpec] {
        command.members.flatMap { member -> [OptionSpec] in
            switch member {
            case .group(_, _, let group, _, _):
                return GeneratedFiles.groups.first { $0.spec.name == group }?.spec.items.compactMap(\.option) ?? []
            case .own(let item):
                return item.option.map { [$0] } ?? []
            case .builtInHelp:
                return []
            }
        }
    }

    /// A help that would end its string literal or line, a spelling that is not `-x` or `--name`,
    /// and an option of a table taking a value without the sample the tests give it.
    package static func check(_ option: OptionSpec, in place: String) -> [String] {
        var problems: [String] = []
        let label = "\(place) \(option.names.first ?? option.property)"
        if option.help.isEmpty { problems.append("\(label): no help") }
        if option.help.contains("\n") || option.help.contains("\r") {
            problems.append("\(label): the help holds a line break (write it on one line)")
        }
        var escaped = false
        for character in option.help {
            if character == "\"" && !escaped {
                problems.append("\(label): the help holds an unescaped \" (write \\\")")
                break
            }
            escaped = character == "\\" && !escaped
        }
        for name in option.names {
            let body = name.hasPrefix("--") ? name.dropFirst(2) : name.dropFirst()
            let valid =
                name.hasPrefix("-") && !body.isEmpty && (name.hasPrefix("--") || body.count == 1)
                && body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } && body.first != "-"
            if !valid { problems.append("\(label): '\(name)' is not -x or --name") }
        }
        let takesValue = option.kind == .option || option.kind == .repeated || option.kind == .optionalValue
        if takesValue && !option.assign.isEmpty && option.sample == nil {
            problems.append("\(label): no sample value for the tests")
        }
        return problems
    }
}
