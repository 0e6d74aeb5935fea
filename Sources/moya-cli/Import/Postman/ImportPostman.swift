import ArgumentParser
import TargetModel
import TextSafety

extension MoyaCommand.Import {
    /// `moya-cli import postman FILE`.
    struct FromPostman: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "postman",
            abstract: "Make a target file from a Postman collection (v2.0 or v2.1 JSON).",
            discussion: """
                Each request is a case named from its folders and name (Users / Get user: \
                usersGetUser); {{variables}} become ${VAR} in the base URL, headers and auth, read \
                from the environment 'collection' (the collection's variables) or one named after \
                --environment's file, and string values of the case in paths, queries and bodies. \
                Auth (bearer, basic, apikey, oauth2 client credentials) becomes schemes, saved \
                examples samples; scripts are skipped with a note. Credentials are never written: \
                they are ${secret:VAR} references, named on stderr. An existing file needs --force. \
                Exits 65 with the JSON path for a collection that cannot be imported. See moya-cli-import(1).
                """
        )

        @Argument(
            help: ArgumentHelp("The collection file, or - for standard input.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var input: String

        @Option(
            name: .customLong("api"),
            help: ArgumentHelp("The API's name (default: from the collection's name).", valueName: "name"))
        var apiName: String?

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp(
                "The target file; - for standard output (default: targets/API.yaml).", valueName: "file"),
            completion: .file(extensions: ["yaml", "yml"]))
        var output: String?

        @Option(
            name: .customLong("environment"),
            help: ArgumentHelp("A Postman environment file whose values become an environment.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var environment: String?

        @Option(
            name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp(
                "Import only the requests this names: a folder, a request, a Folder/Request path or a case name. Repeatable.",
                valueName: "name"))
        var only: [String] = []

        @Flag(help: "Replace an existing target file.")
        var force = false

        func validate() throws {
            try ImportedTargetFile.checkAPIName(apiName)
        }

        func run() throws {
            try reportingFailures { try ImportPostmanRunner(command: self).run() }
        }
    }
}
