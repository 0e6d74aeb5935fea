// `call` and `curl`: the commands that name a case, and their shared entries.

extension OptionItem {
    /// `-h`/`--help` of `call` and `curl`, which answer it themselves (help for an API or a case).
    static let caseHelp = OptionItem.flag(
        "help", "-h", "--help", help: "Show help: for the command, an API or a case.",
        doc: ["`-h`/`--help`: help for the command, the API or the case instead of running it."])

    /// `API CASE [VALUES...] [--name value...]` of `command`.
    static func caseWords(of command: String) -> OptionItem {
        .words(
            "words", valueName: "api-case-values", help: "API CASE [VALUES...] [--name value...]",
            doc: ["`API CASE [VALUES...] [--name value...]`."], parsing: ".allUnrecognized",
            completion: """
                CaseCompletion.kind(of: \(command).self) {
                                .init(words: $0.words, targetPaths: $0.targetArguments.targetPaths)
                            }
                """,
            propertyType: "[String] = \(command)Invocation().words")
    }

    /// curl's `-S` (`--show-error`) where `-S` is not `--stream`: errors are printed already.
    static let curlShowError = OptionItem.flag(
        "showError", "-S",
        help: "As curl's: accepted and changes nothing, since errors are printed already (with -s too).",
        doc: ["`-S`: accepted, as errors are printed already."])

    static let caseValues = OptionItem.repeated(
        "values", "--value", valueName: "name=value",
        help: "Give the case's value NAME (repeatable); for a value named like an option of this command.",
        doc: ["`--value NAME=VALUE`s."], sample: "user=octocat")
}

extension CommandMember {
    static let stub = group("Stubs", "stubArguments", .stub, "stubOptions")
    static let request = group("Request", "requestArguments", .request, "requestOptions")
    static let credential = group(
        "Credentials (replacing the file's auth)", "credentialArguments", .credential, "credentialOptions")
    static let curlHabit = group("curl's habits", "curlHabitArguments", .curlHabit, "curlHabits")
    static let output = group("Output", "outputArguments", .output, "outputOptions")
    static let target = group("Target files", "targetArguments", .target, "targetOptions")
    static let override = group("Ad-hoc changes (for exploring)", "overrideArguments", .override, "overrideOptions")

    /// `@OptionGroup(title:) var property` of `spec`, the invocation's field `field`.
    static func group(_ title: String?, _ property: String, _ spec: OptionGroupSpec, _ field: String) -> Self {
        .group(title: title, property: property, group: spec.name, arguments: spec.arguments, field: field)
    }
}

extension CommandSpec {
    static let call = CommandSpec(
        parent: "MoyaCommand", name: "Call", imports: [],
        members: [
            .own(.caseHelp), .stub, .request, .credential, .curlHabit, .output, .target, .override,
            .group("Pages and captures", "pagingArguments", .paging, "pagingOptions"),
            .group("Recording samples", "recordArguments", .record, "recordOptions"),
            .own(.caseWords(of: "Call")), .own(.caseValues)
        ],
        invocation: InvocationSpec(
            name: "CallInvocation", conformances: ["DirectlyParsable"],
            doc: [
                "A `call` as its command line says: the case's words and values and the plain option groups.", "",
                "`MoyaCommand.Call` makes one from what ArgumentParser parsed; `DirectParser` makes one without",
                "ArgumentParser (see `DirectlyParsable`). Either way, this runs the call."
            ],
            fieldOrder: [
                "help", "words", "values", "stubOptions", "requestOptions", "credentialOptions", "curlHabits",
                "outputOptions", "targetOptions", "overrideOptions", "pagingOptions", "recordOptions"
            ]),
        folder: "Call")

    static let curl = CommandSpec(
        parent: "MoyaCommand", name: "Curl",
        members: [
            .own(.caseHelp), .request, .credential, .curlHabit,
            .group(nil, "curlLetterArguments", .curlCommandLetters, "curlLetters"), .target, .override,
            .own(
                .option(
                    "output", "-o", "--output", valueName: "file", type: "String?",
                    help: "Download destination for download cases.",
                    doc: ["`-o`/`--output`: the download destination of download cases."], sample: "out.bin")),
            .own(
                .flag(
                    "silent", "-s", help: "As curl's: accepted and changes nothing, since only the command is printed.",
                    doc: ["`-s`: accepted, as there is nothing but the command to print."])),
            .own(.curlShowError), .own(.caseWords(of: "Curl")), .own(.caseValues)
        ],
        invocation: InvocationSpec(
            name: "CurlInvocation", conformances: ["DirectlyParsable"],
            doc: [
                "A `curl` as its command line says: the case's words and values, the plain option groups and",
                "the download destination.", "",
                "`MoyaCommand.Curl` makes one from what ArgumentParser parsed; `DirectParser` makes one without",
                "ArgumentParser (see `DirectlyParsable`). Either way, this prints the curl command."
            ],
            fieldOrder: [
                "help", "words", "values", "requestOptions", "credentialOptions", "curlHabits", "curlLetters",
                "targetOptions",
                "overrideOptions", "output", "silent", "showError"
            ]),
        folder: "Curl")
}
