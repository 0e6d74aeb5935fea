import ArgumentParser
import TargetModel
import TextSafety

extension MoyaCommand.Import {
    /// `moya-cli import curl [FILE|-] --api NAME --case NAME`.
    struct FromCurl: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "curl",
            abstract: "Make cases from curl command lines, as a browser's \"Copy as cURL\" writes them.",
            discussion: """
                Each command becomes a case: --case names the first, the others get --case followed \
                by 2, 3, …. The method, the URL (its origin the API's base URL, or the case's own \
                baseURL when it is another, its path the case's path, its query the case's \
                parameters), the headers and the body are read with \
                curl's rules; credentials (Authorization, Cookie, API-key headers, -u) are written \
                as ${secret:MOYA_<API>_<HEADER>} references, named on stderr, never with their \
                value. Files the commands read (-d @file, -F 'f=<file') must be in the folder of \
                FILE (the current folder for standard input). Adds the cases to the file that \
                defines the API (found as call finds it) or to --output's, keeping every other \
                byte, else writes targets/API.yaml; \
                --force replaces it. Exits 65 with the line and column for a command that cannot \
                be read. See moya-cli-import(1).
                """
        )

        @Argument(
            help: ArgumentHelp("The file of curl commands, or - for standard input (the default).", valueName: "file"),
            completion: .file())
        var input: String = "-"

        @Option(
            name: .customLong("api"),
            help: ArgumentHelp("The API's name, and the prefix of its secrets' variables.", valueName: "name"))
        var apiName: String

        @Option(
            name: .customLong("case"),
            help: ArgumentHelp(
                "The first command's case name; the others get it followed by 2, 3, ….", valueName: "name"))
        var caseName: String

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp(
                "The target file to write or add to; - for standard output (default: targets/API.yaml).",
                valueName: "file"),
            completion: .file(extensions: ["yaml", "yml"]))
        var output: String?

        @Option(
            name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp("Import only the Nth command (counting from 1). Repeatable.", valueName: "n"))
        var only: [Int] = []

        @Flag(help: "Replace an existing target file instead of adding the cases to it.")
        var force = false

        func validate() throws {
            try ImportedTargetFile.checkAPIName(apiName)
            guard TargetFileValidator.isIdentifier(caseName) else {
                throw ValidationError(
                    "--case '\(DisplayText.escaped(caseName))' is not a case name: letters, digits and _, not starting with a digit"
                )
            }
        }

        func run() throws {
            try reportingFailures { try ImportCurlRunner(command: self).run() }
        }
    }
}
