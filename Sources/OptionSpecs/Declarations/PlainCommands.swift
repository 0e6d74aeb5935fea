// The commands only ArgumentParser parses: `serve`, the four imports, `generate swift`, `auth`, `trust`
// and `session`.

extension OptionItem {
    /// `-o`/`--output FILE` of the imports, completed with target files.
    static func importOutput(_ help: String) -> OptionItem {
        .plain(
            .option, "output", "-o", "--output", valueName: "file", help: help, type: "String?",
            completion: #".file(extensions: ["yaml", "yml"])"#)
    }

    /// `--force` of the writers.
    static func force(_ help: String) -> OptionItem {
        .plain(.flag, "force", "--force", help: help, type: "Bool", initial: "false")
    }

    /// The completion of a command's one API word, from the `--targets` given before it.
    static func apiCompletion(_ words: String, command: String) -> String {
        """
        CaseCompletion.kind(of: .apiName, in: [\(words)]) { words in
                        (try? \(command).parse(words)).map {
                            CaseCompletion.Context(words: [], targetPaths: $0.targetArguments.targetPaths)
                        }
                    }
        """
    }
}

extension CommandSpec {
    /// `--proxy=URL` is handed to ArgumentParser, which has no option whose value is optional, as
    /// the hidden `--proxy-url=URL` (`ServeArguments.spelledForArgumentParser`).
    static let proxyURL: OptionItem = {
        var item = OptionItem.plain(
            .option, "proxyURL", "--proxy-url", valueName: "url", help: "The URL --proxy=URL forwards to.",
            type: "String?")
        item.option?.hidden = true
        return item
    }()

    static let serve = CommandSpec(
        parent: "MoyaCommand", name: "Serve",
        members: [
            .own(
                .plain(
                    .words, "apis", help: "The APIs to serve; omit to serve every API found.", type: "[String]",
                    initial: "[]", completion: OptionItem.apiCompletion(#""serve""#, command: "Serve"))),
            .own(
                .plain(
                    .option, "port", "--port", valueName: "port", help: "The port to listen on (0: any free port).",
                    type: "Int", initial: "8080")),
            .own(
                .plain(
                    .option, "host", "--host", valueName: "address",
                    help: "The address to listen on; anything but loopback must be asked for here.", type: "String",
                    initial: #""127.0.0.1""#)),
            .own(
                .plain(
                    .option, "delay", "--delay", valueName: "seconds",
                    help: "Wait SECONDS (a decimal number) before each sample response, as --stub --delay.",
                    type: "DecimalNumber?")),
            .own(
                .plain(
                    .option, "environmentName", "--env", valueName: "name",
                    help: "Use each API's environment NAME (its base URL path and variables).", type: "String?",
                    completion: #"CaseCompletion.optionValue(.environmentName, in: ["serve"])"#)),
            .own(
                .plain(
                    .option, "sample", "--sample", valueName: "name",
                    help: "Answer with the sample NAME in every case that has one (others: their default).",
                    type: "String?")),
            .own(
                .plain(
                    .flag, "noCORS", "--no-cors",
                    help: "Answer no CORS preflight and add no Access-Control-* headers (CORS is on by default).",
                    type: "Bool", initial: "false")),
            .own(
                .plain(
                    .repeated, "corsOrigins", "--cors-origin", valueName: "origin",
                    help:
                        "Allow only the page origin ORIGIN (http://localhost:3000) to call the mock (repeatable; default: any).",
                    type: "[String]", initial: "[]")),
            .own(
                .plain(
                    .flag, "noValidate", "--no-validate",
                    help: "Do not check request bodies against their case (400 malformed JSON, 422 values at fault).",
                    type: "Bool", initial: "false")),
            .own(
                .plain(
                    .flag, "proxy", "--proxy",
                    help:
                        "Forward what no case answers (and a request with Prefer: proxy) to the live API, its auth applied as call applies it; --proxy=URL: to URL instead of the base URL.",
                    type: "Bool", initial: "false")),
            .own(proxyURL),
            .own(
                .plain(
                    .flag, "record", "--record",
                    help:
                        "With --proxy: write a live answer to a declared case (Prefer: proxy) into its target file as its sample, as call --record does.",
                    type: "Bool", initial: "false")),
            .own(
                .plain(
                    .flag, "noAuth", "--no-auth",
                    help: "Do not ask for credentials (401 with WWW-Authenticate when a case's auth finds none).",
                    type: "Bool", initial: "false")),
            .target
        ],
        folder: "Serve")

    static let importOpenAPI = CommandSpec(
        parent: "MoyaCommand.Import", name: "OpenAPI",
        members: [
            .own(
                .plain(
                    .words, "spec", valueName: "spec", help: "The OpenAPI document: a file, or - for standard input.",
                    type: "String", completion: #".file(extensions: ["yaml", "yml", "json"])"#)),
            .own(
                .plain(
                    .option, "apiName", "--api", valueName: "name",
                    help:
                        "The API's name, and the prefix of its credentials' variables (default: the -o file's name; else from info.title, the variables then starting with MOYA_).",
                    type: "String?")),
            .own(.importOutput("Where to write the target file; - for standard output (default: targets/API.yaml).")),
            .own(
                .plain(
                    .repeated, "only", "--only", valueName: "tag|path-glob",
                    help:
                        "Import only operations with this tag or operationId, or whose path matches this glob (starting with /; * within a segment, ** across). Repeatable.",
                    type: "[String]", initial: "[]", parsing: ".singleValue")),
            .own(.force("Replace an existing target file."))
        ],
        folder: "Import")

    static let importCurl = CommandSpec(
        parent: "MoyaCommand.Import", name: "FromCurl",
        doc: ["`moya-cli import curl [FILE|-] --api NAME --case NAME`."],
        members: [
            .own(
                .plain(
                    .words, "input", valueName: "file",
                    help: "The file of curl commands, or - for standard input (the default).", type: "String",
                    initial: #""-""#, completion: ".file()")),
            .own(
                .plain(
                    .option, "apiName", "--api", valueName: "name",
                    help: "The API's name, and the prefix of its secrets' variables.", type: "String")),
            .own(
                .plain(
                    .option, "caseName", "--case", valueName: "name",
                    help: "The first command's case name; the others get it followed by 2, 3, ….", type: "String")),
            .own(
                .importOutput("The target file to write or add to; - for standard output (default: targets/API.yaml).")),
            .own(
                .plain(
                    .repeated, "only", "--only", valueName: "n",
                    help: "Import only the Nth command (counting from 1). Repeatable.", type: "[Int]", initial: "[]",
                    parsing: ".singleValue")),
            .own(.force("Replace an existing target file instead of adding the cases to it."))
        ],
        folder: "Import/Curl")

    static let importHAR = CommandSpec(
        parent: "MoyaCommand.Import", name: "FromHAR",
        doc: ["`moya-cli import har FILE`."],
        members: [
            .own(
                .plain(
                    .words, "input", valueName: "file", help: "The HAR file, or - for standard input.", type: "String",
                    completion: #".file(extensions: ["har", "json"])"#)),
            .own(
                .plain(
                    .option, "apiName", "--api", valueName: "name",
                    help: "The API's name when the capture (or --only) has one host (default: from the host).",
                    type: "String?")),
            .own(.importOutput("The target file for the one API; - for standard output (default: targets/API.yaml).")),
            .own(
                .plain(
                    .repeated, "only", "--only", valueName: "host",
                    help: "Import only the requests to this host. Repeatable.", type: "[String]", initial: "[]",
                    parsing: ".singleValue")),
            .own(.force("Replace existing target files."))
        ],
        folder: "Import/HAR")

    static let importSwift = CommandSpec(
        parent: "MoyaCommand.Import", name: "FromSwift",
        doc: ["`moya-cli import swift FILE|FOLDER...`."],
        members: [
            .own(
                .plain(
                    .words, "inputs", valueName: "file",
                    help: "The Swift files, or folders whose .swift files are read.", type: "[String]",
                    completion: #".file(extensions: ["swift"])"#)),
            .own(
                .plain(
                    .option, "apiName", "--api", valueName: "name",
                    help:
                        "The API's name (default: from the type's name); with several TargetType types, the one of that name.",
                    type: "String?")),
            .own(.importOutput("The target file for the one API; - for standard output (default: targets/API.yaml).")),
            .own(
                .plain(
                    .option, "samples", "--samples", valueName: "dir",
                    help: "The folder of the app's stub files (Me.json for a stub named Me).", type: "String?",
                    completion: ".directory")),
            .own(.force("Replace existing target files."))
        ],
        folder: "Import/Swift")

    static let importPostman = CommandSpec(
        parent: "MoyaCommand.Import", name: "FromPostman",
        doc: ["`moya-cli import postman FILE`."],
        members: [
            .own(
                .plain(
                    .words, "input", valueName: "file", help: "The collection file, or - for standard input.",
                    type: "String", completion: #".file(extensions: ["json"])"#)),
            .own(
                .plain(
                    .option, "apiName", "--api", valueName: "name",
                    help: "The API's name (default: from the collection's name).", type: "String?")),
            .own(.importOutput("The target file; - for standard output (default: targets/API.yaml).")),
            .own(
                .plain(
                    .option, "environment", "--environment", valueName: "file",
                    help: "A Postman environment file whose values become an environment.", type: "String?",
                    completion: #".file(extensions: ["json"])"#)),
            .own(
                .plain(
                    .repeated, "only", "--only", valueName: "name",
                    help:
                        "Import only the requests this names: a folder, a request, a Folder/Request path or a case name. Repeatable.",
                    type: "[String]", initial: "[]", parsing: ".singleValue")),
            .own(.force("Replace an existing target file."))
        ],
        folder: "Import/Postman")

    static let generateSwift = CommandSpec(
        parent: "MoyaCommand.Generate", name: "Swift", imports: ["SwiftGeneration"],
        members: [
            .own(
                .plain(
                    .words, "api", help: "The API to write.", type: "String",
                    completion: OptionItem.apiCompletion(#""generate", "swift""#, command: "Swift"))),
            .own(
                .plain(
                    .option, "output", "-o", "--output", valueName: "file",
                    help: "Where to write the Swift file; - for standard output (the default).", type: "String",
                    initial: #""-""#, completion: #".file(extensions: ["swift"])"#)),
            .own(
                .plain(
                    .option, "typeName", "--type-name", valueName: "name",
                    help: "The enum's name (default: the API name in UpperCamelCase).", type: "String?")),
            .own(
                .plain(
                    .option, "module", "--module", valueName: "module",
                    help: "The library the file imports: Moya (Moya 15, the default, as an app has it) or MoyaKit.",
                    type: "SwiftGenerationOptions.Module", initial: ".moya")),
            .own(
                .plain(
                    .option, "access", "--access", valueName: "level",
                    help: "The access level of the declarations: public or internal.",
                    type: "SwiftGenerationOptions.Access", initial: ".public")),
            .own(
                .plain(
                    .flag, "examples", "--examples",
                    help:
                        "Also write NAME.examples: each example of the target file as a case, with the moya-cli call words that send the same request.",
                    type: "Bool", initial: "false")),
            .own(.force("Replace an existing file.")),
            .target
        ],
        folder: "Generate")

    static let auth = CommandSpec(
        parent: "MoyaCommand", name: "Auth",
        members: [
            .own(
                .plain(
                    .words, "api", help: "The API whose credentials to show.", type: "String",
                    completion: OptionItem.apiCompletion(#""auth""#, command: "Auth"))),
            .own(
                .plain(
                    .option, "scheme", "--scheme", valueName: "name", help: "Only this auth scheme of the API.",
                    type: "String?", completion: #"CaseCompletion.optionValue(.schemeName, in: ["auth"])"#)),
            .own(
                .plain(
                    .option, "environmentName", "--env", valueName: "name",
                    help: "Resolve variables in the API's environment NAME.", type: "String?",
                    completion: #"CaseCompletion.optionValue(.environmentName, in: ["auth"])"#)),
            .own(
                .plain(
                    .flag, "showSecrets", "--show-secrets", help: "Print the cached access token (and refresh token).",
                    type: "Bool", initial: "false")),
            .own(
                .plain(
                    .flag, "logout", "--logout", help: "Delete the API's cached OAuth 2.0 tokens.", type: "Bool",
                    initial: "false")),
            .target
        ],
        folder: "Auth")

    static let trust = CommandSpec(
        parent: "MoyaCommand", name: "Trust",
        members: [
            .own(
                .plain(
                    .words, "paths", valueName: "path",
                    help: "Target files or folders to trust (or, with --revoke, to stop trusting).", type: "[String]",
                    initial: "[]", completion: #".file(extensions: ["yaml", "yml"])"#)),
            .own(
                .plain(
                    .flag, "list", "--list", help: "List every grant and whether the file still has the bytes granted.",
                    type: "Bool", initial: "false")),
            .own(
                .plain(
                    .flag, "revoke", "--revoke",
                    help: "Stop trusting the paths given (a folder: every grant under it).", type: "Bool",
                    initial: "false"))
        ],
        folder: "Trust")

    static let session = CommandSpec(
        parent: "MoyaCommand", name: "Session",
        members: [
            .own(
                .plain(
                    .words, "words", valueName: "list|show|clear> <api> <name",
                    help:
                        "list API: the API's sessions; show API NAME: a session's cookies; clear API [NAME]: delete one session, or all the API's.",
                    type: "[String]", initial: "[]")),
            .own(
                .plain(
                    .flag, "reveal", "--reveal", help: "With show: print the cookies' values instead of <redacted>.",
                    type: "Bool", initial: "false"))
        ],
        folder: "Session")
}
