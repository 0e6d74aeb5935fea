// `request`, `list`, `validate` and `check`: the other commands `DirectParser` parses.

extension CommandSpec {
    static let request = CommandSpec(
        parent: "MoyaCommand", name: "Request",
        members: [
            .builtInHelp, .request, .credential, .curlHabit, .output, .target,
            .group("Body and query", "overrideArguments", .override, "overrideOptions"),
            .own(
                .flag(
                    "form", "--form",
                    help: "Send NAME=VALUE items as form fields (application/x-www-form-urlencoded) instead of JSON.",
                    doc: ["`--form`: `name=value` items are form fields, not JSON."])),
            .own(
                .option(
                    "auth", "--auth", valueName: "scheme", type: "String?",
                    help:
                        "Send the API's auth scheme SCHEME, or none (default: the API's default auth, as a case without auth: gets).",
                    doc: ["`--auth NAME|none`."],
                    completion: #"CaseCompletion.optionValue(.schemeName, in: ["request"])"#, sample: "basic")),
            .own(
                .option(
                    "saveAs", "--save-as", valueName: "case", type: "String?",
                    help:
                        "Once the request succeeds, add it to the API's target file as the case CASE (the file's other bytes kept; secret headers as ${secret:VAR}; -u/--bearer as an auth scheme). For a URL, API.CASE: added to API's file, or a new targets/API.yaml.",
                    doc: ["`--save-as CASE|API.CASE`: add the request to the API's target file once it succeeds."],
                    sample: "newCase")),
            .own(
                .flag(
                    "offline", "--offline",
                    help:
                        "Send nothing: print the request to stdout as -v's '>' lines show it (secrets redacted); with --curl, as a curl command; with --save-as, save it unsent. As HTTPie's and xh's --offline.",
                    doc: ["`--offline`: print (or save) the request instead of sending it."])),
            .own(
                .flag(
                    "saveSample", "--save-sample",
                    help:
                        "With --save-as, save the response as the case's sample (a large or binary body in a file beside the target file).",
                    doc: ["`--save-sample`: with `--save-as`, the response becomes the case's sample."])),
            .own(
                .words(
                    "words", valueName: "request",
                    help: "API METHOD PATH [ITEM...], or METHOD URL [ITEM...] without a target file.",
                    doc: ["`API METHOD PATH [ITEM...]` or `METHOD URL [ITEM...]`."],
                    completion: "RequestCompletion.kind", propertyType: "[String] = RequestInvocation().words"))
        ],
        invocation: InvocationSpec(
            name: "RequestInvocation", conformances: ["DirectlyParsable"],
            doc: [
                "A `request` as its command line says: `[API] METHOD PATH|URL [ITEM...]` and the option groups",
                "it shares with `call` (request, output, target files, `--query`/`--json`/`--data`), plus its own.", "",
                "`MoyaCommand.Request` makes one from what ArgumentParser parsed; `DirectParser` makes one",
                "without ArgumentParser. Either way, this sends the request as `call` sends a case."
            ],
            fieldOrder: [
                "help", "words", "form", "auth", "saveAs", "offline", "saveSample", "requestOptions",
                "credentialOptions",
                "curlHabits", "outputOptions", "targetOptions", "overrideOptions"
            ]),
        folder: "Request")

    static let list = CommandSpec(
        parent: "MoyaCommand", name: "List",
        members: [
            .builtInHelp,
            .own(
                .words(
                    "words", help: "An API name; omit to list every API.", doc: ["The words: at most one, the API."],
                    completion: """
                        CaseCompletion.kind(of: .apiName, in: ["list"]) { words in
                                        (try? List.parse(words)).map {
                                            CaseCompletion.Context(words: [], targetPaths: $0.targetArguments.targetPaths)
                                        }
                                    }
                        """,
                    property: "api", propertyType: "String?", mapping: "@@api.map { [$0] } ?? []")),
            .own(
                .option(
                    "format", "--format", type: "ListFormat", initial: ".table", help: "Output format.", sample: "json")
            ),
            .group(nil, "targetArguments", .target, "targetOptions")
        ],
        invocation: InvocationSpec(
            name: "ListInvocation", conformances: ["DirectlyParsable"],
            doc: [
                "A `list` as its command line says: the API named, if any, the format and the target options.", "",
                "`MoyaCommand.List` makes one from what ArgumentParser parsed; `DirectParser` makes one without",
                "ArgumentParser, declining anything else (an unknown option, a second API, `-`, `--`), which",
                "ArgumentParser then answers."
            ],
            fieldOrder: ["help", "words", "format", "targetOptions"]),
        folder: "List")

    static let validate = CommandSpec(
        parent: "MoyaCommand", name: "Validate",
        members: [
            .builtInHelp,
            .own(
                .words(
                    "files", valueName: "file", help: "Target files or folders to validate; default: every file found.",
                    doc: ["Target files or folders; none: every file found."],
                    completion: #".file(extensions: ["yaml", "yml"])"#)),
            .group(nil, "targetArguments", .target, "targetOptions")
        ],
        invocation: InvocationSpec(
            name: "ValidateInvocation", conformances: ["DirectlyParsable"],
            doc: [
                "A `validate` as its command line says: the files or folders named, and the target options.", "",
                "`MoyaCommand.Validate` makes one from what ArgumentParser parsed; `DirectParser` makes one",
                "without ArgumentParser (its reflection was a third of validating a small file), declining",
                "anything else (an unknown option, `-h`, `--`), which ArgumentParser then answers."
            ],
            fieldOrder: ["help", "files", "targetOptions"]),
        folder: "Validate")

    static let check = CommandSpec(
        parent: "MoyaCommand", name: "Check", imports: ["TargetCheck"],
        members: [
            .builtInHelp,
            .own(
                .words(
                    "apis", valueName: "api", help: "The APIs to check; default: every API found.",
                    doc: ["The APIs to check; none: every API found."],
                    completion: #"CaseCompletion.kind(of: .apiName, in: ["check"], parsing: completionContext)"#)),
            .group("Check", "checkArguments", .check, "checkOptions"), .request, .curlHabit,
            .group(nil, "curlLetterArguments", .checkCurlLetters, "curlLetters"), .target,
            .group("Recording samples (with --live)", "recordArguments", .record, "recordOptions"),
            .own(.curlShowError)
        ],
        invocation: InvocationSpec(
            name: "CheckInvocation", conformances: ["DirectlyParsable"],
            doc: [
                "A `check` as its command line says: the APIs named, the check options, the request and target",
                "options.", "",
                "`MoyaCommand.Check` makes one from what ArgumentParser parsed; `DirectParser` makes one without",
                "ArgumentParser (whose reflection of `check`'s option groups costs every run start-up time),",
                "declining anything else (an unknown option, `-`, `--`), which ArgumentParser then answers."
            ],
            fieldOrder: [
                "help", "apis", "checkOptions", "requestOptions", "curlHabits", "curlLetters", "targetOptions",
                "recordOptions", "showError"
            ]),
        folder: "Check")
}
