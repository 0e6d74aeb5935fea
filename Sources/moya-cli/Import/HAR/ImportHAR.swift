import ArgumentParser
import TargetModel
import TextSafety

extension MoyaCommand.Import {
    /// `moya-cli import har FILE`.
    struct FromHAR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "har",
            abstract: "Make target files from a HAR capture (a browser's network panel, \"Save all as HAR\").",
            discussion: """
                The requests are grouped by origin into APIs, one target file each (targets/API.yaml, \
                API made from the host, or --api for one); each distinct method and path is a case \
                (getV1Users for GET /v1/users), its recorded response the sample. Credentials \
                (Authorization, Cookie, API-key headers, query parameters named like one) are never \
                written, as for import curl. An existing file needs --force. Exits 65 with the JSON \
                path for a capture that cannot be imported. See moya-cli-import(1).
                """
        )

        @Argument(
            help: ArgumentHelp("The HAR file, or - for standard input.", valueName: "file"),
            completion: .file(extensions: ["har", "json"]))
        var input: String

        @Option(
            name: .customLong("api"),
            help: ArgumentHelp(
                "The API's name when the capture (or --only) has one host (default: from the host).",
                valueName: "name"))
        var apiName: String?

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp(
                "The target file for the one API; - for standard output (default: targets/API.yaml).", valueName: "file"
            ),
            completion: .file(extensions: ["yaml", "yml"]))
        var output: String?

        @Option(
            name: .customLong("only"), parsing: .singleValue,
            help: ArgumentHelp("Import only the requests to this host. Repeatable.", valueName: "host"))
        var only: [String] = []

        @Flag(help: "Replace existing target files.")
        var force = false

        func validate() throws {
            try ImportedTargetFile.checkAPIName(apiName)
        }

        func run() throws {
            try reportingFailures { try ImportHARRunner(command: self).run() }
        }
    }
}
