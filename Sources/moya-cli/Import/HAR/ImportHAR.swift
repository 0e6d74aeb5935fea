import ArgumentParser
import TargetModel
import TextSafety

// `import har`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into ImportFromHAR+Generated.swift (`make options`).
extension MoyaCommand.Import.FromHAR {
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

    func validate() throws {
        try ImportedTargetFile.checkAPIName(apiName)
    }

    func run() throws {
        try reportingFailures { try ImportHARRunner(command: self).run() }
    }
}
