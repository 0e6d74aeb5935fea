import ArgumentParser
import TargetModel
import TextSafety

// `import curl`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into ImportFromCurl+Generated.swift (`make options`).
extension MoyaCommand.Import.FromCurl {
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
