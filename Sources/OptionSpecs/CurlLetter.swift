/// One of curl's single-letter options (`curl --help all`), and what moya-cli's `call`, `curl`,
/// `check` and `request` make of it: curl users type them out of habit, and a letter no command
/// declares would fall through to the words (a case value `-I`, an API named `-A`). The table of
/// them is `CurlLetter.all` (Declarations/CurlHabitOptions.swift); `generate-options` declares every
/// letter a command does not declare otherwise, and `DeclarationProblems` checks that each of the
/// four commands has them all.
package struct CurlLetter {
    package enum Answer {
        /// moya-cli declares the letter with curl's meaning (an option of a group the command
        /// holds); `missing`: the commands without that option, each with its refusal.
        case declared(missing: [(command: String, message: String)])
        /// Accepted everywhere, and changes nothing: the message says why.
        case accepted(String)
        /// The curl-habit group declares it and each command decides (Sources/moya-cli/Options/CurlHabitOptions.swift).
        case habit(refusedBy: [String])
        /// Refused everywhere with this message, naming the moya-cli way.
        case refused(String)
        /// Not a letter or a digit (`-#`, `-:`), which ArgumentParser declares no option for: `call`
        /// and `curl` refuse the word with this message before `--` (`CurlWordLetters`), `check` and
        /// `request` as an unknown option.
        case notAnOption(String)
    }

    /// `"A"` for `-A`.
    package var letter: Character
    /// curl's long name (`--user-agent`).
    package var curlName: String
    package var takesValue: Bool
    package var answer: Answer

    package init(_ letter: Character, _ curlName: String, takesValue: Bool = false, _ answer: Answer) {
        self.letter = letter
        self.curlName = curlName
        self.takesValue = takesValue
        self.answer = answer
    }

    /// `-A`.
    package var name: String { "-\(letter)" }

    /// The commands whose line the table covers.
    package static let commands = ["call", "curl", "check", "request"]

    /// What `command` does with the letter: `"maps"` (taken, with curl's meaning or none) or `"refused"`.
    package func outcome(in command: String) -> String {
        switch answer {
        case .declared(let missing):
            return missing.contains { $0.command == command } ? "refused" : "maps"
        case .accepted:
            return "maps"
        case .habit(let refusedBy):
            return refusedBy.contains(command) ? "refused" : "maps"
        case .refused, .notAnOption:
            return "refused"
        }
    }
}

extension OptionItem {
    /// The hidden option of a refused or accepted curl letter: `message` appended to `field` (an
    /// accepted letter: `nil`, nothing noted). It takes a value when curl's does, so that the value
    /// is not read as a word of the command.
    static func curlLetter(_ letter: CurlLetter, message: String?, field: String) -> Self {
        let property = "curl" + (letter.letter.isUppercase ? "Upper" : "") + letter.letter.uppercased()
        let note = message.map { "options.\(field).append(\"\($0)\")" } ?? "_ = options"
        let help = message ?? "Accepted as curl's \(letter.name) (\(letter.curlName))."
        let option =
            letter.takesValue
            ? OptionSpec(
                property: property, kind: .option, names: [letter.name], valueName: "value", help: help,
                propertyType: "String?", assign: "{ (options, _: String) in \(note) }", hidden: true, sample: "x")
            : OptionSpec(
                property: property, kind: .flag, names: [letter.name], help: help,
                assign: "{ options in \(note) }", hidden: true)
        return OptionItem(option: option, field: nil)
    }

    /// The field the refused letters' messages go to, in the order given; made from ArgumentParser's
    /// properties in `letters`' order.
    static func curlRefusals(_ letters: [(CurlLetter, String?)], field: String) -> Self {
        let parts = letters.compactMap { letter, message -> String? in
            guard let message else { return nil }
            let property = "@@curl" + (letter.letter.isUppercase ? "Upper" : "") + letter.letter.uppercased()
            return "curlRefusal(\(property), \"\(message)\")"
        }
        return .field(
            field, type: "[String]", initial: "[]",
            doc: ["The messages of the curl letters given that moya-cli refuses here, in the order given."],
            mapping: "([\n                " + parts.joined(separator: ",\n                ")
                + "\n            ] as [String?]).compactMap { $0 }")
    }
}
